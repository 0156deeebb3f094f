"""Gateway API shapes: the spec is writable, ``status`` is read-only, the database URI is write-only."""

from __future__ import annotations

from typing import Any

from drf_spectacular.utils import extend_schema_field
from rest_framework import serializers

from controlplane.api.fields import StrictCharField, StrictIntegerField, StrictSlugRelatedField
from controlplane.api.permissions import is_platform_admin
from controlplane.api.serializers import ConditionSerializer, ModelCleanSerializer, NestedObjectSerializer
from controlplane.image_policy import IMAGE_FIELDS
from controlplane.models import ManagedCluster
from gateways.choices import DatabaseProvider, Phase
from gateways.image_rules import admin_exception, image_errors
from gateways.models import ROUTE_HOST_CONSTRAINT, Gateway, GatewayEvent, GatewayRelease

__all__ = ["GatewayEventSerializer", "GatewaySerializer"]


class RouteSerializer(NestedObjectSerializer):
    enabled = serializers.BooleanField(
        source="route_enabled",
        required=False,
        help_text="false turns the route off (and takes no host); a route object without it is on.",
    )
    host = StrictCharField(
        source="route_host",
        required=False,
        allow_blank=True,
        max_length=253,
        help_text="Defaults to <namespace>.<cluster base domain>. Unique per cluster, and below the cluster's "
        "base domain or one of its allowed route domains.",
    )


class OidcSerializer(NestedObjectSerializer):
    enabled = serializers.BooleanField(
        source="oidc_enabled",
        required=False,
        help_text="false clears the OIDC settings (and takes no others); an oidc object without it needs an issuer.",
    )
    issuer = StrictCharField(source="oidc_issuer", max_length=512, required=False)
    audience = StrictCharField(source="oidc_audience", required=False, allow_blank=True, max_length=255)
    roles_claim = StrictCharField(source="oidc_roles_claim", required=False, allow_blank=True, max_length=255)
    admin_role = StrictCharField(source="oidc_admin_role", required=False, allow_blank=True, max_length=255)
    user_role = StrictCharField(source="oidc_user_role", required=False, allow_blank=True, max_length=255)
    ca_configmap = StrictCharField(source="oidc_ca_configmap", required=False, allow_blank=True, max_length=253)


class DatabaseSerializer(NestedObjectSerializer):
    provider = serializers.ChoiceField(source="database_provider", choices=DatabaseProvider.choices)
    uri = StrictCharField(source="database_uri", write_only=True, required=False, allow_blank=True, max_length=2048)


class ReleaseSerializer(serializers.Serializer):
    name = StrictCharField(source="release_name", read_only=True)
    revision = StrictIntegerField(source="release_revision", read_only=True)
    status = StrictCharField(source="release_status", read_only=True)
    chart_version = StrictCharField(read_only=True)


class DeployedImagesSerializer(serializers.Serializer):
    schema_description = "The images the deployed revision runs, read from Helm's record of it."

    image = StrictCharField(source="deployed_image", read_only=True)
    supervisor_image = StrictCharField(source="deployed_supervisor_image", read_only=True)


class DesiredImagesSerializer(serializers.Serializer):
    schema_description = "The images the gateway should run: its overrides, else its release's."

    image = StrictCharField(read_only=True)
    supervisor_image = StrictCharField(read_only=True)
    overridden = serializers.BooleanField(
        read_only=True, help_text="Whether the gateway overrides its release's images (as the image policy allows)."
    )


def desired_images(gateway: Gateway) -> dict[str, Any]:
    image, supervisor_image = gateway.desired_images()
    return {"image": image, "supervisor_image": supervisor_image, "overridden": gateway.image_overridden}


def deployed_images(gateway: Gateway) -> dict[str, str] | None:
    if not gateway.deployed_image:
        return None
    return {"image": gateway.deployed_image, "supervisor_image": gateway.deployed_supervisor_image}


