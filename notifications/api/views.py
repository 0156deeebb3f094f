"""Notification endpoints: receivers (platform admins), subscriptions (everyone; tenants' own), deliveries
(the log, read-only; tenants see their subscriptions' deliveries)."""

from __future__ import annotations

from typing import Any

import django_filters
from django.db.models import QuerySet
from drf_spectacular.utils import OpenApiExample, extend_schema, extend_schema_view
from rest_framework import viewsets
from rest_framework.decorators import action
from rest_framework.exceptions import ValidationError
from rest_framework.permissions import IsAuthenticated
from rest_framework.request import Request
from rest_framework.response import Response

from controlplane.api.errors import ApiConflict
from controlplane.api.permissions import IsPlatformAdmin, is_platform_admin
from controlplane.api.schema import crud_operation_ids
from controlplane.api.views import ReconciledModelViewSet
from controlplane.audit import record
from notifications.api.serializers import (
    DeliverySerializer,
    ReceiverCheckSerializer,
    ReceiverSerializer,
    SubscriptionSerializer,
)
from notifications.choices import DeliveryStatus, EventKind, Severity
from notifications.delivery import check_receiver
from notifications.models import Delivery, Receiver, Subscription
from notifications.transport import RefusedUrl

__all__ = ["DeliveryViewSet", "ReceiverViewSet", "SubscriptionViewSet"]


class ReceiverFilter(django_filters.FilterSet):
    class Meta:
        model = Receiver
        fields = ("name", "kind", "tenants_may_subscribe")


@crud_operation_ids(
    "receivers",
    create={
        "examples": [
            OpenApiExample(
                "A signed webhook",
                request_only=True,
                value={
                    "name": "ops-webhook",
                    "kind": "webhook",
                    "url": "https://hooks.example.com/controlplane",
                    "secret": "a-long-random-signing-secret",
                    "tenants_may_subscribe": True,
                },
            )
        ]
    },
)
class ReceiverViewSet(ReconciledModelViewSet):
    """Notification receivers. Platform admins only; the URL and the secret are write-only."""

    queryset = Receiver.objects.all()
    serializer_class = ReceiverSerializer
    permission_classes = (IsPlatformAdmin,)
    filterset_class = ReceiverFilter
    search_fields = ("name",)
    ordering_fields = ("name", "created_at")
    reading_actions = frozenset({"test"})  # no row lock held while the receiver answers

    def perform_destroy(self, instance: Receiver) -> None:
        if instance.subscriptions.exists():
            raise ApiConflict("The receiver still has subscriptions; delete them first.")
        super().perform_destroy(instance)

    @extend_schema(
        operation_id="receivers_test",
        request=None,
        responses={200: ReceiverCheckSerializer},
        description="Send a test notification (`kind` `test`) now, under the delivery rules: signed, SSRF-checked "
        "on every hop. 400 when the URL, or a redirect, leads to a refused address; 200 with `delivered` false "
        "when the receiver answered otherwise or not at all.",
    )
    @action(detail=True, methods=["post"], filterset_class=None)
    def test(self, request: Request, *args: Any, **kwargs: Any) -> Response:
        receiver = self.get_object()
        record(request.user, "test", receiver)
        try:
            outcome = check_receiver(receiver)
        except RefusedUrl as exc:
            raise ValidationError({"url": [f"Receiver URL refused: {exc}."]}) from None
        answer = outcome.answer
        return Response(
            ReceiverCheckSerializer(
                {
                    "delivered": outcome.delivered,
                    "delivery": outcome.key,
                    "status_code": answer.status if answer else None,
                    "url": answer.url if answer else None,
                    "redirects": answer.redirects if answer else 0,
                    "message": outcome.message[:512],
                }
            ).data
        )


class SubscriptionFilter(django_filters.FilterSet):
    receiver = django_filters.CharFilter(field_name="receiver__name")
    min_severity = django_filters.ChoiceFilter(choices=Severity.choices)

    class Meta:
        model = Subscription
        fields = ("name", "receiver", "enabled", "min_severity")


@crud_operation_ids(
    "subscriptions",
    create={
        "examples": [
            OpenApiExample(
                "A tenant's failed gateways, to the team webhook",
                request_only=True,
                value={
                    "name": "edge-failures",
                    "receiver": "ops-webhook",
                    "kinds": ["gateway"],
                    "min_severity": "critical",
                    "clusters": ["east"],
                    "labels": {"tier": "prod"},
                },
            )
        ]
    },
)
class SubscriptionViewSet(ReconciledModelViewSet):
    """Subscriptions of a receiver to events. Tenants subscribe to their own gateways' events only."""

    queryset = Subscription.objects.all()
    serializer_class = SubscriptionSerializer
    permission_classes = (IsAuthenticated,)
    filterset_class = SubscriptionFilter
    search_fields = ("name",)
    ordering_fields = ("name", "created_at")

    def get_queryset(self) -> QuerySet[Subscription]:
        queryset = super().get_queryset().select_related("owner", "receiver")
        if not is_platform_admin(self.request.user):
            queryset = queryset.filter(owner=self.request.user)
        return queryset

    def perform_create(self, serializer: Any) -> None:
        serializer.validated_data["owner"] = self.request.user
        super().perform_create(serializer)


class DeliveryFilter(django_filters.FilterSet):
    status = django_filters.ChoiceFilter(choices=DeliveryStatus.choices)
    event_kind = django_filters.ChoiceFilter(choices=EventKind.choices)
    severity = django_filters.ChoiceFilter(choices=Severity.choices)
    receiver = django_filters.CharFilter(field_name="receiver__name")
    subscription = django_filters.CharFilter(field_name="subscription__name")

    class Meta:
        model = Delivery
        fields = ("status", "event_kind", "severity", "receiver", "subscription", "object_id", "reason")


@extend_schema_view(
    list=extend_schema(operation_id="deliveries_list"),
    retrieve=extend_schema(operation_id="deliveries_retrieve"),
)
class DeliveryViewSet(viewsets.ReadOnlyModelViewSet):
    """The delivery log: every matched event, its payload and its attempts. Tenants see their own."""

    queryset = Delivery.objects.all()
    serializer_class = DeliverySerializer
    permission_classes = (IsAuthenticated,)
    filterset_class = DeliveryFilter
    search_fields = ("object_name", "reason")
    ordering_fields = ("created_at", "status")

    def get_queryset(self) -> QuerySet[Delivery]:
        queryset = super().get_queryset().select_related("subscription", "receiver")
        if not is_platform_admin(self.request.user):
            queryset = queryset.filter(owner=self.request.user)
        return queryset
