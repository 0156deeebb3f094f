"""The ``signature_policy`` of catalogs and releases: one to ``MAX_KEYS`` cosign public keys, or null for none.

The keys are stored concatenated in the model's ``signature_keys`` (checked by ``controlplane.signing_keys``);
``null`` on a write removes the policy, and a row without keys reads as ``null``."""

from __future__ import annotations

from typing import Any

from controlplane.api.fields import StrictCharField
from controlplane.api.serializers import NestedObjectSerializer
from controlplane.signing_keys import MAX_KEYS, MAX_KEYS_CHARS

__all__ = ["KEYS_ERROR_FIELD", "POLICY_FIELD", "SignaturePolicySerializer", "policy_read", "policy_written"]

POLICY_FIELD = "signature_policy"
KEYS_ERROR_FIELD = {"signature_keys": f"{POLICY_FIELD}.public_keys"}


class SignaturePolicySerializer(NestedObjectSerializer):
    public_keys = StrictCharField(
        source="signature_keys",
        max_length=MAX_KEYS_CHARS,
        help_text=f"One to {MAX_KEYS} cosign public keys (PEM, concatenated): ECDSA P-256/P-384/P-521, RSA or "
        "Ed25519. An artefact is used only when one of them verifies its signature.",
    )

    def __init__(self, *, help_text: str, **kwargs: Any) -> None:
        super().__init__(source="*", required=False, allow_null=True, help_text=help_text, **kwargs)


def policy_written(data: Any) -> tuple[Any, dict[str, str]]:
    """The request body without a ``signature_policy: null``, and the fields that null clears."""
    if isinstance(data, dict) and POLICY_FIELD in data and data[POLICY_FIELD] is None:
        return {k: v for k, v in data.items() if k != POLICY_FIELD}, {"signature_keys": ""}
    return data, {}


def policy_read(data: dict[str, Any], instance: Any) -> dict[str, Any]:
    """``signature_policy`` is null for a row without keys."""
    if POLICY_FIELD in data and not instance.signature_keys:
        data[POLICY_FIELD] = None
    return data