class GatewayStatusSerializer(serializers.Serializer):
    phase = serializers.ChoiceField(choices=Phase.choices, read_only=True)
    conditions = ConditionSerializer(many=True, read_only=True)
    observed_generation = StrictIntegerField(read_only=True)
    route_address = StrictCharField(read_only=True)
    release = ReleaseSerializer(source="*", read_only=True)
    deployed_release = StrictCharField(
        source="deployed_release.name",
        read_only=True,
        allow_null=True,
        help_text="The chart release last deployed and converged (observed).",
    )
    deployed_images = serializers.SerializerMethodField(
        help_text="The images the deployed revision runs, from Helm's record; null until one is seen."
    )
    failure_count = StrictIntegerField(read_only=True)
    next_attempt_at = serializers.DateTimeField(allow_null=True, read_only=True)
    window_held_until = serializers.DateTimeField(
        allow_null=True,
        read_only=True,
        help_text="A change waits for the cluster's maintenance window until then (condition MaintenanceWindow); "
        "null: none waits.",
    )
    deletion_requested_at = serializers.DateTimeField(allow_null=True, read_only=True)

    @extend_schema_field(DeployedImagesSerializer(allow_null=True))
    def get_deployed_images(self, gateway: Gateway) -> dict[str, str] | None:
        return deployed_images(gateway)


IMAGE_HELP = (
    "Overrides the release's {what} image (omit or \"\" to run the release's). Tenants may override only where the "
    "image policy allows (GATEWAY_IMAGE_OVERRIDES, or the cluster's image_policy); any reference form is kept "
    "exactly (tag, digest, tag@digest, a registry with a port)."
)

# What turning a group off stores.
_OFF: dict[str, dict[str, Any]] = {
    "route": {"route_enabled": False, "route_host": ""},
    "oidc": {
        "oidc_issuer": "",
        "oidc_audience": "",
        "oidc_roles_claim": "",
        "oidc_admin_role": "",
        "oidc_user_role": "",
        "oidc_ca_configmap": "",
    },
}
OFF_TAKES_NOTHING_ELSE = 'Turning it off ({"enabled": false}) takes no other settings.'


