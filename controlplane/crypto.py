"""Symmetric encryption for secrets stored in the database (Fernet: AES-128-CBC plus HMAC)."""

from __future__ import annotations

from functools import cache

from cryptography.fernet import Fernet, InvalidToken
from django.conf import settings
from django.core.exceptions import ImproperlyConfigured

__all__ = ["decrypt", "encrypt", "validate_key"]


def validate_key(name: str, key: str) -> str:
    """Return ``key`` if it is a usable Fernet key, else fail naming the variable."""
    try:
        Fernet(key.encode())
    except (ValueError, TypeError):
        raise ImproperlyConfigured(
            f"{name} is not a valid Fernet key (32 url-safe base64-encoded bytes). Fix: generate one with "
            "python -c 'from cryptography.fernet import Fernet; print(Fernet.generate_key().decode())'"
        ) from None
    return key


@cache
def _fernet(key: str) -> Fernet:
    return Fernet(key.encode())


def encrypt(plaintext: str) -> str:
    return _fernet(settings.FIELD_ENCRYPTION_KEY).encrypt(plaintext.encode()).decode()


def decrypt(token: str) -> str:
    try:
        return _fernet(settings.FIELD_ENCRYPTION_KEY).decrypt(token.encode()).decode()
    except InvalidToken:
        raise ImproperlyConfigured(
            "A stored secret cannot be decrypted with FIELD_ENCRYPTION_KEY. Fix: restore the key it was written with."
        ) from None
