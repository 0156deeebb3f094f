"""A release's trust policy, checked on every write (pure: the model passes what it depends on).

A signature policy (cosign public keys) makes the worker verify the release before it is Ready: an ``oci://``
chart and both images by their cosign signatures, a local chart by ``chart_digest``. These rules refuse, up
front, a release the worker could not verify."""

from __future__ import annotations

from typing import Any

__all__ = ["SETTING", "is_oci", "release_trust_problems", "unsigned_release_problem"]

SETTING = "RELEASES_REQUIRE_SIGNATURES"


def is_oci(chart: str) -> bool:
    return chart.startswith("oci://")


def unsigned_release_problem(cluster: Any, release: Any) -> str | None:
    """Why a gateway on ``cluster`` may not run ``release`` (None when it may): the cluster requires signed releases
    and the release has no signature policy."""
    if not cluster.require_signed_releases or (release is not None and release.signature_keys):
        return None
    named = f"release {release.name}" if release is not None else "the default release (there is none yet)"
    return (
        f"Cluster {cluster.name} runs only signed releases (require_signed_releases), and {named} has no "
        "signature_policy."
    )


def release_trust_problems(release: Any, *, had_keys: bool | None, required: bool) -> dict[str, str]:
    """Why the release's trust policy is refused, by model field (empty when it is not). ``had_keys``: whether the
    saved release has keys (None for a new one); ``required``: the platform setting that refuses a new release
    without a policy."""
    if had_keys is not None and had_keys != bool(release.signature_keys):
        return {
            "signature_keys": "A release keeps the trust it was made with: its keys may change, but a "
            "signature_policy is not added or removed after creation. Create another release."
        }
    if is_oci(release.chart) and release.chart_digest:
        return {
            "chart_digest": "An oci:// chart is verified by its cosign signature; chart_digest is for a local chart."
        }
    if not release.signature_keys:
        if had_keys is None and required:
            return {
                "signature_keys": f"{SETTING} is on: a new release needs a signature_policy (one to 8 cosign "
                "public keys) that verifies its chart and images."
            }
        return {}
    if not (release.image and release.supervisor_image):
        return {"image": "A release with a signature_policy names both images, so that the worker can verify them."}
    if not is_oci(release.chart) and not release.chart_digest:
        return {
            "chart_digest": "A release with a signature_policy and a local chart needs the chart's "
            "chart_digest (sha256:<hex> of the packaged chart)."
        }
    return {}
