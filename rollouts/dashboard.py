"""The console dashboard's rollouts waiting for approval (registered from ``RolloutsConfig.ready``)."""

from __future__ import annotations

from typing import Any

from django.contrib.admin.utils import quote
from django.http import HttpRequest
from django.urls import reverse

from controlplane.api.permissions import is_platform_admin
from rollouts.choices import RolloutPhase
from rollouts.models import Rollout

__all__ = ["approval_panel"]

SHOWN = 20


def approval_panel(request: HttpRequest) -> dict[str, Any]:
    """The rollouts whose current wave waits for approval, oldest first (platform admins only)."""
    if not is_platform_admin(request.user):
        return {}
    waiting = (
        Rollout.objects.filter(phase=RolloutPhase.AWAITING_APPROVAL)
        .select_related("target_release", "created_by")
        .order_by("updated_at")
    )
    return {
        "rollouts_awaiting_total": waiting.count(),
        "rollouts_awaiting": [
            {
                "name": r.name,
                "release": r.target_release.name,
                "wave": r.current_wave,
                "created_by": r.created_by.username if r.created_by else "-",
                "url": reverse("admin:rollouts_rollout_change", args=(quote(r.pk),)),
            }
            for r in waiting[:SHOWN]
        ],
    }
