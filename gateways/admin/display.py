"""How gateways look in the console: badge tones for phases, plans, checks and Helm release statuses."""

from __future__ import annotations

from django.utils.html import format_html
from django.utils.safestring import SafeString

from controlplane.admin_site import ERROR, INFO, MUTED, OK, WARN, badge
from gateways.choices import Phase, PlanAction
from gateways.models import Gateway

__all__ = ["CHECK_TONES", "PHASE_TONES", "PLAN_TONES", "RELEASE_TONES", "phase_badge", "release_status_badge"]

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
RELEASE_TONES = {"deployed": OK, "failed": ERROR, "superseded": MUTED, "uninstalling": MUTED}


def phase_badge(gateway: Gateway) -> SafeString:
    html = badge(gateway.get_phase_display(), PHASE_TONES.get(gateway.phase, MUTED))
    if gateway.suspended:
        html = format_html("{} {}", html, badge("Suspended", MUTED))
    return html


def release_status_badge(gateway: Gateway) -> SafeString:
    if not gateway.release_status:
        return format_html('<span class="cp-muted">{}</span>', "not installed")
    tone = WARN if gateway.release_status.startswith("pending") else RELEASE_TONES.get(gateway.release_status, MUTED)
    return badge(gateway.release_status, tone)
