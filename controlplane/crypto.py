"""Symmetric encryption for secrets stored in the database (Fernet: AES-128-CBC plus HMAC).

``FIELD_ENCRYPTION_KEY`` is a comma-separated list of keys: the first encrypts, every one decrypts
(MultiFernet), so a new key can be put first while rows written with the old one stay readable,
until ``manage.py rotate_encryption_keys`` has re-encrypted them and the old key can be dropped.
"""

from __future__ import annotations

from functools import cache

from cryptography.fernet import Fernet, InvalidToken, MultiFernet
from django.conf import settings
from django.core.exceptions import ImproperlyConfigured

__all__ = ["decrypt", "encrypt", "validate_keys"]


def validate_keys(name: str, value: str) -> tuple[str, ...]:
    """The comma-separated keys in ``value`` if each is a usable Fernet key, else fail naming the variable."""
    keys = tuple(key.strip() for key in value.split(","))
    for position, key in enumerate(keys, start=1):
        try:
            Fernet(key.encode())
        except (ValueError, TypeError):
            raise ImproperlyConfigured(
                f"{name} is not a valid Fernet key (key {position} of {len(keys)}: 32 url-safe base64-encoded "
                "bytes). Fix: generate one with "
                "python -c 'from cryptography.fernet import Fernet; print(Fernet.generate_key().decode())'"
            ) from None
    return keys


@cache
def _fernet(keys: tuple[str, ...]) -> MultiFernet:
    return MultiFernet([Fernet(key.encode()) for key in keys])


def encrypt(plaintext: str) -> str:
    return _fernet(settings.FIELD_ENCRYPTION_KEYS).encrypt(plaintext.encode()).decode()


def decrypt(token: str) -> str:
    try:
        return _fernet(settings.FIELD_ENCRYPTION_KEYS).decrypt(token.encode()).decode()
    except InvalidToken:
        raise ImproperlyConfigured(
            "A stored secret cannot be decrypted with any key in FIELD_ENCRYPTION_KEY. Fix: add the key it was "
            "written with (after the current one)."
        ) from None

