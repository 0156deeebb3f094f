"""Base viewset: writes lock the row, run in one transaction, and enqueue reconciles on commit."""

from __future__ import annotations

from typing import Any

from django.db import transaction
from django.db.models import QuerySet
from rest_framework import viewsets
from rest_framework.request import Request
from rest_framework.response import Response

from controlplane.dispatch import enqueue_on_commit

__all__ = ["ReconciledModelViewSet"]

_WRITE_METHODS = {"PUT", "PATCH", "DELETE"}


class ReconciledModelViewSet(viewsets.ModelViewSet):
    """A ModelViewSet whose creates and updates trigger ``reconcile_task`` once committed."""

    reconcile_task: str = ""
    http_method_names = ["get", "post", "put", "patch", "delete", "head", "options"]

    def get_queryset(self) -> QuerySet:
        queryset = super().get_queryset()
        if self.request.method in _WRITE_METHODS:
            queryset = queryset.select_for_update(of=("self",))
        return queryset

    def update(self, request: Request, *args: Any, **kwargs: Any) -> Response:
        with transaction.atomic():
            return super().update(request, *args, **kwargs)

    def destroy(self, request: Request, *args: Any, **kwargs: Any) -> Response:
        with transaction.atomic():
            return super().destroy(request, *args, **kwargs)

    def perform_create(self, serializer: Any) -> None:
        serializer.save()
        self.enqueue(serializer.instance)

    def perform_update(self, serializer: Any) -> None:
        serializer.save()
        self.enqueue(serializer.instance)

    def enqueue(self, instance: Any) -> None:
        if self.reconcile_task:
            enqueue_on_commit(self.reconcile_task, instance.pk)
