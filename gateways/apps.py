from typing import Any

from django.apps import AppConfig
from django.db.models.signals import post_save


def _cluster_saved(sender: Any, instance: Any, created: bool, update_fields: Any = None, **kwargs: Any) -> None:
    """A cluster's image policy may have changed: its gateways' ImagePolicy conditions follow (nothing else)."""
    if created or (update_fields is not None and "image_policy" not in update_fields):
        return
    from django.utils import timezone

    from gateways.image_rules import refresh_policy_conditions

    refresh_policy_conditions(instance, timezone.now())


class GatewaysConfig(AppConfig):
    name = "gateways"
    default_auto_field = "django.db.models.BigAutoField"

    def ready(self) -> None:
        from controlplane.admin_site import register_abnormal_when_true
        from controlplane.dashboard import register_panel
        from controlplane.metrics import scraped_by_api
        from controlplane.models import ManagedCluster
        from gateways.admin.dashboard import gateway_panel
        from gateways.admin.display import ABNORMAL_WHEN_TRUE
        from gateways.metrics import FleetCollector

        scraped_by_api(FleetCollector())
        register_panel("gateways", gateway_panel)
        register_abnormal_when_true(ABNORMAL_WHEN_TRUE)
        post_save.connect(_cluster_saved, sender=ManagedCluster, dispatch_uid="gateways-image-policy")
