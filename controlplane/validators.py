"""Validators shared by the models: Kubernetes names, labels, PEM bundles, printable text."""

from __future__ import annotations

import re
import unicodedata
from typing import Any

from django.core.exceptions import ValidationError

from controlplane.image_policy import PolicyError, parse_policy
from controlplane.maintenance_windows import WindowError, parse_schedule

__all__ = [
    "validate_dns1123_label",
    "validate_dns1123_subdomain",
    "validate_domain_list",
    "validate_image_policy",
    "validate_labels",
    "validate_maintenance_windows",
    "validate_pem_bundle",
    "validate_printable",
    "validate_sha256_digest",
    "validate_url_text",
]

# Matched with fullmatch: `$` alone would also match before a trailing newline.
_LABEL = re.compile(r"^[a-z0-9]([-a-z0-9]*[a-z0-9])?$")
_LABEL_VALUE = re.compile(r"^(([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9])?$")
_LABEL_NAME = re.compile(r"^([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]$")
_SHA256_DIGEST = re.compile(r"sha256:[0-9a-f]{64}")
_CONTROL = re.compile(r"[\x00-\x08\x0b\x0c\x0e-\x1f\x7f]")
_PEM_BLOCK = re.compile(r"-----BEGIN CERTIFICATE-----\s*[A-Za-z0-9+/=\s]+?-----END CERTIFICATE-----", re.MULTILINE)
MAX_LABELS = 64
MAX_DOMAINS = 32


def validate_dns1123_label(value: str) -> None:
    if len(value) > 63 or not _LABEL.fullmatch(value):
        raise ValidationError(
            f"{value!r} is not a DNS-1123 label: use at most 63 lowercase letters, digits or '-', "
            "starting and ending with a letter or digit.",
            code="invalid_name",
        )


def validate_dns1123_subdomain(value: str) -> None:
    if len(value) > 253 or not all(_LABEL.fullmatch(part) and len(part) <= 63 for part in value.split(".")):
        raise ValidationError(
            f"{value!r} is not a DNS-1123 subdomain: use at most 253 characters of dot-separated "
            "lowercase labels (letters, digits, '-').",
            code="invalid_name",
        )


def validate_domain_list(value: Any) -> None:
    """A list of distinct DNS-1123 subdomains, at most ``MAX_DOMAINS`` of them."""
    if not isinstance(value, list) or not all(isinstance(item, str) for item in value):
        raise ValidationError("Expected a list of domain names.", code="invalid_domains")
    if len(value) > MAX_DOMAINS:
        raise ValidationError(f"At most {MAX_DOMAINS} domains are allowed.", code="invalid_domains")
    if len(set(value)) != len(value):
        raise ValidationError("Domains must not repeat.", code="invalid_domains")
    for item in value:
        validate_dns1123_subdomain(item)


def validate_printable(value: str) -> None:
    if _CONTROL.search(value):
        raise ValidationError("Control characters are not allowed.", code="control_characters")


def validate_url_text(value: str) -> None:
    """A URL (or URI, or chart reference) is one token: no whitespace and no control characters anywhere, since URL
    parsers drop some of them and the address requested would differ from the one stored."""
    if any(char.isspace() or unicodedata.category(char) == "Cc" for char in value):
        raise ValidationError("A URL may not contain whitespace or control characters.", code="url_characters")


def _validate_label_key(key: str) -> None:
    prefix, slash, name = key.rpartition("/")
    if slash:  # as Kubernetes: `/name` has an empty prefix, which is invalid
        validate_dns1123_subdomain(prefix)
    if len(name) > 63 or not _LABEL_NAME.fullmatch(name):
        raise ValidationError(f"Label key {key!r} is invalid.", code="invalid_label")


def validate_labels(value: Any) -> None:
    """Labels follow Kubernetes rules: a string-to-string map of valid keys and values."""
    if not isinstance(value, dict):
        raise ValidationError("Labels must be an object of string keys to string values.", code="invalid_label")
    if len(value) > MAX_LABELS:
        raise ValidationError(f"At most {MAX_LABELS} labels are allowed.", code="invalid_label")
    for key, item in value.items():
        if not isinstance(key, str) or not isinstance(item, str):
            raise ValidationError("Label keys and values must be strings.", code="invalid_label")
        try:
            _validate_label_key(key)
        except ValidationError:
            raise ValidationError(f"Label key {key!r} is invalid.", code="invalid_label") from None
        if len(item) > 63 or not _LABEL_VALUE.fullmatch(item):
            raise ValidationError(f"Label value {item!r} for {key!r} is invalid.", code="invalid_label")


def validate_pem_bundle(value: str) -> None:
    """Accept one or more PEM certificates and nothing else but whitespace."""
    if not value:
        return
    if not _PEM_BLOCK.search(value) or _PEM_BLOCK.sub("", value).strip():
        raise ValidationError(
            "Expected one or more PEM certificates (-----BEGIN CERTIFICATE----- ... -----END CERTIFICATE-----).",
            code="invalid_pem",
        )


def validate_sha256_digest(value: str) -> None:
    """``sha256:`` and 64 lowercase hex digits (blank: none)."""
    if value and not _SHA256_DIGEST.fullmatch(value):
        raise ValidationError("Expected sha256:<64 lowercase hex digits>.", code="invalid_digest")


def validate_image_policy(value: Any) -> None:
    """A cluster's image policy (see ``controlplane.image_policy.parse_policy``)."""
    if value is None:
        return
    try:
        parse_policy(value, "the cluster")
    except PolicyError as exc:
        raise ValidationError(str(exc), code="invalid_image_policy") from None


def validate_maintenance_windows(value: Any) -> None:
    """A cluster's maintenance windows and freezes (see ``controlplane.maintenance_windows.parse_schedule``); the
    message names the entry (``windows[1].timezone: ...``)."""
    try:
        parse_schedule(value)
    except WindowError as exc:
        raise ValidationError(str(exc), code="invalid_maintenance_windows") from None
