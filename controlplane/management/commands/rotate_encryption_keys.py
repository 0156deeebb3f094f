"""``manage.py rotate_encryption_keys``: re-encrypt every encrypted field of every row with the first key.

Run it after putting a new key first in ``FIELD_ENCRYPTION_KEY`` (keeping the old ones after it);
once it has finished, the old keys can be removed. Each row is locked while it is rewritten, so a
concurrent write is never overwritten with an older value; ``updated_at`` and ETags do not change.
"""

from __future__ import annotations

from typing import Any

from django.apps import apps
from django.core.management.base import BaseCommand
from django.db import models, transaction

from controlplane.fields import EncryptedTextField

__all__ = ["Command", "encrypted_fields"]


def encrypted_fields() -> list[tuple[type[models.Model], list[str]]]:
    """Every model with encrypted fields, and their names."""
    found = []
    for model in apps.get_models():
        names = [f.name for f in model._meta.concrete_fields if isinstance(f, EncryptedTextField)]
        if names:
            found.append((model, names))
    return found


def rotate_row(model: type[models.Model], pk: Any, names: list[str]) -> None:
    with transaction.atomic():
        values = model._default_manager.select_for_update().filter(pk=pk).values(*names).first()
        if values is not None:
            model._default_manager.filter(pk=pk).update(**values)  # saving encrypts with the first key


class Command(BaseCommand):
    help = "Re-encrypt every encrypted field (kubeconfigs, database URIs, registry passwords) with the first key."

    def handle(self, *args: Any, **options: Any) -> None:
        for model, names in encrypted_fields():
            pks = list(model._default_manager.values_list("pk", flat=True))
            for pk in pks:
                rotate_row(model, pk, names)
            self.stdout.write(f"{model._meta.label}: re-encrypted {', '.join(names)} in {len(pks)} rows")
