"""Chart releases (``/api/v1/releases/``): platform admins create them and choose the default; others get 404.

A release's chart, version, images and values never change after creation (create another release); ``default``
may be changed, and setting it moves the flag from the previous default in one transaction; a signed release's keys
may change, and the worker then verifies what it pinned again.
"""

from __future__ import annotations

from datetime import datetime
from typing import Any

import django_filters
from django.db import transaction
from django.db.models import ProtectedError
from drf_spectacular.utils import OpenApiExample, extend_schema
from rest_framework import serializers
from rest_framework.decorators import action
from rest_framework.request import Request
from rest_framework.response import Response

from controlplane.api.errors import ApiConflict
from controlplane.api.fields import StrictCharField
from controlplane.api.permissions import IsPlatformAdmin
from controlplane.api.schema import crud_operation_ids
from controlplane.api.serializers import ConditionSerializer, ModelCleanSerializer
from controlplane.api.signature_policy import (
    KEYS_ERROR_FIELD,
    SignaturePolicySerializer,
    policy_read,
    policy_written,
)
from controlplane.api.views import ReconciledModelViewSet
from controlplane.audit import record
from controlplane.image_policy import provenance_problem
from controlplane.tasks import TaskName
from gateways.choices import ReleaseReason, ReleaseStatus
from gateways.models import GatewayRelease, ReleaseEvent
from gateways.states import VerifiedArtefact

__all__ = ["GatewayReleaseSerializer", "GatewayReleaseViewSet"]


class VerifiedDigestsSerializer(serializers.Serializer):
    chart = StrictCharField(
        read_only=True,
        help_text="The chart's digest: the oci:// artefact's manifest, or the sha256 of the packaged local chart.",
    )
    image = StrictCharField(read_only=True, allow_null=True, help_text="The gateway image's manifest digest.")
    supervisor_image = StrictCharField(
        read_only=True, allow_null=True, help_text="The supervisor image's manifest digest."
    )
    key = StrictCharField(
        read_only=True,
        allow_null=True,
        help_text="sha256 of the DER public key that verified "
        "the signatures (null when only a chart_digest was checked).",
    )
    verified_at = serializers.DateTimeField(read_only=True)

    def get_attribute(self, instance: Any) -> Any:
        return instance.verified_digests or None

    def to_representation(self, instance: Any) -> dict[str, Any]:
        """Each artefact's digest (null when it was not verified), and when, in the API's time format."""
        shown = {name: instance.get(name) for name in self.fields}
        shown["verified_at"] = self.fields["verified_at"].to_representation(
            datetime.fromisoformat(instance[VerifiedArtefact.VERIFIED_AT])
        )
        return shown


class ReleaseStatusSerializer(serializers.Serializer):
    status = serializers.ChoiceField(
        choices=ReleaseStatus.choices, read_only=True, help_text="Set by the worker that first loads the chart."
    )
    reason = serializers.ChoiceField(
        choices=ReleaseReason.choices,
        read_only=True,
        allow_null=True,
        help_text="Why a release is still Pending: ChartUnavailable while its chart "
        "cannot be pulled, RegistryUnavailable while its signatures cannot be checked "
        "(both retried with backoff); VerificationFailed when it is Invalid because an "
        "artefact did not verify (message names it); null otherwise.",
    )
    message = StrictCharField(read_only=True, help_text="Why the release is Invalid, or why its chart is unavailable.")
    chart_version = StrictCharField(read_only=True, help_text="The version in the loaded chart's Chart.yaml.")
    validated_at = serializers.DateTimeField(read_only=True, allow_null=True)
    conditions = ConditionSerializer(
        many=True,
        read_only=True,
        help_text="Verified (releases with a "
        "signature_policy): True once verified with the current keys; False when a "
        "change of keys no longer verifies what it pinned (its gateways get no upgrade "
        "from it), Unknown while the registry cannot be asked.",
    )
    verified_digests = VerifiedDigestsSerializer(
        read_only=True,
        allow_null=True,
        help_text="What the worker verified before the release became Ready: the digests its gateways run "
        "(repo@sha256:...), the key that verified them, and when; null when nothing was verified.",
    )

    def to_representation(self, instance: Any) -> dict[str, Any]:
        data = super().to_representation(instance)
        data["reason"] = data["reason"] or None  # stored blank; null in the API, as the schema says
        return data


