"""The image overrides a rollout drops from a gateway it moves to another release."""

from __future__ import annotations

from typing import Any

from gateways.image_rules import enforced_overrides
from gateways.models import Gateway, GatewayRelease

__all__ = ["dropped_overrides"]


def dropped_overrides(gateway_id: Any, release_id: Any) -> dict[str, str]:
    """The image overrides a rollout to ``release_id`` removes: those a tenant's gateway has that its cluster's
    image policy no longer allows (the release's images replace them; a release without images keeps them), unless
    they are a platform admin's exception."""
    gateway = Gateway.objects.select_related("cluster", "owner").filter(pk=gateway_id).first()
    release = GatewayRelease.objects.filter(pk=release_id).first()
    if gateway is None or release is None or not release.image or gateway.owner.is_superuser:
        return {}
    return {field: "" for field in enforced_overrides(gateway)}
