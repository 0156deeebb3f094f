"""Model fields for secrets: encrypted at rest, plaintext only in memory."""

from __future__ import annotations

from typing import Any

from django.db import models

from controlplane.crypto import decrypt, encrypt

__all__ = ["EncryptedTextField"]


class EncryptedTextField(models.TextField):
    """A text column whose stored value is a Fernet token. Empty strings stay empty."""

    def from_db_value(self, value: str | None, expression: Any, connection: Any) -> str | None:
        if not value:
            return value
        return decrypt(value)

    def get_prep_value(self, value: Any) -> Any:
        value = super().get_prep_value(value)
        if not value:
            return value
        return encrypt(value)
