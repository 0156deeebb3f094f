"""Rollout API shapes: the strategy is written once at create; progress and status are read-only."""

from __future__ import annotations

from typing import Any

from drf_spectacular.utils import extend_schema_field
from rest_framework import serializers

from controlplane.api.fields import StrictCharField, StrictIntegerField, StrictSlugRelatedField
from controlplane.api.serializers import ConditionSerializer, ModelCleanSerializer, NestedObjectSerializer
from gateways.choices import ReleaseStatus
from gateways.models import GatewayRelease
from rollouts.choices import ApprovalState, RolloutPhase, TargetState
from rollouts.models import Rollout, RolloutEvent, RolloutTarget, WavePlan
from rollouts.status import TargetRow, summarise

__all__ = [
    "ApproveSerializer",
    "RejectSerializer",
    "RolloutEventSerializer",
    "RolloutSerializer",
    "RolloutTargetSerializer",
    "WavePlanSerializer",
]

STATES = TargetState.choices


class SelectorSerializer(NestedObjectSerializer):
    clusters = serializers.ListField(
        child=StrictCharField(max_length=63),
        required=False,
        max_length=1000,
        help_text="Only gateways on these clusters.",
    )
    labels = serializers.DictField(
        child=StrictCharField(max_length=63), required=False, help_text="Only gateways with all these labels."
    )


class WavesSerializer(NestedObjectSerializer):
    clusters = serializers.ListField(
        child=serializers.ListField(child=StrictCharField(max_length=63), min_length=1),
        required=False,
        max_length=100,
        help_text="Explicit waves of cluster names; the first is the canary.",
    )
    percentages = serializers.ListField(
        child=StrictIntegerField(min_value=1, max_value=100),
        required=False,
        max_length=100,
        help_text="Cumulative percentages of the selection, ending at 100; the first wave is the canary. "
        "Default: [10, 100].",
    )


class CountsSerializer(serializers.Serializer):
    pending = StrictIntegerField()
    upgrading = StrictIntegerField()
    healthy = StrictIntegerField()
    failed = StrictIntegerField()
    rolled_back = StrictIntegerField()
    skipped = StrictIntegerField()


class TotalSerializer(serializers.Serializer):
    size = StrictIntegerField()
    worst = serializers.ChoiceField(
        choices=STATES, allow_null=True, help_text="failed > rolled_back > upgrading > pending > skipped > healthy"
    )
    counts = CountsSerializer()


class WaveStatusSerializer(TotalSerializer):
    index = StrictIntegerField()
    canary = serializers.BooleanField()
    current = serializers.BooleanField()
    clusters = serializers.ListField(child=StrictCharField())


class BlockedSerializer(serializers.Serializer):
    gateway = StrictCharField()
    cluster = StrictCharField()
    wave = StrictIntegerField()
    state = serializers.ChoiceField(choices=STATES)
    reason = StrictCharField()


class ApprovalSummarySerializer(serializers.Serializer):
    wave = StrictIntegerField()
    state = serializers.ChoiceField(choices=ApprovalState.choices)
    plan_hash = StrictCharField(help_text="sha256 over each gateway's action, values diff and object diff.")
    planned_at = serializers.DateTimeField()
    decided_by = StrictCharField(allow_null=True)
    decided_at = serializers.DateTimeField(allow_null=True)
    reason = StrictCharField(help_text="Why it was rejected, or what voided it.")


class RolloutStatusSerializer(serializers.Serializer):
    phase = serializers.ChoiceField(choices=RolloutPhase.choices)
    current_wave = StrictIntegerField()
    wave_count = StrictIntegerField()
    wave_started_at = serializers.DateTimeField(allow_null=True)
    baking_since = serializers.DateTimeField(allow_null=True)
    finished_at = serializers.DateTimeField(allow_null=True)
    conditions = ConditionSerializer(many=True)
    total = TotalSerializer()
    waves = WaveStatusSerializer(many=True)
    blocked = BlockedSerializer(many=True, help_text="The gateways that blocked the rollout, and why.")
    approval = ApprovalSummarySerializer(
        allow_null=True, help_text="The current wave's plan, when the wave needs approval (its diff: GET .../plan/)."
    )


def _summary(plan: WavePlan | None) -> dict[str, Any] | None:
    if plan is None:
        return None
    return {
        "wave": plan.wave,
        "state": plan.state,
        "plan_hash": plan.plan_hash,
        "planned_at": plan.created_at,
        "decided_by": plan.decided_by.username if plan.decided_by else None,
        "decided_at": plan.decided_at,
        "reason": plan.reason,
    }


