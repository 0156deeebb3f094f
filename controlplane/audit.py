"""Record audit entries for writes from the API, the console and the CLI."""

from __future__ import annotations

from typing import Any

from django.db.models import Model

from controlplane.models import AuditEntry

__all__ = ["SECRET_FIELDS", "audit_each", "audit_save", "changed_fields", "record"]

# (``url`` and ``secret``: a notification receiver's; a Slack URL holds its token.)
SECRET_FIELDS = frozenset({"kubeconfig", "database_uri", "pull_password", "url", "secret"})
REDACTED = "<redacted>"


def _plain(name: str, value: Any) -> Any:
    if name in SECRET_FIELDS:
        return REDACTED
    if isinstance(value, Model):
        return str(value)
    if isinstance(value, (list, tuple)) and any(isinstance(item, Model) for item in value):
        return [str(item.pk) if isinstance(item, Model) else item for item in value]
    if isinstance(value, (str, int, float, bool, list, dict)) or value is None:
        return value
    return str(value)


def changed_fields(before: dict[str, Any], after: dict[str, Any]) -> dict[str, Any]:
    """The new value of each field that changed; secrets are marked, never copied."""
    return {name: _plain(name, value) for name, value in after.items() if before.get(name) != value}


def record(user: Any, action: str, instance: Model, changes: dict[str, Any] | None = None, source: str = "api") -> None:
    AuditEntry.objects.create(
        actor=user if getattr(user, "pk", None) else None,
        actor_name=getattr(user, "username", "") or "system",
        source=source,
        action=action,
        resource_type=instance._meta.model_name,
        resource_id=str(instance.pk),
        resource_name=str(instance)[:253],
        changes=changes or {},
    )


def audit_save(request: Any, instance: Model, form: Any, change: bool) -> None:
    """A console save: the fields the form changed, with their new values (secrets redacted)."""
    changes = {name: form.cleaned_data.get(name) for name in form.changed_data}
    record(request.user, "update" if change else "create", instance, changed_fields({}, changes), source="console")


def audit_each(request: Any, action: str, queryset: Any) -> None:
    """A console operation on a selection: one entry per object."""
    for instance in queryset:
        record(request.user, action, instance, source="console")
