"""The Catalog: an OCI image holding a file-based catalog, unpacked and served over HTTP."""

from __future__ import annotations

from typing import Any

from django.core.exceptions import ValidationError
from django.core.validators import MaxValueValidator, MinValueValidator
from django.db import models

from catalogs.choices import METADATA_NAME_LABEL, AvailabilityMode
from controlplane.fields import EncryptedTextField
from controlplane.imageref import InvalidImageRefError, parse_image_ref
from controlplane.models import EventRecord, SpecResource
from controlplane.signing_keys import MAX_KEYS_CHARS, keys_fingerprint, validate_signature_keys
from controlplane.validators import validate_dns1123_subdomain, validate_labels, validate_pem_bundle, validate_printable

__all__ = ["Catalog", "CatalogEvent", "CatalogRevision"]

INT32_MIN, INT32_MAX = -(2**31), 2**31 - 1
MAX_TAG_LENGTH = 127


def validate_catalog_ref(value: str) -> None:
    try:
        ref = parse_image_ref(value)
    except InvalidImageRefError as exc:
        raise ValidationError(str(exc), code="invalid_image") from None
    if ref.tag and len(ref.tag) > MAX_TAG_LENGTH:
        raise ValidationError(f"Tags are at most {MAX_TAG_LENGTH} characters.", code="invalid_image")


class Catalog(SpecResource):
    """A catalog source. Catalogs are shared by all tenants; platform admins manage them."""

    SPEC_FIELDS = (
        "image_ref",
        "poll_interval_minutes",
        "priority",
        "availability_mode",
        "labels",
        "pull_username",
        "pull_password",
        "ca",
        "signature_keys",
    )
    FRESH_START = {**SpecResource.FRESH_START, "blocked_digest": ""}

    name = models.CharField(max_length=253, unique=True, validators=[validate_dns1123_subdomain])
    image_ref = models.CharField(max_length=512, validators=[validate_catalog_ref])
    poll_interval_minutes = models.PositiveIntegerField(
        null=True, blank=True, validators=[MinValueValidator(1), MaxValueValidator(7 * 24 * 60)]
    )
    priority = models.IntegerField(default=0, validators=[MinValueValidator(INT32_MIN), MaxValueValidator(INT32_MAX)])
    availability_mode = models.CharField(
        max_length=16, choices=AvailabilityMode.choices, default=AvailabilityMode.AVAILABLE
    )
    labels = models.JSONField(default=dict, blank=True, validators=[validate_labels])
    pull_username = models.CharField(max_length=255, blank=True, validators=[validate_printable])
    pull_password = EncryptedTextField(blank=True, max_length=4096)
    ca = models.TextField(blank=True, max_length=256 * 1024, validators=[validate_pem_bundle])
    signature_keys = models.TextField(
        blank=True,
        max_length=MAX_KEYS_CHARS,
        validators=[validate_signature_keys],
        help_text="Cosign public keys (PEM). When set, only images signed by one of them are unpacked.",
    )

    conditions = models.JSONField(default=list, editable=False)
    observed_generation = models.PositiveBigIntegerField(default=0, editable=False)
    resolved_ref = models.CharField(max_length=600, blank=True, editable=False)
    base_url = models.CharField(max_length=600, blank=True, editable=False)
    last_unpacked = models.DateTimeField(null=True, blank=True, editable=False)
    content_digest = models.CharField(max_length=80, blank=True, editable=False)
    verified_keys = models.CharField(max_length=80, blank=True, editable=False)  # keys_fingerprint at unpack
    # The manifest digest a terminal failure blocked on: not pulled again until the ref names another
    # digest, the spec changes, or a resync asks for it.
    blocked_digest = models.CharField(max_length=80, blank=True, editable=False)

    class Meta:
        ordering = ("name",)

    def __str__(self) -> str:
        return self.name

    @property
    def signature_verified(self) -> bool:
        """The content served was verified with the current signature keys."""
        return (
            bool(self.signature_keys)
            and bool(self.content_digest)
            and (self.verified_keys == keys_fingerprint(self.signature_keys))
        )

    def apply_defaults(self) -> None:
        """Every write carries the metadata-name label, whichever replica takes it."""
        self.labels = {**(self.labels or {}), METADATA_NAME_LABEL: self.name}

    def clean(self) -> None:
        errors: dict[str, Any] = {}
        try:
            is_digest = parse_image_ref(self.image_ref).digest is not None
        except InvalidImageRefError:
            is_digest = False
        if is_digest and self.poll_interval_minutes is not None:
            errors["poll_interval_minutes"] = "Polling is forbidden for a digest reference: it can never change."
        if bool(self.pull_username) != bool(self.pull_password):
            errors["pull_username"] = "Registry credentials need both a username and a password."
        if errors:
            raise ValidationError(errors)

    def save(self, *args: Any, **kwargs: Any) -> None:
        self.apply_defaults()
        super().save(*args, **kwargs)


class CatalogEvent(EventRecord):
    catalog = models.ForeignKey(Catalog, on_delete=models.CASCADE, related_name="events")

    class Meta(EventRecord.Meta):
        pass


class CatalogRevision(models.Model):
    """One content switch: what the catalog served from then on. The newest ``CATALOG_HISTORY_LIMIT`` are kept,
    and the GC keeps the content of each (see ``catalogs.history``)."""

    catalog = models.ForeignKey(Catalog, on_delete=models.CASCADE, related_name="revisions")
    content_digest = models.CharField(max_length=80)
    resolved_ref = models.CharField(max_length=600)
    switched_at = models.DateTimeField()
    summary = models.CharField(max_length=512, blank=True)  # what changed from the previous revision, one line
    changes = models.JSONField(default=dict, blank=True)  # the same, as a bounded diff (see catalogs.diff.as_dict)

    class Meta:
        ordering = ("-id",)
        indexes = [
            models.Index(fields=("catalog", "-id"), name="catalog_revision_newest"),
            models.Index(fields=("content_digest",), name="catalog_revision_digest"),
        ]

    def __str__(self) -> str:
        return f"{self.catalog_id} {self.content_digest}"
