"""Base viewset: writes (PUT, PATCH, DELETE and POST actions on one object) lock the row, check
If-Match, run in one transaction, are audited, and enqueue reconciles on commit. Detail responses
carry an ETag."""

from __future__ import annotations

from typing import Any

from django.db import transaction
from django.db.models import Model, QuerySet
from rest_framework import viewsets
from rest_framework.request import Request
from rest_framework.response import Response

from controlplane.api.concurrency import check_if_match, etag_for
from controlplane.audit import changed_fields, record
from controlplane.dispatch import enqueue_on_commit
from controlplane.tasks import TaskName

__all__ = ["ReconciledModelViewSet"]

_WRITE_METHODS = {"PUT", "PATCH", "DELETE"}


class ReconciledModelViewSet(viewsets.ModelViewSet):
    """A ModelViewSet whose creates and updates trigger ``reconcile_task`` once committed."""

    reconcile_task: TaskName | None = None
    # POST actions on one object that only read it (a plan may wait for its worker: it must hold no lock).
    reading_actions: frozenset[str] = frozenset()
    http_method_names = ["get", "post", "put", "patch", "delete", "head", "options"]

    def writes_one_object(self) -> bool:
        """PUT, PATCH, DELETE, or a POST action on one object: these lock the row and check If-Match."""
        if self.request.method in _WRITE_METHODS:
            return True
        return self.request.method == "POST" and bool(self.detail) and self.action not in self.reading_actions

    def get_queryset(self) -> QuerySet:
        queryset = super().get_queryset()
        if self.writes_one_object():
            queryset = queryset.select_for_update(of=("self",))
        return queryset

    def get_object(self) -> Model:
        instance = super().get_object()
        if self.writes_one_object():
            check_if_match(self.request, instance)
        return instance

    def finalize_response(self, request: Request, response: Response, *args: Any, **kwargs: Any) -> Response:
        instance = getattr(self, "_etag_instance", None)
        if instance is not None and response.status_code < 300:
            response["ETag"] = etag_for(instance)
        return super().finalize_response(request, response, *args, **kwargs)

    def retrieve(self, request: Request, *args: Any, **kwargs: Any) -> Response:
        self._etag_instance = self.get_object()
        return Response(self.get_serializer(self._etag_instance).data)

    def update(self, request: Request, *args: Any, **kwargs: Any) -> Response:
        with transaction.atomic():
            return super().update(request, *args, **kwargs)

    def destroy(self, request: Request, *args: Any, **kwargs: Any) -> Response:
        with transaction.atomic():
            return super().destroy(request, *args, **kwargs)

    def perform_create(self, serializer: Any) -> None:
        serializer.save()
        self._etag_instance = serializer.instance
        record(self.request.user, "create", serializer.instance, changed_fields({}, dict(serializer.validated_data)))
        self.enqueue(serializer.instance)

    def perform_update(self, serializer: Any) -> None:
        before = {name: getattr(serializer.instance, name) for name in serializer.validated_data}
        serializer.save()
        self._etag_instance = serializer.instance
        changes = changed_fields(before, dict(serializer.validated_data))
        if changes:
            record(self.request.user, "update", serializer.instance, changes)
        self.enqueue(serializer.instance)

    def perform_destroy(self, instance: Model) -> None:
        record(self.request.user, "delete", instance)
        instance.delete()

    def enqueue(self, instance: Any) -> None:
        if self.reconcile_task:
            enqueue_on_commit(self.reconcile_task, instance.pk)
