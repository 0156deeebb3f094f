"""Symmetric encryption for secrets stored in the database (Fernet: AES-128-CBC plus HMAC).

``FIELD_ENCRYPTION_KEY`` is a comma-separated list of keys: the first encrypts, every one decrypts
(MultiFernet), so a new key can be put first while rows written with the old one stay readable,
until ``manage.py rotate_encryption_keys`` has re-encrypted them and the old key can be dropped.

The keys are checked as Fernet checks them (32 bytes in url-safe base64) without loading ``cryptography``, which
is imported on the first encryption or decryption: settings are read by every process, and the slim content
server never decrypts (its worker is about 8 MiB smaller for it).
"""

from __future__ import annotations

import base64
import binascii
from functools import cache
from typing import TYPE_CHECKING

from django.conf import settings
from django.core.exceptions import ImproperlyConfigured

if TYPE_CHECKING:
    from cryptography.fernet import MultiFernet

__all__ = ["decrypt", "encrypt", "validate_keys"]
FERNET_KEY_BYTES = 32


def validate_keys(name: str, value: str) -> tuple[str, ...]:
    """The comma-separated keys in ``value`` if each is a usable Fernet key, else fail naming the variable."""
    keys = tuple(key.strip() for key in value.split(","))
    for position, key in enumerate(keys, start=1):
        try:
            usable = len(base64.urlsafe_b64decode(key.encode())) == FERNET_KEY_BYTES
        except (binascii.Error, ValueError):
            usable = False
        if not usable:
            raise ImproperlyConfigured(
                f"{name} is not a valid Fernet key (key {position} of {len(keys)}: 32 url-safe base64-encoded "
                "bytes). Fix: generate one with "
                "python -c 'from cryptography.fernet import Fernet; print(Fernet.generate_key().decode())'"
            ) from None
    return keys


@cache
def _fernet(keys: tuple[str, ...]) -> MultiFernet:
    from cryptography.fernet import Fernet, MultiFernet  # loaded on first use: see above

    return MultiFernet([Fernet(key.encode()) for key in keys])


def encrypt(plaintext: str) -> str:
    return _fernet(settings.FIELD_ENCRYPTION_KEYS).encrypt(plaintext.encode()).decode()


def decrypt(token: str) -> str:
    fernet = _fernet(settings.FIELD_ENCRYPTION_KEYS)
    from cryptography.fernet import InvalidToken  # loaded by _fernet already

    try:
        return fernet.decrypt(token.encode()).decode()
    except InvalidToken:
        raise ImproperlyConfigured(
            "A stored secret cannot be decrypted with any key in FIELD_ENCRYPTION_KEY. Fix: add the key it was "
            "written with (after the current one)."
        ) from None