class GatewayReleaseSerializer(ModelCleanSerializer):
    schema_description = (
        "The software gateways run: a chart (a local path or oci://), its version, the gateway and supervisor "
        "images (from one registry and namespace unless allow_mixed_provenance) and values overrides. It never "
        "changes once created; exactly one release is the default new gateways get, and rollouts move gateways "
        "between releases, chart and images together."
    )

    values = serializers.DictField(
        required=False,
        help_text="Values overrides; only keys the chart has, with its "
        "types. The keys the mapping sets (images, routes, OIDC, database) win over them.",
    )
    signature_policy = SignaturePolicySerializer(
        help_text="Cosign public keys that must verify the chart (an oci:// chart's signature; a local chart needs "
        "chart_digest) and both images before the release is Ready; its gateways then run the verified "
        "digests. null (the default) verifies nothing, unless RELEASES_REQUIRE_SIGNATURES refuses that. The "
        "keys of a release that has a policy may change: its pinned digests are then verified again.",
    )
    status = ReleaseStatusSerializer(source="*", read_only=True)
    immutable_fields = (
        "name",
        "chart",
        "version",
        "values",
        "image",
        "supervisor_image",
        "allow_mixed_provenance",
        "chart_digest",
    )
    error_fields = KEYS_ERROR_FIELD

    class Meta:
        model = GatewayRelease
        fields = (
            "id",
            "name",
            "chart",
            "version",
            "chart_digest",
            "image",
            "supervisor_image",
            "allow_mixed_provenance",
            "values",
            "signature_policy",
            "default",
            "status",
            "created_at",
            "updated_at",
        )
        read_only_fields = ("id", "created_at", "updated_at")
        extra_kwargs = {
            "image": {
                "help_text": "The gateway image (any reference form, kept exactly; may be pinned by digest). "
                "New gateways and rollouts to this release run it, unless a gateway overrides it."
            },
            "supervisor_image": {
                "help_text": "The supervisor image: from the same registry and repository namespace "
                "as the gateway image, unless allow_mixed_provenance."
            },
            "chart_digest": {
                "help_text": "sha256:<hex> of the packaged local chart (the .tgz, or the directory as "
                "`helm package` packs it); required with a signature_policy and a local chart, refused "
                "for oci:// (whose signature is verified). Gateways install the archive that was hashed."
            },
            "allow_mixed_provenance": {
                "help_text": "Accept images from different registries or namespaces (mixed "
                "provenance is otherwise a 400). Audited."
            },
        }

    def to_internal_value(self, data: Any) -> Any:
        data, cleared = policy_written(data)
        return {**super().to_internal_value(data), **cleared}

    def to_representation(self, instance: GatewayRelease) -> dict[str, Any]:
        return policy_read(super().to_representation(instance), instance)

    def _save(self, write: Any) -> GatewayRelease:
        with transaction.atomic():
            if self.validated_data.get("default"):
                others = GatewayRelease.objects.select_for_update().filter(default=True)
                if self.instance is not None:
                    others = others.exclude(pk=self.instance.pk)
                others.update(default=False)
            return super()._save(write)


class ReleaseEventSerializer(serializers.ModelSerializer):
    schema_description = "What the release's verification found: a failure is a Warning with reason VerificationFailed."

    class Meta:
        model = ReleaseEvent
        fields = ("timestamp", "type", "reason", "message")
        read_only_fields = fields


RELEASE_EXAMPLE = OpenApiExample(
    "The upstream chart, pinned, with one override",
    request_only=True,
    value={
        "name": "openshell-0-7-0",
        "chart": "oci://ghcr.io/nvidia/openshell/helm-chart",
        "version": "0.7.0",
        "image": "ghcr.io/nvidia/openshell/gateway:0.7.0",
        "supervisor_image": "ghcr.io/nvidia/openshell/supervisor:0.7.0@sha256:" + "0" * 64,
        "values": {"image": {"pullPolicy": "Always"}},
    },
)


class ReleaseFilter(django_filters.FilterSet):
    status = django_filters.ChoiceFilter(choices=ReleaseStatus.choices)

    class Meta:
        model = GatewayRelease
        fields = ("name", "default", "status")


@crud_operation_ids("releases", create={"examples": [RELEASE_EXAMPLE]})
class GatewayReleaseViewSet(ReconciledModelViewSet):
    """Gateway chart releases. Platform admins only."""

    queryset = GatewayRelease.objects.all()
    serializer_class = GatewayReleaseSerializer
    permission_classes = (IsPlatformAdmin,)
    filterset_class = ReleaseFilter
    reconcile_task = TaskName.VALIDATE_RELEASE  # verified and validated on create, not first when a gateway needs it
    search_fields = ("name", "chart")
    ordering_fields = ("name", "created_at")

    @extend_schema(operation_id="releases_events_list", responses={200: ReleaseEventSerializer(many=True)})
    @action(detail=True, methods=["get"], serializer_class=ReleaseEventSerializer, filterset_class=None)
    def events(self, request: Request, *args: Any, **kwargs: Any) -> Response:
        """The release's event history, newest first."""
        page = self.paginate_queryset(self.get_object().events.all())
        return self.get_paginated_response(ReleaseEventSerializer(page, many=True).data)

    def perform_create(self, serializer: Any) -> None:
        super().perform_create(serializer)
        release = serializer.instance
        mixed = provenance_problem(release.image, release.supervisor_image) if release.image else None
        if release.allow_mixed_provenance and mixed:
            record(self.request.user, "allow_mixed_provenance", release, {"problem": mixed})

    def perform_destroy(self, instance: GatewayRelease) -> None:
        if instance.default:
            raise ApiConflict("The default release cannot be deleted; make another release the default first.")
        try:
            super().perform_destroy(instance)
        except ProtectedError:
            raise ApiConflict("Gateways or rollouts still use this release.") from None
