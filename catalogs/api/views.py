"""Catalog endpoints: every authenticated user may read catalogs; platform admins change them."""

from __future__ import annotations

import django_filters
from drf_spectacular.utils import extend_schema, extend_schema_view

from catalogs.api.serializers import CatalogSerializer
from catalogs.choices import AvailabilityMode
from catalogs.models import Catalog
from controlplane.api.permissions import ReadOnlyOrPlatformAdmin
from controlplane.api.views import ReconciledModelViewSet

__all__ = ["CatalogViewSet"]


class CatalogFilter(django_filters.FilterSet):
    availability_mode = django_filters.ChoiceFilter(choices=AvailabilityMode.choices)

    class Meta:
        model = Catalog
        fields = ("name", "availability_mode")


@extend_schema_view(
    list=extend_schema(operation_id="catalogs_list"),
    create=extend_schema(operation_id="catalogs_create"),
    retrieve=extend_schema(operation_id="catalogs_retrieve"),
    update=extend_schema(operation_id="catalogs_update"),
    partial_update=extend_schema(operation_id="catalogs_partial_update"),
    destroy=extend_schema(operation_id="catalogs_destroy"),
)
class CatalogViewSet(ReconciledModelViewSet):
    queryset = Catalog.objects.all()
    serializer_class = CatalogSerializer
    permission_classes = (ReadOnlyOrPlatformAdmin,)
    filterset_class = CatalogFilter
    search_fields = ("name", "image_ref")
    ordering_fields = ("name", "priority", "created_at")
    reconcile_task = "workers.tasks.reconcile_catalog"
