"""Catalog API shapes, in catalogd's vocabulary: ``source.image.ref``, ``status.conditions``, ``urls.base``."""

from __future__ import annotations

from typing import Any

from rest_framework import serializers

from catalogs.choices import AvailabilityMode
from catalogs.models import Catalog, CatalogEvent
from controlplane.api.fields import StrictCharField, StrictIntegerField
from controlplane.api.serializers import ConditionSerializer, ModelCleanSerializer

__all__ = ["CatalogEventSerializer", "CatalogSerializer"]


class ImageSourceSerializer(serializers.Serializer):
    ref = StrictCharField(source="image_ref", max_length=512)
    poll_interval_minutes = StrictIntegerField(required=False, allow_null=True, min_value=1)


class SourceSerializer(serializers.Serializer):
    image = ImageSourceSerializer(source="*")


class PullSecretSerializer(serializers.Serializer):
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


class CatalogSerializer(ModelCleanSerializer):
    source = SourceSerializer(source="*")
    availability_mode = serializers.ChoiceField(choices=AvailabilityMode.choices, required=False)
    labels = serializers.DictField(child=StrictCharField(allow_blank=True, max_length=63), required=False)
    pull_secret = PullSecretSerializer(source="*", required=False, allow_null=True, write_only=True)
    status = CatalogStatusSerializer(source="*", read_only=True)

    immutable_fields = ("name",)
    error_fields = {
        "image_ref": "source.image.ref", "poll_interval_minutes": "source.image.poll_interval_minutes",
        "pull_username": "pull_secret.username", "pull_password": "pull_secret.password",
    }

    class Meta:
        model = Catalog
        fields = (
            "id", "name", "source", "priority", "availability_mode", "labels", "pull_secret", "ca",
            "generation", "status", "created_at", "updated_at",
        )
        read_only_fields = ("id", "generation", "created_at", "updated_at")

    def to_internal_value(self, data: Any) -> Any:
        if isinstance(data, dict) and "pull_secret" in data and data["pull_secret"] is None:
            rest = {k: v for k, v in data.items() if k != "pull_secret"}
            return {**super().to_internal_value(rest), "pull_username": "", "pull_password": ""}
        return super().to_internal_value(data)


class CatalogEventSerializer(serializers.ModelSerializer):
    class Meta:
        model = CatalogEvent
        fields = ("timestamp", "type", "reason", "message")
        read_only_fields = fields
