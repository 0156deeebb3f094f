"""Catalog endpoints: every authenticated user may read catalogs; platform admins change them."""

from __future__ import annotations

import django_filters
from drf_spectacular.utils import OpenApiExample
from rest_framework.permissions import IsAuthenticated

from catalogs.api.serializers import CatalogSerializer
from catalogs.choices import AvailabilityMode
from catalogs.models import Catalog
from controlplane.api.permissions import ReadOnlyOrPlatformAdmin
from controlplane.api.schema import crud_operation_ids
from controlplane.api.views import ReconciledModelViewSet

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
                    "availability_mode": "Available",
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
    reconcile_task = "workers.tasks.reconcile_catalog"
