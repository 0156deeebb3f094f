"""Which gateway images may run (pure: no I/O, no Django).

- **Provenance**: a gateway image and its supervisor image come from one registry and repository namespace
  (`ghcr.io/nvidia/openshell/gateway` and `ghcr.io/nvidia/openshell/supervisor` share `ghcr.io/nvidia/openshell`).
- **Image policy**: whether tenants may override their release's images at all and, if they may, which
  repositories (exact, a prefix ending in `/`, or `*` for any) and whether a digest is required. A problem is a
  sentence that names the rule it breaks.
- **Images from values**: what a Helm record's values make the chart run (`printf "%s:%s" repository tag`).

A reference without a registry is Docker Hub's (`nginx` is `docker.io/library/nginx`), for matching only: the
reference itself is kept exactly as written.
"""

from __future__ import annotations

import enum
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from controlplane.imageref import ImageRef, InvalidImageRefError, parse_image_ref

__all__ = [
    "ANY_REPOSITORY",
    "DeployedImages",
    "ImagePolicy",
    "OverrideMode",
    "PolicyError",
    "canonical_name",
    "images_from_values",
    "override_problem",
    "parse_policy",
    "provenance",
    "provenance_problem",
]

ANY_REPOSITORY = "*"
DOCKER_HUB = "docker.io"
IMAGE_FIELDS = ("image", "supervisor_image")
_POLICY_KEYS = frozenset({"overrides", "repositories", "require_digest"})
MAX_RULES = 64


class OverrideMode(enum.StrEnum):
    """Whether tenants may override their release's images."""

    DENY = "deny"
    ALLOW = "allow"


class PolicyError(ValueError):
    """An image policy that cannot be used as written."""


@dataclass(frozen=True)
class ImagePolicy:
    """Who may override which images; ``source`` names where the policy comes from, for messages."""

    overrides: OverrideMode = OverrideMode.DENY
    repositories: tuple[str, ...] = ()
    require_digest: bool = False
    source: str = "the platform"

    def describe(self) -> str:
        """One line for a form or a help text."""
        if self.overrides is OverrideMode.DENY:
            return f"Image overrides are not allowed ({self.source}): gateways run their release's images."
        repos = "any repository" if ANY_REPOSITORY in self.repositories else ", ".join(self.repositories)
        digest = "; a digest is required" if self.require_digest else ""
        return f"Image overrides are allowed from {repos}{digest} ({self.source})."


@dataclass(frozen=True)
class DeployedImages:
    image: str
    supervisor_image: str


def canonical_name(ref: ImageRef) -> str:
    """``registry/repository`` with Docker Hub's implied registry and ``library/`` spelt out."""
    if ref.registry:
        return ref.name
    repository = ref.repository if "/" in ref.repository else f"library/{ref.repository}"
    return f"{DOCKER_HUB}/{repository}"


def provenance(ref: ImageRef) -> str:
    """The registry and repository namespace: the canonical name without its last path component."""
    return canonical_name(ref).rpartition("/")[0]


def _parse(reference: str) -> ImageRef | None:
    try:
        return parse_image_ref(reference)
    except InvalidImageRefError:
        return None


def provenance_problem(image: str, supervisor_image: str) -> str | None:
    """Why the two images do not share one registry and namespace; None when they do (or cannot be parsed)."""
    gateway, supervisor = _parse(image), _parse(supervisor_image)
    if gateway is None or supervisor is None:
        return None
    if provenance(gateway) == provenance(supervisor):
        return None
    return (
        f"Mixed provenance: the gateway image comes from {provenance(gateway)!r} and the supervisor image from "
        f"{provenance(supervisor)!r}; both images must come from one registry and repository namespace."
    )


def _matches(name: str, rule: str) -> bool:
    if rule == ANY_REPOSITORY:
        return True
    if rule.endswith("/"):
        return name.startswith(rule)
    return name == rule


def override_problem(policy: ImagePolicy, field: str, reference: str) -> str | None:
    """Why a tenant may not run ``reference`` as ``field``; None when the policy allows it."""
    if policy.overrides is OverrideMode.DENY:
        return (
            f"{field}: image overrides are not allowed ({policy.source}, rule overrides=deny); "
            "leave it out to run the release's image."
        )
    ref = _parse(reference)
    if ref is None:
        return None  # the reference's own validation reports it
    name = canonical_name(ref)
    if not any(_matches(name, rule) for rule in policy.repositories):
        allowed = ", ".join(policy.repositories) or "none"
        return f"{field}: repository {name!r} is not allowed ({policy.source}, rule repositories: {allowed})."
    if policy.require_digest and not ref.digest:
        return f"{field}: {reference!r} must be pinned by digest ({policy.source}, rule require_digest)."
    return None


def _rule_problem(rule: Any) -> str | None:
    if not isinstance(rule, str) or not rule or rule != rule.strip():
        return f"{rule!r} is not a repository rule"
    if rule == ANY_REPOSITORY:
        return None
    name = rule.rstrip("/")
    ref = _parse(name)
    if ref is None or ref.tag or ref.digest or ("/" not in name):
        return f"{rule!r} is not a repository (registry/path), a prefix ending in '/', or '*'"
    return None


def parse_policy(data: Mapping[str, Any], source: str) -> ImagePolicy:
    """A policy from its JSON form ``{"overrides", "repositories", "require_digest"}``; PolicyError says why not."""
    if not isinstance(data, Mapping):
        raise PolicyError("An image policy is a JSON object.")
    unknown = sorted(set(data) - _POLICY_KEYS)
    if unknown:
        known = ", ".join(sorted(_POLICY_KEYS))
        raise PolicyError(f"Unknown image policy keys: {', '.join(unknown)} (known: {known}).")
    mode = data.get("overrides", OverrideMode.DENY.value)
    if mode not in tuple(OverrideMode):
        raise PolicyError(f"overrides must be one of {', '.join(OverrideMode)}, not {mode!r}.")
    repositories = data.get("repositories", [])
    if not isinstance(repositories, Sequence) or isinstance(repositories, str) or len(repositories) > MAX_RULES:
        raise PolicyError(f"repositories is a list of at most {MAX_RULES} repository rules.")
    problems = [p for p in map(_rule_problem, repositories) if p]
    if problems:
        raise PolicyError("; ".join(problems) + ".")
    require_digest = data.get("require_digest", False)
    if not isinstance(require_digest, bool):
        raise PolicyError("require_digest must be true or false.")
    if mode == OverrideMode.ALLOW and not repositories:
        raise PolicyError(f"Allowing overrides needs repositories (use {ANY_REPOSITORY!r} for any).")
    return ImagePolicy(OverrideMode(mode), tuple(repositories), require_digest, source)


def _reference(image: Any) -> str | None:
    if not isinstance(image, Mapping):
        return None
    repository, tag = image.get("repository"), image.get("tag")
    if not isinstance(repository, str) or not repository or tag in (None, ""):
        return None
    return f"{repository}:{tag}"


def images_from_values(values: Mapping[str, Any] | None) -> DeployedImages | None:
    """The images a Helm record's values make the chart run; None when they do not name both."""
    values = values or {}
    supervisor = values.get("supervisor")
    image = _reference(values.get("image"))
    supervisor_image = _reference(supervisor.get("image") if isinstance(supervisor, Mapping) else None)
    if image is None or supervisor_image is None:
        return None
    return DeployedImages(image, supervisor_image)