class GatewaySerializer(ModelCleanSerializer):
    """Nested groups (``route``, ``oidc``, ``database``) map onto flat model columns.

    ``{"enabled": false}`` turns a group off. A null group is what generated clients send for a field left out:
    on create it is absent (the default route, no OIDC); on update it still means off, as it did before
    ``enabled`` existed (sent on purpose: the schema does not allow null, so generated clients omit it).
    """

    schema_description = (
        "A tenant gateway on one cluster: its route, OIDC and database settings, and optional overrides of its "
        "release's images (where the image policy allows them). A gateway gets a route by default; send "
        '"route": {"enabled": false} to remove it and "oidc": {"enabled": false} to clear the OIDC '
        "settings. Workers reconcile it and report status.phase, status.conditions, status.route_address and "
        "status.deployed_images."
    )

    cluster = StrictSlugRelatedField(slug_field="name", queryset=ManagedCluster.objects.all())
    owner = StrictCharField(source="owner.username", read_only=True)
    route = RouteSerializer(source="*", required=False)
    oidc = OidcSerializer(source="*", required=False)
    database = DatabaseSerializer(source="*", required=False)
    labels = serializers.DictField(child=StrictCharField(allow_blank=True, max_length=63), required=False)
    release = StrictCharField(
        source="release.name",
        read_only=True,
        allow_null=True,
        help_text="The chart release to run (desired); new gateways get the default, rollouts change it.",
    )
    desired_images = serializers.SerializerMethodField(
        help_text="The images the gateway should run: its overrides, else its release's."
    )
    status = GatewayStatusSerializer(source="*", read_only=True)

    immutable_fields = ("name", "cluster")
    conflict_messages = {
        ROUTE_HOST_CONSTRAINT: "Another gateway on this cluster already uses this route host; "
        "route hosts are unique per cluster.",
    }
    error_fields = {
        "route_host": "route.host",
        "oidc_issuer": "oidc.issuer",
        "oidc_audience": "oidc.audience",
        "oidc_roles_claim": "oidc.roles_claim",
        "oidc_admin_role": "oidc.admin_role",
        "oidc_user_role": "oidc.user_role",
        "oidc_ca_configmap": "oidc.ca_configmap",
        "database_provider": "database.provider",
        "database_uri": "database.uri",
    }

    class Meta:
        model = Gateway
        fields = (
            "id",
            "name",
            "owner",
            "cluster",
            "namespace",
            "image",
            "supervisor_image",
            "route",
            "oidc",
            "database",
            "suspended",
            "labels",
            "release",
            "desired_images",
            "generation",
            "status",
            "created_at",
            "updated_at",
        )
        read_only_fields = ("id", "namespace", "generation", "created_at", "updated_at")
        extra_kwargs = {
            "image": {"help_text": IMAGE_HELP.format(what="gateway")},
            "supervisor_image": {"help_text": IMAGE_HELP.format(what="supervisor")},
        }

    @extend_schema_field(DesiredImagesSerializer)
    def get_desired_images(self, gateway: Gateway) -> dict[str, Any]:
        return desired_images(gateway)

    def validate(self, attrs: dict[str, Any]) -> dict[str, Any]:
        """The model's rules, then the images': the policy (for tenants, unless the images are a platform admin's
        exception), mixed provenance."""
        attrs = super().validate(attrs)
        admin = is_platform_admin(self.context["request"].user)
        candidate = self.build_candidate(attrs)
        candidate.image_override_by_admin = admin_exception(
            candidate,
            self.instance,
            admin=admin,
            sets_images=bool(set(IMAGE_FIELDS) & set(attrs)),
        )
        release = candidate.release if candidate.release_id else GatewayRelease.current_default()
        errors = image_errors(candidate, release, admin=admin)
        if errors:
            raise serializers.ValidationError(errors)
        return {**attrs, "image_override_by_admin": candidate.image_override_by_admin}

    def to_internal_value(self, data: Any) -> Any:
        if not isinstance(data, dict):
            return super().to_internal_value(data)
        data = self._without_null_groups(data)
        attrs = super().to_internal_value(data)
        errors: dict[str, Any] = {}
        for group, off in _OFF.items():
            sent = data.get(group)
            if sent is None:
                continue
            if attrs.pop(f"{group}_enabled", True) is False:  # as parsed: "false" and 0 count too
                if set(sent) - {"enabled"}:
                    errors[group] = [OFF_TAKES_NOTHING_ELSE]
                attrs.update(off)
            elif group == "route":
                attrs["route_enabled"] = True
            elif "issuer" not in sent:
                errors[group] = {"issuer": ["This field is required."]}
        if errors:
            raise serializers.ValidationError(errors)
        return attrs

    def _without_null_groups(self, data: dict[str, Any]) -> dict[str, Any]:
        """A null ``route`` or ``oidc`` left out on create, and read as ``{"enabled": false}`` on update."""
        nulls = {group for group in _OFF if group in data and data[group] is None}
        off = {} if self.instance is None else {group: {"enabled": False} for group in nulls}
        return {**{key: value for key, value in data.items() if key not in nulls}, **off}

    def prepare_candidate(self, candidate: Gateway) -> None:
        if candidate.owner_id is None:
            candidate.owner = self.context["request"].user

    def create(self, validated_data: dict[str, Any]) -> Gateway:
        gateway = Gateway(owner=self.context["request"].user, **validated_data)
        gateway.assign_namespace()
        return self._save(lambda: (gateway.save(), gateway)[1])


class GatewayEventSerializer(serializers.ModelSerializer):
    class Meta:
        model = GatewayEvent
        fields = ("timestamp", "type", "reason", "message")
        read_only_fields = fields
