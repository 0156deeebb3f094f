"""Webhook signatures (pure; no Django): HMAC-SHA256 over the timestamp and the body.

The signed material is ``<timestamp>.<body>``: the decimal Unix time from ``X-Controlplane-Timestamp``, a
dot, then the exact request body bytes. ``X-Controlplane-Signature`` is ``sha256=<lowercase hex digest>``.
A receiver recomputes it with the shared secret, compares in constant time, and refuses a timestamp too far
from its clock (replays); ``verify`` does all three.
"""

from __future__ import annotations

import hashlib
import hmac

__all__ = ["SIGNATURE_HEADER", "TIMESTAMP_HEADER", "sign", "verify"]

SIGNATURE_HEADER = "X-Controlplane-Signature"
TIMESTAMP_HEADER = "X-Controlplane-Timestamp"
PREFIX = "sha256="


def sign(secret: str, timestamp: int, body: bytes) -> str:
    """The ``X-Controlplane-Signature`` value for ``body`` sent at ``timestamp``."""
    mac = hmac.new(secret.encode(), str(timestamp).encode() + b"." + body, hashlib.sha256)
    return PREFIX + mac.hexdigest()


def verify(secret: str, timestamp: str, body: bytes, signature: str, *, now: int, tolerance: int = 300) -> bool:
    """Whether ``signature`` is ``body``'s at ``timestamp``, and the timestamp is within ``tolerance`` s of ``now``."""
    if not timestamp.isdigit() or abs(now - int(timestamp)) > tolerance:
        return False
    return hmac.compare_digest(sign(secret, int(timestamp), body), signature)
