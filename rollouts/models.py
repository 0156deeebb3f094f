"""Rollouts: move a selection of gateways to a target release in ordered, health-gated waves.

The controller (``workers.reconcile.rollout``) advances a rollout from these rows alone, so a worker
restart resumes where it was. Every gateway of a rollout has one ``RolloutTarget`` row, planned into
its wave at creation; its ``state`` only moves forward, so no gateway is upgraded twice for a wave.
"""

from __future__ import annotations

import uuid
from typing import Any

from django.conf import settings
from django.core.validators import MinValueValidator
from django.db import models

from controlplane.models import EventRecord
from controlplane.validators import validate_dns1123_label
from gateways.models import Gateway, GatewayRelease
from rollouts.approval import Inputs
from rollouts.choices import ApprovalState, FailurePolicy, RolloutPhase, TargetState

__all__ = ["Rollout", "RolloutEvent", "RolloutTarget", "WavePlan"]


class Rollout(models.Model):
    """The strategy (waves, parallelism, bake, gate) and the progress of one rollout."""

    id = models.UUIDField(primary_key=True, default=uuid.uuid4, editable=False)
    name = models.CharField(max_length=63, unique=True, validators=[validate_dns1123_label])
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    target_release = models.ForeignKey(GatewayRelease, on_delete=models.PROTECT, related_name="rollouts")
    # Which gateways, as given: {"clusters": [...], "labels": {...}}; empty: every gateway.
    selector = models.JSONField(default=dict, blank=True)
    # The waves, as given: cluster groups, or cumulative percentages (the first wave is the canary).
    wave_clusters = models.JSONField(default=list, blank=True)
    wave_percentages = models.JSONField(default=list, blank=True)
    require_approval = models.BooleanField(
        default=False,
        help_text="Every wave waits for a platform admin's approval of its plan (a cluster's "
        "rollouts_require_approval asks the same of the waves with gateways on it).",
    )
    max_parallel = models.PositiveIntegerField(default=1, validators=[MinValueValidator(1)])
    bake_seconds = models.PositiveIntegerField(default=60)
    gate_timeout_seconds = models.PositiveIntegerField(default=600, validators=[MinValueValidator(1)])
    failure_policy = models.CharField(
        max_length=24, choices=FailurePolicy.choices, default=FailurePolicy.HALT_AND_ROLLBACK
    )

    phase = models.CharField(max_length=16, choices=RolloutPhase.choices, default=RolloutPhase.PENDING)
    wave_count = models.PositiveIntegerField(default=0)
    current_wave = models.PositiveIntegerField(default=0)
    wave_started_at = models.DateTimeField(null=True, blank=True)
    baking_since = models.DateTimeField(null=True, blank=True)  # every gateway of the current wave is healthy
    conditions = models.JSONField(default=list, blank=True)
    created_at = models.DateTimeField(auto_now_add=True)
    updated_at = models.DateTimeField(auto_now=True)
    finished_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ("-created_at",)

    def __str__(self) -> str:
        return self.name


class RolloutTarget(models.Model):
    """One gateway of a rollout: its wave, its state, and the release to roll it back to."""

    rollout = models.ForeignKey(Rollout, on_delete=models.CASCADE, related_name="targets")
    gateway = models.ForeignKey(Gateway, null=True, on_delete=models.SET_NULL, related_name="rollout_targets")
    gateway_name = models.CharField(max_length=63)
    cluster_name = models.CharField(max_length=63)
    wave = models.PositiveIntegerField()
    position = models.PositiveIntegerField()
    state = models.CharField(max_length=16, choices=TargetState.choices, default=TargetState.PENDING)
    previous_release = models.ForeignKey(
        GatewayRelease, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    generation = models.PositiveBigIntegerField(null=True, blank=True)  # the gateway's, once its release changed
    started_at = models.DateTimeField(null=True, blank=True)
    finished_at = models.DateTimeField(null=True, blank=True)
    reason = models.CharField(max_length=1024, blank=True)

    class Meta:
        ordering = ("wave", "position")
        constraints = [models.UniqueConstraint(fields=("rollout", "gateway"), name="one_target_per_gateway")]
        indexes = [models.Index(fields=("gateway", "state"), name="rollout_target_gateway")]

    def __str__(self) -> str:
        return f"{self.gateway_name} (wave {self.wave})"


class RolloutEvent(EventRecord):
    rollout = models.ForeignKey(Rollout, on_delete=models.CASCADE, related_name="events")
    wave = models.PositiveIntegerField(null=True, blank=True)
    gateway_name = models.CharField(max_length=63, blank=True)

    class Meta(EventRecord.Meta):
        pass


class WavePlan(models.Model):
    """One planning of a wave that needs approval: each target's plan (by gateway id), the hash an approval names,
    and what fed the plans (``rollouts.approval.Inputs``). The newest row of a wave is its current plan; a void
    one stays as the record of what was approved and why it no longer holds."""

    rollout = models.ForeignKey(Rollout, on_delete=models.CASCADE, related_name="wave_plans")
    wave = models.PositiveIntegerField()
    state = models.CharField(max_length=16, choices=ApprovalState.choices, default=ApprovalState.AWAITING)
    plan_hash = models.CharField(max_length=64)
    plans = models.JSONField(default=dict)
    inputs = models.JSONField(default=dict)
    decided_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    decided_at = models.DateTimeField(null=True, blank=True)
    reason = models.CharField(max_length=2048, blank=True)  # why it was rejected, or what voided it
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ("-created_at", "-id")
        indexes = [models.Index(fields=("rollout", "wave", "-created_at"), name="wave_plan_current")]

    def __str__(self) -> str:
        return f"{self.rollout} wave {self.wave} plan {self.plan_hash[:12]} ({self.state})"

    def gateways(self) -> list[dict[str, Any]]:
        """Each planned gateway (id, name, cluster) with its plan, by cluster and name."""
        inputs = Inputs.from_dict(self.inputs)
        return [
            {
                "gateway_id": gateway_id,
                "gateway": inputs.names.get(gateway_id, ""),
                "cluster": inputs.clusters.get(gateway_id, ""),
                "plan": self.plans[gateway_id],
            }
            for gateway_id in sorted(self.plans, key=lambda g: (inputs.clusters.get(g, ""), inputs.names.get(g, "")))
        ]
