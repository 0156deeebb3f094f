"""How gateways look in the console: badge tones, the list columns and the detail page's read-only fields."""

from __future__ import annotations

from django.contrib import admin
from django.utils.html import format_html
from django.utils.safestring import SafeString

from cluster_vocabulary.helm import HelmStatus
from controlplane.admin_site import (
    ERROR,
    INFO,
    MUTED,
    OK,
    WARN,
    badge,
    conditions_table,
    copyable,
    events_table,
    relative_time,
    secret_state,
)
from gateways.choices import Phase, PlanAction
from gateways.models import Gateway
from gateways.states import ConditionType

__all__ = [
    "ABNORMAL_WHEN_TRUE",
    "CHECK_TONES",
    "PHASE_TONES",
    "PLAN_TONES",
    "RELEASE_TONES",
    "GatewayDisplayMixin",
    "phase_badge",
]

PHASE_TONES = {
    Phase.PENDING: MUTED,
    Phase.PROVISIONING: INFO,
    Phase.RUNNING: OK,
    Phase.DEGRADED: WARN,
    Phase.FAILED: ERROR,
    Phase.DELETING: MUTED,
}
PLAN_TONES = {PlanAction.INSTALL: INFO, PlanAction.UPGRADE: WARN, PlanAction.NOTHING: OK, PlanAction.BLOCKED: ERROR}
CHECK_TONES = {"present": OK, "will-create": INFO, "missing": ERROR}
RELEASE_TONES = {
    HelmStatus.DEPLOYED: OK,
    HelmStatus.FAILED: ERROR,
    HelmStatus.SUPERSEDED: MUTED,
    HelmStatus.UNINSTALLING: MUTED,
}
# The gateway conditions whose True is the noteworthy state (registered on the console by GatewaysConfig.ready).
ABNORMAL_WHEN_TRUE = {
    ConditionType.STALLED: ERROR,
    ConditionType.RECONCILING: INFO,
    ConditionType.DRIFTED: WARN,
    ConditionType.PREREQUISITES_MISSING: ERROR,
}


def phase_badge(gateway: Gateway) -> SafeString:
    html = badge(gateway.get_phase_display(), PHASE_TONES.get(gateway.phase, MUTED))
    if gateway.suspended:
        html = format_html("{} {}", html, badge("Suspended", MUTED))
    return html


class GatewayDisplayMixin:
    """For the gateway ModelAdmin: the columns of its list and the status fields of its detail page."""

    # List columns.

    @admin.display(description="Phase", ordering="phase")
    def phase_column(self, obj: Gateway) -> SafeString:
        return phase_badge(obj)

    @admin.display(description="Route address", ordering="route_address")
    def route_column(self, obj: Gateway) -> SafeString:
        return copyable(obj.route_address)

    @admin.display(description="Last reconciled", ordering="last_reconciled_at")
    def reconciled_column(self, obj: Gateway) -> SafeString:
        return relative_time(obj.last_reconciled_at)

    # Read-only fields of the detail page.

    @admin.display(description="Images")
    def images_display(self, obj: Gateway) -> SafeString:
        image, supervisor_image = obj.desired_images()
        deployed = f"{obj.deployed_image}, {obj.deployed_supervisor_image}" if obj.deployed_image else "not seen yet"
        source = "overrides" if obj.image_overridden else f"release {obj.release or '(default)'}"
        return format_html(
            "Should run: {}, {} ({})<br>Runs (Helm's record): {}", image, supervisor_image, source, deployed
        )

    @admin.display(description="Owner")
    def owner_name(self, obj: Gateway) -> str:
        return obj.owner.get_username()

    @admin.display(description="Stored database URI")
    def database_uri_state(self, obj: Gateway) -> SafeString:
        return secret_state(obj, "database_uri")

    @admin.display(description="Phase")
    def phase_display(self, obj: Gateway) -> SafeString:
        return phase_badge(obj)

    @admin.display(description="Route address")
    def route_display(self, obj: Gateway) -> SafeString:
        return copyable(obj.route_address, empty="not published yet")

    @admin.display(description="Next attempt")
    def next_attempt_display(self, obj: Gateway) -> SafeString:
        return relative_time(obj.next_attempt_at, empty="-")

    @admin.display(description="Last reconciled")
    def last_reconciled_display(self, obj: Gateway) -> SafeString:
        return relative_time(obj.last_reconciled_at)

    @admin.display(description="Deletion requested")
    def deletion_display(self, obj: Gateway) -> SafeString:
        return relative_time(obj.deletion_requested_at, empty="no")

    @admin.display(description="Release status")
    def release_status_display(self, obj: Gateway) -> SafeString:
        if not obj.release_status:
            return format_html('<span class="cp-muted">{}</span>', "not installed")
        tone = WARN if obj.release_status.startswith("pending") else RELEASE_TONES.get(obj.release_status, MUTED)
        return badge(obj.release_status, tone)

    @admin.display(description="Conditions")
    def conditions_display(self, obj: Gateway) -> SafeString:
        return conditions_table(obj.conditions, obj.generation)

    @admin.display(description="Events, newest first")
    def events_display(self, obj: Gateway) -> SafeString:
        return events_table(obj.events.all())
