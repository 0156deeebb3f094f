"""Catalog endpoints: every authenticated user may read catalogs; platform admins change them."""

from __future__ import annotations

from typing import Any

import django_filters
from django.db import transaction
from drf_spectacular.utils import OpenApiExample, extend_schema
from rest_framework.decorators import action
from rest_framework.permissions import IsAuthenticated
from rest_framework.request import Request
from rest_framework.response import Response

from catalogs import operations
from catalogs.api.diffs import (
    DIFF_EXAMPLE,
    DIFF_PARAMETERS,
    NOT_MODIFIED,
    CatalogDiffSerializer,
    catalog_diff,
    chosen_revisions,
    diff_etag,
)
from catalogs.api.serializers import CatalogEventSerializer, CatalogSerializer
from catalogs.choices import AvailabilityMode
from catalogs.models import Catalog
from controlplane.api.permissions import ReadOnlyOrPlatformAdmin
from controlplane.api.schema import crud_operation_ids
from controlplane.api.views import ReconciledModelViewSet
from controlplane.tasks import TaskName

__all__ = ["CatalogViewSet"]


class CatalogFilter(django_filters.FilterSet):
    availability_mode = django_filters.ChoiceFilter(choices=AvailabilityMode.choices)

    class Meta:
        model = Catalog
        fields = ("name", "availability_mode")


@crud_operation_ids(
    "catalogs",
    create={
        "examples": [
            OpenApiExample(
                "A catalog polled every 10 minutes",
                request_only=True,
                value={
                    "name": "operatorhubio",
                    "source": {"image": {"ref": "quay.io/operatorhubio/catalog:latest", "poll_interval_minutes": 10}},
                    "priority": 0,
                    "availability_mode": AvailabilityMode.AVAILABLE.value,
                },
            )
        ]
    },
)
class CatalogViewSet(ReconciledModelViewSet):
    """File-based catalogs from OCI images. Everyone may read; platform admins write."""

    queryset = Catalog.objects.all()
    serializer_class = CatalogSerializer
    permission_classes = (IsAuthenticated, ReadOnlyOrPlatformAdmin)
    filterset_class = CatalogFilter
    search_fields = ("name", "image_ref")
    ordering_fields = ("name", "priority", "created_at")
    reconcile_task = TaskName.RECONCILE_CATALOG

    @extend_schema(
        operation_id="catalogs_resync",
        request=None,
        responses={202: CatalogSerializer},
        description="Reconcile now: resolve the ref and, if it names other content, unpack it. A digest the "
        "catalog was blocked on is pulled again. The failure counter is left alone.",
    )
    @action(detail=True, methods=["post"])
    def resync(self, request: Request, *args: Any, **kwargs: Any) -> Response:
        with transaction.atomic():
            (catalog,) = operations.resync(Catalog.objects.filter(pk=self.get_object().pk), request.user, "api")
        return Response(self.get_serializer(catalog).data, status=202)

    @extend_schema(operation_id="catalogs_events_list", responses={200: CatalogEventSerializer(many=True)})
    @action(detail=True, methods=["get"], serializer_class=CatalogEventSerializer, filterset_class=None)
    def events(self, request: Request, *args: Any, **kwargs: Any) -> Response:
        """The catalog's event history, newest first."""
        catalog = self.get_object()
        page = self.paginate_queryset(catalog.events.all())
        return self.get_paginated_response(CatalogEventSerializer(page, many=True).data)

    @extend_schema(
        operation_id="catalogs_diff",
        parameters=DIFF_PARAMETERS,
        responses={200: CatalogDiffSerializer, 304: NOT_MODIFIED},
        examples=[DIFF_EXAMPLE],
        description="What changed between two versions in the catalog's history (default: the previous version "
        "against the current one): packages, channels and bundles added, removed and changed, and the channel "
        "entries and upgrade edges added and removed. A digest not in the history is a 404.",
    )
    @action(
        detail=True,
        methods=["get"],
        serializer_class=CatalogDiffSerializer,
        filterset_class=None,
        pagination_class=None,
    )
    def diff(self, request: Request, *args: Any, **kwargs: Any) -> Response:
        since, to = chosen_revisions(self.get_object(), request.query_params)
        etag = diff_etag(since, to)
        if {etag, "*"} & {tag.strip() for tag in request.headers.get("If-None-Match", "").split(",")}:
            return Response(status=304, headers={"ETag": etag})
        return Response(catalog_diff(since, to), headers={"ETag": etag})
