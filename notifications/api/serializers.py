"""Notification API shapes. Receiver URLs and secrets are write-only; the delivery log is read-only."""

from __future__ import annotations

import uuid

from rest_framework import serializers

from controlplane.api.fields import StrictCharField, StrictSlugRelatedField
from controlplane.api.permissions import is_platform_admin
from controlplane.api.serializers import ModelCleanSerializer
from gateways.models import Gateway
from notifications.choices import EventKind
from notifications.models import Delivery, Receiver, Subscription

__all__ = ["DeliverySerializer", "ReceiverCheckSerializer", "ReceiverSerializer", "SubscriptionSerializer"]


class ReceiverSerializer(ModelCleanSerializer):
    schema_description = (
        "Where notifications go: a signed webhook or a Slack-compatible incoming webhook. The URL and the secret are "
        "write-only; the URL must reach a public address (see the SSRF rules in the README)."
    )
    url = StrictCharField(
        write_only=True,
        max_length=2048,
        help_text="https:// URL (write-only), checked by the SSRF rules here and at each delivery.",
    )
    secret = StrictCharField(
        write_only=True,
        required=False,
        allow_blank=True,
        max_length=256,
        help_text="Webhooks: the HMAC-SHA256 signing key, 16 characters or more (write-only).",
    )
    endpoint = StrictCharField(read_only=True, help_text="The URL's scheme, host and port.")
    has_secret = serializers.SerializerMethodField()
    immutable_fields = ("name",)

    class Meta:
        model = Receiver
        fields = (
            "id",
            "name",
            "kind",
            "url",
            "secret",
            "endpoint",
            "has_secret",
            "tenants_may_subscribe",
            "created_at",
            "updated_at",
        )
        read_only_fields = ("id", "created_at", "updated_at")

    def get_has_secret(self, receiver: Receiver) -> bool:
        return bool(receiver.secret)


class ReceiverCheckSerializer(serializers.Serializer):
    schema_description = "What a test notification to the receiver got back."
    delivered = serializers.BooleanField(help_text="Whether the receiver answered 2xx.")
    delivery = StrictCharField(help_text="The test's X-Controlplane-Delivery key.")
    status_code = serializers.IntegerField(allow_null=True, help_text="The last hop's answer; null when none.")
    url = StrictCharField(allow_null=True, help_text="The hop that answered (after any redirects).")
    redirects = serializers.IntegerField()
    message = StrictCharField(allow_blank=True, help_text="The start of the answer's body, or why there was none.")


class SubscriptionSerializer(ModelCleanSerializer):
    schema_description = (
        "Which recorded events go to a receiver; every filter is optional. Tenants subscribe to their own gateways' "
        "events only."
    )
    owner = serializers.SlugRelatedField(slug_field="username", read_only=True)
    receiver = StrictSlugRelatedField(
        slug_field="name",
        queryset=Receiver.objects.all(),
        error_messages={"does_not_exist": "No receiver named {value} that you may use."},
        help_text="A receiver's name (tenants: one a platform admin opened to tenants).",
    )
    kinds = serializers.ListField(
        child=serializers.ChoiceField(choices=EventKind.choices),
        required=False,
        max_length=4,
        help_text="Empty for every kind (tenants: gateway only).",
    )
    reasons = serializers.ListField(
        child=StrictCharField(max_length=64),
        required=False,
        max_length=100,
        help_text="Event reasons, e.g. InstallFailed, GateFailed, AwaitingApproval.",
    )
    clusters = serializers.ListField(
        child=StrictCharField(max_length=63),
        required=False,
        max_length=100,
        help_text="Cluster names; an event without a cluster never matches these.",
    )
    labels = serializers.DictField(
        child=StrictCharField(max_length=63),
        required=False,
        help_text="The gateway or catalog must carry all these labels.",
    )
    gateways = serializers.ListField(
        child=StrictCharField(max_length=64),
        required=False,
        max_length=100,
        help_text="Gateway ids; empty for all (a tenant's: all of their own).",
    )
    conflict_messages = {"one_subscription_name_per_owner": "You already have a subscription with this name."}

    class Meta:
        model = Subscription
        fields = (
            "id",
            "name",
            "owner",
            "receiver",
            "kinds",
            "reasons",
            "min_severity",
            "clusters",
            "labels",
            "gateways",
            "enabled",
            "created_at",
            "updated_at",
        )
        read_only_fields = ("id", "owner", "created_at", "updated_at")

    def get_fields(self) -> dict[str, serializers.Field]:
        fields = super().get_fields()
        request = self.context.get("request")
        user = getattr(request, "user", None)
        if user is not None and not is_platform_admin(user):
            fields["receiver"].queryset = Receiver.objects.filter(tenants_may_subscribe=True)
        return fields

    def validate_gateways(self, value: list[str]) -> list[str]:
        """Existing gateways the user may see (a tenant: their own), as canonical ids, each once."""
        user = self.context["request"].user
        ids: dict[str, str] = {}
        for given in value:
            try:
                ids[given] = str(uuid.UUID(given))
            except ValueError:
                raise serializers.ValidationError(
                    f"No gateway {given} among the gateways you may subscribe to (tenants: your own)."
                ) from None
        visible = Gateway.objects.filter(pk__in=set(ids.values()))
        if not is_platform_admin(user):
            visible = visible.filter(owner=user)
        found = {str(pk) for pk in visible.values_list("pk", flat=True)}
        missing = [given for given, canonical in ids.items() if canonical not in found]
        if missing:
            raise serializers.ValidationError(
                f"No gateway {', '.join(missing)} among the gateways you may subscribe to (tenants: your own)."
            )
        return list(dict.fromkeys(ids.values()))

    def prepare_candidate(self, candidate: Subscription) -> None:
        if candidate.owner_id is None:
            candidate.owner = self.context["request"].user


class DeliverySerializer(serializers.ModelSerializer):
    schema_description = (
        "One event for one subscription: the v1 payload sent, and the outcome of its attempts. Sent at least once; "
        "`idempotency_key` is the X-Controlplane-Delivery header of every attempt."
    )
    subscription = serializers.SlugRelatedField(slug_field="name", read_only=True)
    receiver = serializers.SlugRelatedField(slug_field="name", read_only=True)
    payload = serializers.JSONField(read_only=True, help_text="The v1 payload sent (see README, Notifications).")

    class Meta:
        model = Delivery
        fields = (
            "id",
            "idempotency_key",
            "subscription",
            "receiver",
            "event_kind",
            "event_id",
            "object_id",
            "object_name",
            "reason",
            "severity",
            "status",
            "attempts",
            "response_code",
            "last_error",
            "created_at",
            "last_attempt_at",
            "next_attempt_at",
            "delivered_at",
            "payload",
        )
        read_only_fields = fields
