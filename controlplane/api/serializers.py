"""Base serializer: validation lives once, on the model; the serializer runs ``full_clean``."""

from __future__ import annotations

from typing import Any, ClassVar

from django.core.exceptions import ValidationError as DjangoValidationError
from django.db import IntegrityError, models, transaction
from rest_framework import serializers
from rest_framework.validators import UniqueTogetherValidator, UniqueValidator

from controlplane.api.errors import ApiConflict
from controlplane.api.fields import StrictCharField, StrictIntegerField
from controlplane.choices import ConditionStatus

__all__ = ["ConditionSerializer", "ModelCleanSerializer", "NestedObjectSerializer"]


def _reject_unknown(serializer: serializers.Serializer, data: dict[str, Any]) -> None:
    unknown = sorted(set(data) - {name for name, f in serializer.fields.items() if not f.read_only})
    if unknown:
        raise serializers.ValidationError({name: ["Unknown or read-only field."] for name in unknown})


# An object inside a request body (``oidc``, ``source.image``...): unknown keys are a 400 there too, so a
# misspelt one is not dropped in silence. (A comment: drf-spectacular would publish a docstring as the
# description of every subclass.)
class NestedObjectSerializer(serializers.Serializer):
    def to_internal_value(self, data: Any) -> Any:
        if isinstance(data, dict):
            _reject_unknown(self, data)
        return super().to_internal_value(data)


class ModelCleanSerializer(serializers.ModelSerializer):
    """Rejects unknown fields, validates through the model, and reports uniqueness clashes as 409.

    ``error_fields`` maps a model field name to the API field name used in error messages.
    ``immutable_fields`` may be set on create but never changed afterwards.
    ``conflict_messages`` maps a database constraint name to the 409 message that names its rule. A model's
    ``clean()`` may check such a constraint itself (a ValidationError whose code is the constraint's name): that is
    a 409 too, given when the row would be written, as the database gives it, and only when nothing else is wrong.
    """

    serializer_field_mapping = {
        **serializers.ModelSerializer.serializer_field_mapping,
        models.CharField: StrictCharField,
        models.TextField: StrictCharField,
        models.URLField: StrictCharField,
        models.IntegerField: StrictIntegerField,
        models.PositiveIntegerField: StrictIntegerField,
        models.PositiveBigIntegerField: StrictIntegerField,
    }
    error_fields: ClassVar[dict[str, str]] = {}
    immutable_fields: ClassVar[tuple[str, ...]] = ()
    conflict_messages: ClassVar[dict[str, str]] = {}
    _conflict: str | None = None  # set by validate()

    def get_fields(self) -> dict[str, serializers.Field]:
        fields = super().get_fields()
        for field in fields.values():
            field.validators = [v for v in field.validators if not isinstance(v, UniqueValidator)]
        return fields

    def get_validators(self) -> list[Any]:
        return [v for v in super().get_validators() if not isinstance(v, UniqueTogetherValidator)]

    def to_internal_value(self, data: Any) -> Any:
        if not isinstance(data, dict):
            raise serializers.ValidationError({"non_field_errors": ["Expected a JSON object."]}, code="invalid")
        _reject_unknown(self, data)
        return super().to_internal_value(data)

    def validate(self, attrs: dict[str, Any]) -> dict[str, Any]:
        if self.instance is not None:
            changed = [n for n in self.immutable_fields if n in attrs and attrs[n] != getattr(self.instance, n)]
            if changed:
                message = ["This field cannot be changed."]
                raise serializers.ValidationError({self.error_fields.get(n, n): message for n in changed})
        candidate = self.build_candidate(attrs)
        try:
            candidate.full_clean(validate_unique=False, validate_constraints=False)
        except DjangoValidationError as exc:
            errors, self._conflict = self._map_errors(exc)
            if errors:
                raise serializers.ValidationError(errors) from None
        return attrs

    def build_candidate(self, attrs: dict[str, Any]) -> models.Model:
        """An unsaved model with ``attrs`` applied, used only for validation."""
        model = self.Meta.model
        if self.instance is None:
            candidate = model(**{k: v for k, v in attrs.items() if k in self._concrete_names()})
        else:
            candidate = model.objects.get(pk=self.instance.pk)
            for key, value in attrs.items():
                setattr(candidate, key, value)
        self.prepare_candidate(candidate)
        return candidate

    def prepare_candidate(self, candidate: models.Model) -> None:
        """Hook: fill fields the client does not send (owner, derived names) before validation."""

    def _concrete_names(self) -> set[str]:
        return {f.name for f in self.Meta.model._meta.concrete_fields}

    def _map_errors(self, exc: DjangoValidationError) -> tuple[dict[str, list[str]], str | None]:
        """The 400 errors by API field name, and the 409 message of a constraint ``clean()`` found broken."""
        mapped: dict[str, list[str]] = {}
        conflict = None
        for name, errors in exc.error_dict.items():
            key = "non_field_errors" if name == "__all__" else self.error_fields.get(name, name)
            for error in errors:
                if error.code in self.conflict_messages:
                    conflict = self.conflict_messages[error.code]
                else:
                    mapped.setdefault(key, []).extend(error.messages)
        return mapped, conflict

    def create(self, validated_data: dict[str, Any]) -> models.Model:
        return self._save(lambda: super(ModelCleanSerializer, self).create(validated_data))

    def update(self, instance: models.Model, validated_data: dict[str, Any]) -> models.Model:
        return self._save(lambda: super(ModelCleanSerializer, self).update(instance, validated_data))

    def _save(self, write: Any) -> models.Model:
        if self._conflict is not None:
            raise ApiConflict(self._conflict)
        try:
            with transaction.atomic():
                return write()
        except IntegrityError as exc:
            constraint = getattr(getattr(exc.__cause__, "diag", None), "constraint_name", None)
            default = f"A {self.Meta.model._meta.verbose_name} with this name already exists."
            raise ApiConflict(self.conflict_messages.get(constraint or "", default)) from None


class ConditionSerializer(serializers.Serializer):
    type = StrictCharField()
    status = serializers.ChoiceField(choices=ConditionStatus.choices)
    reason = StrictCharField()
    message = StrictCharField(allow_blank=True)
    lastTransitionTime = serializers.DateTimeField()  # noqa: N815 - Kubernetes field name
    observedGeneration = StrictIntegerField()  # noqa: N815 - Kubernetes field name
