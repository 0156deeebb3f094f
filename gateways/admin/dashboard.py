"""The console dashboard's gateway panel: counts by phase, the fleet plots, and the gateways in trouble.

Registered from ``GatewaysConfig.ready`` (``controlplane.dashboard``); tenants see their own gateways.
"""

from __future__ import annotations

from typing import Any

from django.contrib.admin.utils import quote
from django.db.models import Count
from django.http import HttpRequest
from django.urls import reverse
from django.utils import timezone

from controlplane.admin_site import MUTED, abnormal_conditions, badge, relative_time
from controlplane.api.permissions import is_platform_admin
from controlplane.fleet_plots import PhaseLine, fleet_plots
from gateways.admin.display import PHASE_TONES, phase_badge
from gateways.choices import Phase
from gateways.models import Gateway
from gateways.states import GatewayConditionType

__all__ = ["gateway_panel", "trouble_reason", "trouble_summary"]

TROUBLE_SHOWN = 25


def trouble_reason(gateway: Gateway) -> str:
    """The most telling abnormal condition (Ready first) as 'Reason: message'."""
    failing = abnormal_conditions(gateway.conditions, first=GatewayConditionType.READY)
    if not failing:
        return ""
    top = failing[0]
    return f"{top.get('reason', '')}: {top.get('message', '')}".strip(": ")


def trouble_summary(gateway: Gateway) -> dict[str, Any]:
    return {
        "name": gateway.name,
        "url": reverse("admin:gateways_gateway_change", args=(quote(gateway.pk),)),
        "phase": phase_badge(gateway),
        "owner": gateway.owner.get_username(),
        "cluster": gateway.cluster.name,
        "failure_count": gateway.failure_count,
        "reason": trouble_reason(gateway),
        "reconciled": relative_time(gateway.last_reconciled_at),
    }


def gateway_panel(request: HttpRequest) -> dict[str, Any]:
    gateways = Gateway.objects.all()
    if not is_platform_admin(request.user):
        gateways = gateways.filter(owner=request.user)
    counts = dict(gateways.order_by().values_list("phase").annotate(n=Count("id")))
    phases = [
        {
            "value": phase.value,
            "label": phase.label,
            "count": counts.get(phase.value, 0),
            "tone": PHASE_TONES.get(phase.value, MUTED),
        }
        for phase in Phase
    ]
    trouble = gateways.filter(phase__in=(Phase.FAILED, Phase.DEGRADED)).select_related("cluster", "owner")
    context: dict[str, Any] = {
        "phases": phases,
        "gateway_total": sum(counts.values()),
        "trouble": [trouble_summary(g) for g in trouble.order_by("-updated_at")[:TROUBLE_SHOWN]],
        "trouble_total": trouble.count(),
        "badge_failed": badge(Phase.FAILED.label, PHASE_TONES[Phase.FAILED]),
        "badge_degraded": badge(Phase.DEGRADED.label, PHASE_TONES[Phase.DEGRADED]),
    }
    if is_platform_admin(request.user):  # fleet-wide figures: other tenants' gateways are counted too
        # Pending and Deleting share the muted tone: Deleting is drawn dashed.
        lines = [PhaseLine(p["value"], p["label"], p["tone"], dashed=p["value"] == Phase.DELETING) for p in phases]
        context["fleet"] = fleet_plots(timezone.now(), lines)
    return context