class RolloutSerializer(ModelCleanSerializer):
    schema_description = (
        "Moves the gateways a selector picks to a target release in waves, each gated on the gateways' "
        "health; a failed gate halts the rollout, and may roll the wave back."
    )

    target_release = StrictSlugRelatedField(
        slug_field="name",
        queryset=GatewayRelease.objects.exclude(status=ReleaseStatus.INVALID),
        help_text="The release to move the gateways to (by name); not an Invalid one.",
    )
    selector = SelectorSerializer(required=False, help_text="Which gateways; empty: all of them.")
    waves = WavesSerializer(required=False, write_only=True)
    wave_plan = serializers.SerializerMethodField(help_text="The waves as given at create.")
    created_by = StrictCharField(source="created_by.username", read_only=True, allow_null=True)
    status = serializers.SerializerMethodField()

    class Meta:
        model = Rollout
        fields = (
            "id",
            "name",
            "target_release",
            "selector",
            "waves",
            "wave_plan",
            "max_parallel",
            "bake_seconds",
            "gate_timeout_seconds",
            "failure_policy",
            "require_approval",
            "created_by",
            "status",
            "created_at",
            "updated_at",
        )
        read_only_fields = ("id", "created_at", "updated_at")

    def validate_target_release(self, release: GatewayRelease) -> GatewayRelease:
        if release.verification_failed():
            raise serializers.ValidationError(f"{release.trust_problem()}; it cannot be a rollout's target.")
        return release

    def to_internal_value(self, data: Any) -> Any:
        attrs = super().to_internal_value(data)
        waves = attrs.pop("waves", {})
        attrs["wave_clusters"] = waves.get("clusters", [])
        attrs["wave_percentages"] = waves.get("percentages", [])
        return attrs

    @extend_schema_field(WavesSerializer)
    def get_wave_plan(self, rollout: Rollout) -> dict[str, Any]:
        return {"clusters": rollout.wave_clusters, "percentages": rollout.wave_percentages}

    @staticmethod
    def status_of(rollout: Rollout) -> dict[str, Any]:
        rows = [TargetRow(t.gateway_name, t.cluster_name, t.wave, t.state, t.reason) for t in rollout.targets.all()]
        return {
            "phase": rollout.phase,
            "current_wave": rollout.current_wave,
            "wave_count": rollout.wave_count,
            "wave_started_at": rollout.wave_started_at,
            "baking_since": rollout.baking_since,
            "finished_at": rollout.finished_at,
            "conditions": rollout.conditions,
            **summarise(rows, rollout.wave_count, rollout.current_wave),
            "approval": _summary(
                WavePlan.objects.filter(rollout=rollout, wave=rollout.current_wave).select_related("decided_by").first()
            ),
        }

    @extend_schema_field(RolloutStatusSerializer)
    def get_status(self, rollout: Rollout) -> dict[str, Any]:
        return RolloutStatusSerializer(self.status_of(rollout)).data


class RolloutTargetSerializer(serializers.ModelSerializer):
    previous_release = StrictCharField(source="previous_release.name", read_only=True, allow_null=True)

    class Meta:
        model = RolloutTarget
        fields = (
            "gateway_name",
            "cluster_name",
            "wave",
            "position",
            "state",
            "previous_release",
            "started_at",
            "finished_at",
            "reason",
        )
        read_only_fields = fields


class RolloutEventSerializer(serializers.ModelSerializer):
    class Meta:
        model = RolloutEvent
        fields = ("timestamp", "type", "reason", "message", "wave", "gateway_name")
        read_only_fields = fields


class PlannedGatewaySerializer(serializers.Serializer):
    gateway_id = StrictCharField()
    gateway = StrictCharField()
    cluster = StrictCharField()
    plan = serializers.DictField(
        help_text="As GET /gateways/{id}/plan/ shows it: action, reasons, values_diff, objects, prerequisites."
    )


class WavePlanSerializer(serializers.Serializer):
    schema_description = "A wave's plan: what approving its plan_hash lets the rollout apply, gateway by gateway."

    wave = StrictIntegerField()
    state = serializers.ChoiceField(choices=ApprovalState.choices)
    plan_hash = StrictCharField()
    planned_at = serializers.DateTimeField()
    decided_by = StrictCharField(allow_null=True)
    decided_at = serializers.DateTimeField(allow_null=True)
    reason = StrictCharField()
    gateways = PlannedGatewaySerializer(many=True)

    @staticmethod
    def of(plan: WavePlan) -> dict[str, Any]:
        return {**(_summary(plan) or {}), "gateways": plan.gateways()}


class ApproveSerializer(serializers.Serializer):
    plan_hash = StrictCharField(max_length=64, help_text="The hash of the plan you reviewed (status.approval).")


class RejectSerializer(serializers.Serializer):
    reason = StrictCharField(max_length=1024, help_text="Why; shown in the events and the Halted condition.")
