"""Strict serializer fields: a JSON number is not a string, and a string or boolean is not a number."""

from __future__ import annotations

from typing import Any

from rest_framework import serializers

__all__ = ["StrictCharField", "StrictIntegerField", "StrictSlugRelatedField"]


class StrictCharField(serializers.CharField):
    default_error_messages = {"invalid": "Expected a string."}

    def to_internal_value(self, data: Any) -> str:
        if not isinstance(data, str):
            self.fail("invalid")
        return super().to_internal_value(data)


class StrictIntegerField(serializers.IntegerField):
    default_error_messages = {"invalid": "Expected an integer."}

    def to_internal_value(self, data: Any) -> int:
        if isinstance(data, bool) or not isinstance(data, int):
            self.fail("invalid")
        return super().to_internal_value(data)


class StrictSlugRelatedField(serializers.SlugRelatedField):
    """A reference by name: only printable strings reach the database lookup (NUL would be a 500)."""

    def to_internal_value(self, data: Any) -> Any:
        if not isinstance(data, str) or "\x00" in data or len(data) > 253:
            self.fail("invalid")
        return super().to_internal_value(data)
