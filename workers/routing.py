"""The routing settings (GATEWAY_ROUTE_*, GATEWAY_CERT_ISSUER_*) as the values mapping takes them."""

from __future__ import annotations

from django.conf import settings

from gateways.values import RoutingConfig

__all__ = ["routing_config"]


def routing_config() -> RoutingConfig:
    return RoutingConfig(
        gateway_name=settings.GATEWAY_ROUTE_GATEWAY_NAME,
        gateway_namespace=settings.GATEWAY_ROUTE_GATEWAY_NAMESPACE,
        issuer_name=settings.GATEWAY_CERT_ISSUER_NAME,
        issuer_kind=settings.GATEWAY_CERT_ISSUER_KIND,
    )
