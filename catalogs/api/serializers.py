"""Catalog API shapes, in catalogd's vocabulary: ``source.image.ref``, ``status.conditions``, ``urls.base``."""

from __future__ import annotations

from typing import Any

from rest_framework import serializers

from catalogs.choices import AvailabilityMode, SourceType
from catalogs.models import Catalog, CatalogEvent
from controlplane.api.fields import StrictCharField, StrictIntegerField
from controlplane.api.serializers import ConditionSerializer, ModelCleanSerializer, NestedObjectSerializer
from controlplane.api.signature_policy import KEYS_ERROR_FIELD, SignaturePolicySerializer, policy_read, policy_written

__all__ = ["CatalogEventSerializer", "CatalogSerializer"]


class ImageSourceSerializer(NestedObjectSerializer):
    ref = StrictCharField(source="image_ref", max_length=512)
    poll_interval_minutes = StrictIntegerField(required=False, allow_null=True, min_value=1)


class SourceTypeField(serializers.ChoiceField):
    """catalogd's ``source.type``: optional on writes, where only ``Image`` is accepted, and always ``Image`` read."""

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(
            choices=SourceType.choices,
            required=False,
            error_messages={
                "invalid_choice": f'"{{input}}" is not a source type this API serves; the one type is '
                f'"{SourceType.IMAGE}".'
            },
            help_text=f'As in catalogd\'s ClusterCatalog; "{SourceType.IMAGE}" is the one type.',
            **kwargs,
        )

    def get_attribute(self, instance: Any) -> str:
        return SourceType.IMAGE


class SourceSerializer(NestedObjectSerializer):
    type = SourceTypeField()
    image = ImageSourceSerializer(source="*")

    def to_internal_value(self, data: Any) -> Any:
        """``type`` is checked, then dropped: it is not stored."""
        value = super().to_internal_value(data)
        value.pop("type", None)
        return value


class PullSecretSerializer(NestedObjectSerializer):
    username = StrictCharField(source="pull_username", max_length=255)
    password = StrictCharField(source="pull_password", max_length=4096, write_only=True)


class UrlsSerializer(serializers.Serializer):
    base = StrictCharField(source="base_url", read_only=True)


class CatalogStatusSerializer(serializers.Serializer):
    conditions = ConditionSerializer(many=True, read_only=True)
    observed_generation = StrictIntegerField(read_only=True)
    resolved_ref = StrictCharField(read_only=True)
    urls = UrlsSerializer(source="*", read_only=True)
    last_unpacked = serializers.DateTimeField(allow_null=True, read_only=True)
    signature_verified = serializers.BooleanField(
        read_only=True,
        help_text="The content served was verified with the signature policy's current keys.",
    )
    blocked_digest = StrictCharField(
        read_only=True,
        help_text="The image digest a terminal failure blocked on: not pulled again until the ref "
        "names another digest, the spec changes, or a resync.",
    )


class CatalogSerializer(ModelCleanSerializer):
    schema_description = (
        "A file-based catalog pulled from an OCI image, in catalogd's ClusterCatalog vocabulary. Its content "
        "is served under status.urls.base once status.conditions has Serving True."
    )

    source = SourceSerializer(source="*")
    availability_mode = serializers.ChoiceField(choices=AvailabilityMode.choices, required=False)
    labels = serializers.DictField(child=StrictCharField(allow_blank=True, max_length=63), required=False)
    pull_secret = PullSecretSerializer(source="*", required=False, allow_null=True, write_only=True)
    signature_policy = SignaturePolicySerializer(
        help_text="Verify cosign signatures before unpacking; null (the default) verifies nothing.",
    )
    status = CatalogStatusSerializer(source="*", read_only=True)

    immutable_fields = ("name",)
    error_fields = {
        "image_ref": "source.image.ref",
        "poll_interval_minutes": "source.image.poll_interval_minutes",
        "pull_username": "pull_secret.username",
        "pull_password": "pull_secret.password",
        **KEYS_ERROR_FIELD,
    }

    class Meta:
        model = Catalog
        fields = (
            "id",
            "name",
            "source",
            "priority",
            "availability_mode",
            "labels",
            "pull_secret",
            "ca",
            "signature_policy",
            "generation",
            "status",
            "created_at",
            "updated_at",
        )
        read_only_fields = ("id", "generation", "created_at", "updated_at")

    def to_internal_value(self, data: Any) -> Any:
        """``pull_secret: null`` clears the credentials; ``signature_policy: null`` removes the policy."""
        data, cleared = policy_written(data)
        if isinstance(data, dict) and "pull_secret" in data and data["pull_secret"] is None:
            cleared |= {"pull_username": "", "pull_password": ""}
            data = {k: v for k, v in data.items() if k != "pull_secret"}
        return {**super().to_internal_value(data), **cleared}

    def to_representation(self, instance: Catalog) -> dict[str, Any]:
        return policy_read(super().to_representation(instance), instance)


class CatalogEventSerializer(serializers.ModelSerializer):
    class Meta:
        model = CatalogEvent
        fields = ("timestamp", "type", "reason", "message")
        read_only_fields = fields
