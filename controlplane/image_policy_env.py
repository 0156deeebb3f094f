"""The platform's image policy from the environment (GATEWAY_IMAGE_OVERRIDES, _REPOSITORIES, _REQUIRE_DIGEST)."""

from __future__ import annotations

from controlplane.env import config_error, env_bool, env_choice, env_list
from controlplane.image_policy import ImagePolicy, OverrideMode, PolicyError, parse_policy

__all__ = ["GLOBAL_SOURCE", "image_policy_env"]

GLOBAL_SOURCE = "platform setting GATEWAY_IMAGE_OVERRIDES"


def image_policy_env() -> ImagePolicy:
    """The global policy; an unusable one fails start-up naming the variable."""
    mode = env_choice("GATEWAY_IMAGE_OVERRIDES", OverrideMode.DENY, tuple(OverrideMode))
    data = {
        "overrides": mode,
        "repositories": env_list("GATEWAY_IMAGE_REPOSITORIES", []),
        "require_digest": env_bool("GATEWAY_IMAGE_REQUIRE_DIGEST", False),
    }
    try:
        return parse_policy(data, GLOBAL_SOURCE)
    except PolicyError as exc:
        raise config_error(
            "GATEWAY_IMAGE_REPOSITORIES",
            f"is unusable: {exc}",
            "list repositories (registry/path, a prefix ending in '/', or '*'), comma-separated",
        ) from None
