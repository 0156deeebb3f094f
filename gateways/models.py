"""The Gateway: desired state (spec) written by users, observed state (status) written by workers."""

from __future__ import annotations

import uuid
from dataclasses import replace
from typing import Any
from urllib.parse import urlparse

from django.conf import settings
from django.contrib.postgres.indexes import GinIndex, OpClass
from django.core.exceptions import ValidationError
from django.db import models
from django.db.models.functions import Upper

from cluster_vocabulary.kubernetes import ConditionStatus
from controlplane.conditions import find_condition
from controlplane.fields import EncryptedTextField
from controlplane.image_policy import provenance_problem
from controlplane.imageref import InvalidImageRefError, parse_image_ref, pinned_image
from controlplane.models import EventRecord, ManagedCluster, SpecResource
from controlplane.signing_keys import MAX_KEYS_CHARS, keys_fingerprint, validate_signature_keys
from controlplane.validators import (
    validate_dns1123_label,
    validate_dns1123_subdomain,
    validate_labels,
    validate_printable,
    validate_sha256_digest,
    validate_url_text,
)
from gateways.chart_keys import type_mismatches, unknown_keys
from gateways.chart_source import chart_source_problem, local_chart_defaults
from gateways.choices import DatabaseProvider, Phase, PlanStatus, ReleaseReason, ReleaseStatus
from gateways.release_trust import release_trust_problems, unsigned_release_problem
from gateways.spec_rules import spec_problems
from gateways.states import ReleaseConditionType, VerifiedArtefact
from gateways.values import ClusterFacts, GatewaySpec, default_route_host, host_in_domains

__all__ = [
    "ROUTE_HOST_CONSTRAINT",
    "Gateway",
    "GatewayEvent",
    "GatewayPlan",
    "GatewayRelease",
    "ReleaseEvent",
    "validate_image",
]

NAME_MAX_LENGTH = 40
# How much of a gateway's name its Helm release keeps (before `-<id8>`); see Gateway.assign_namespace.
RELEASE_NAME_PREFIX = 24
ROUTE_HOST_CONSTRAINT = "gateway_unique_route_host_per_cluster"
# Saving any of these recomputes the effective route host.
_ROUTE_INPUTS = frozenset({"route_enabled", "route_host", "cluster", "cluster_id", "namespace"})


def validate_image(value: str) -> None:
    try:
        parse_image_ref(value)
    except InvalidImageRefError as exc:
        raise ValidationError(str(exc), code="invalid_image") from None


def validate_gateway_name(value: str) -> None:
    validate_dns1123_label(value)
    if len(value) > NAME_MAX_LENGTH:
        raise ValidationError(f"Gateway names are at most {NAME_MAX_LENGTH} characters.", code="invalid_name")


class GatewayRelease(models.Model):
    """The software gateways run: a chart (local path or ``oci://``), its pinned version, the gateway and supervisor
    images (one provenance unless ``allow_mixed_provenance``; may be pinned by digest), and values overrides.

    A release without images (the bootstrap default, or one from before releases carried them) leaves the images
    to its gateways. The chart, version, images and values never change once created (a new release is a new
    row), so a worker may cache the pulled chart by reference and version. ``status`` is written by the worker that
    first loads the chart: Ready, or Invalid with ``message``; while a remote chart cannot be pulled it stays
    Pending with ``reason`` ChartUnavailable (retried, never Invalid for that). Exactly one release is the
    ``default``, which new gateways get.
    """

    id = models.UUIDField(primary_key=True, default=uuid.uuid4, editable=False)
    name = models.CharField(max_length=63, unique=True, validators=[validate_dns1123_label])
    chart = models.CharField(
        max_length=512, validators=[validate_url_text], help_text="A local chart directory or .tgz, or oci://..."
    )
    version = models.CharField(max_length=64, blank=True, help_text="Required for oci:// unless pinned by digest.")
    values = models.JSONField(default=dict, blank=True, help_text="Values overrides; only keys the chart has.")
    image = models.CharField(
        max_length=512,
        blank=True,
        validators=[validate_image],
        help_text="The gateway image its gateways run (unless one overrides it).",
    )
    supervisor_image = models.CharField(
        max_length=512,
        blank=True,
        validators=[validate_image],
        help_text="The supervisor image its gateways run (unless one overrides it).",
    )
    allow_mixed_provenance = models.BooleanField(
        default=False, help_text="Accept images from different registries or namespaces (audited)."
    )
    signature_keys = models.TextField(
        blank=True,
        max_length=MAX_KEYS_CHARS,
        validators=[validate_signature_keys],
        help_text="Cosign public keys (PEM). When set, the worker verifies the chart and both images before the "
        "release is Ready, and its gateways run the digests it verified.",
    )
    chart_digest = models.CharField(
        max_length=71,
        blank=True,
        validators=[validate_sha256_digest],
        help_text="sha256:<hex> of the packaged local chart (.tgz, or the directory as `helm package` packs it): "
        "checked before the release is Ready, and what is installed is the archive that was hashed.",
    )
    # What the worker verified, by artefact (chart, image, supervisor_image: digests), with the fingerprints of
    # the key that verified and of the policy's key set, and when; {} when nothing was verified.
    verified_digests = models.JSONField(default=dict, blank=True, editable=False)
    # Verified (with a signature policy): True once verified, False when a key change no longer verifies it.
    conditions = models.JSONField(default=list, blank=True, editable=False)
    default = models.BooleanField(default=False, help_text="New gateways get the default release.")
    status = models.CharField(
        max_length=16, choices=ReleaseStatus.choices, default=ReleaseStatus.PENDING, editable=False
    )
    reason = models.CharField(max_length=32, choices=ReleaseReason.choices, blank=True, editable=False)
    message = models.CharField(max_length=2000, blank=True, editable=False)
    chart_version = models.CharField(max_length=64, blank=True, editable=False)
    validated_at = models.DateTimeField(null=True, blank=True, editable=False)
    created_at = models.DateTimeField(auto_now_add=True)
    updated_at = models.DateTimeField(auto_now=True)

    class Meta:
        ordering = ("name",)
        constraints = [
            models.UniqueConstraint(fields=("default",), condition=models.Q(default=True), name="one_default_release")
        ]

    def __str__(self) -> str:
        return self.name

    def pinned_images(self) -> tuple[str, str]:
        """Its images as its gateways run them: by the digests the worker verified, else as named."""
        verified = self.verified_digests or {}
        return (
            pinned_image(self.image, verified.get(VerifiedArtefact.IMAGE)),
            pinned_image(self.supervisor_image, verified.get(VerifiedArtefact.SUPERVISOR_IMAGE)),
        )

    def verification_failed(self) -> bool:
        """A change of keys no longer verifies what it pinned (its Verified condition is False)."""
        verified = find_condition(self.conditions or [], ReleaseConditionType.VERIFIED)
        return verified is not None and verified["status"] == ConditionStatus.FALSE

    def rollout_status(self) -> str:
        """Its status as a rollout's target: Invalid when it no longer verifies, Pending while it is verified again
        with changed keys."""
        if self.verification_failed():
            return ReleaseStatus.INVALID
        return ReleaseStatus.PENDING if self.trust_problem() else self.status

    def trust_problem(self) -> str | None:
        """Why nothing more may run from this Ready release: its keys changed and it is not verified again yet,
        or no longer verifies (None when it may: verified, or without a signature policy)."""
        if not self.signature_keys or self.status != ReleaseStatus.READY:
            return None
        verified = find_condition(self.conditions or [], ReleaseConditionType.VERIFIED)
        if verified is not None and verified["status"] != ConditionStatus.TRUE:
            return f"Release {self.name} is not verified: {verified['message']}"
        if (self.verified_digests or {}).get(VerifiedArtefact.KEYS) != keys_fingerprint(self.signature_keys):
            return f"Release {self.name} is not verified with its current keys yet"
        return None

    @classmethod
    def current_default(cls) -> GatewayRelease | None:
        return cls.objects.filter(default=True).first()

    def clean(self) -> None:
        problem = chart_source_problem(self.chart, self.version, "chart", "version")
        if problem:
            raise ValidationError({"version": problem})
        if not isinstance(self.values, dict):
            raise ValidationError({"values": "Values overrides must be a JSON object."})
        if bool(self.image) != bool(self.supervisor_image):
            missing = "supervisor_image" if self.image else "image"
            raise ValidationError({missing: "A release names both images, or neither (its gateways then name them)."})
        mixed = provenance_problem(self.image, self.supervisor_image) if self.image else None
        if mixed and not self.allow_mixed_provenance:
            raise ValidationError(
                {
                    "supervisor_image": ValidationError(
                        f"{mixed} A platform admin may allow it with allow_mixed_provenance (audited).",
                        code="mixed_provenance",
                    )
                }
            )
        saved = None if self._state.adding else GatewayRelease.objects.filter(pk=self.pk).values("signature_keys")
        trust = release_trust_problems(
            self,
            had_keys=bool(saved[0]["signature_keys"]) if saved else None,
            required=settings.RELEASES_REQUIRE_SIGNATURES,
        )
        if trust:
            raise ValidationError(trust)
        if self.default and self.status == ReleaseStatus.INVALID:
            raise ValidationError({"default": "An Invalid release cannot be the default."})
        defaults = local_chart_defaults(self.chart)
        if defaults is not None:
            problems = [f"the chart has no values key {p!r}" for p in unknown_keys(self.values, defaults)]
            problems += type_mismatches(self.values, defaults)
            if problems:
                raise ValidationError({"values": problems})


class Gateway(SpecResource):
    """A tenant gateway, installed with Helm into its own namespace on a managed cluster."""

    SPEC_FIELDS = (
        "cluster_id",
        "image",
        "supervisor_image",
        "route_enabled",
        "route_host",
        "oidc_issuer",
        "oidc_audience",
        "oidc_roles_claim",
        "oidc_admin_role",
        "oidc_user_role",
        "oidc_ca_configmap",
        "database_provider",
        "database_uri",
        "suspended",
        "labels",
        "release_id",
    )

    owner = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="gateways")
    cluster = models.ForeignKey(ManagedCluster, on_delete=models.PROTECT, related_name="gateways")
    name = models.CharField(max_length=NAME_MAX_LENGTH, validators=[validate_gateway_name])
    namespace = models.CharField(max_length=63, unique=True, editable=False)
    # The Helm release, unique per gateway like the namespace, so that the chart's cluster-scoped objects (named
    # after the release) are too. Gateways installed before that keep their name as the release name.
    helm_release_name = models.CharField(max_length=53, editable=False, default="")

    # Overrides of the release's images, where the image policy allows them ("" runs the release's).
    image = models.CharField(max_length=512, blank=True, validators=[validate_image])
    supervisor_image = models.CharField(max_length=512, blank=True, validators=[validate_image])
    # The overrides were set by a platform admin: an audited exception to the image policy, kept by rollouts.
    image_override_by_admin = models.BooleanField(default=False, editable=False)
    route_enabled = models.BooleanField(default=True)
    route_host = models.CharField(max_length=253, blank=True, validators=[validate_dns1123_subdomain])
    # The host the route really gets (explicit or default), None without a route: unique per cluster.
    effective_route_host = models.CharField(max_length=253, null=True, blank=True, editable=False)
    oidc_issuer = models.URLField(max_length=512, blank=True, validators=[validate_url_text])
    oidc_audience = models.CharField(max_length=255, blank=True, validators=[validate_printable])
    oidc_roles_claim = models.CharField(max_length=255, blank=True, validators=[validate_printable])
    oidc_admin_role = models.CharField(max_length=255, blank=True, validators=[validate_printable])
    oidc_user_role = models.CharField(max_length=255, blank=True, validators=[validate_printable])
    oidc_ca_configmap = models.CharField(max_length=253, blank=True, validators=[validate_dns1123_subdomain])
    database_provider = models.CharField(
        max_length=16, choices=DatabaseProvider.choices, default=DatabaseProvider.EMBEDDED
    )
    database_uri = EncryptedTextField(blank=True, max_length=2048, validators=[validate_url_text])
    suspended = models.BooleanField(default=False)
    labels = models.JSONField(default=dict, blank=True, validators=[validate_labels])
    # The chart release to run; changed by rollouts (platform admins), a spec change like any other.
    release = models.ForeignKey(
        GatewayRelease, null=True, blank=True, on_delete=models.PROTECT, related_name="gateways", editable=False
    )

    phase = models.CharField(max_length=16, choices=Phase.choices, default=Phase.PENDING, editable=False)
    conditions = models.JSONField(default=list, editable=False)
    observed_generation = models.PositiveBigIntegerField(default=0, editable=False)
    route_address = models.CharField(max_length=300, blank=True, editable=False)
    release_name = models.CharField(max_length=53, blank=True, editable=False)
    release_revision = models.PositiveIntegerField(default=0, editable=False)
    release_status = models.CharField(max_length=32, blank=True, editable=False)
    chart_version = models.CharField(max_length=64, blank=True, editable=False)
    # The images Helm's record of the deployed revision makes the chart run (observed).
    deployed_image = models.CharField(max_length=512, blank=True, editable=False)
    deployed_supervisor_image = models.CharField(max_length=512, blank=True, editable=False)
    # The release last seen deployed and converged (observed), as opposed to ``release`` (desired).
    deployed_release = models.ForeignKey(
        GatewayRelease, null=True, blank=True, on_delete=models.SET_NULL, related_name="+", editable=False
    )
    deletion_requested_at = models.DateTimeField(null=True, blank=True, editable=False)
    # A platform admin's force delete: remove what the release left even if helm uninstall fails.
    force_deletion = models.BooleanField(default=False, editable=False)
    last_reconciled_at = models.DateTimeField(null=True, blank=True, editable=False)
    # Set when a pass was asked for while another held the lease; the holder runs once more.
    pass_requested = models.BooleanField(default=False, editable=False)
    # A change held for its cluster's maintenance window: when it may start (None: not held). The pass that
    # held it is queued for then.
    window_held_until = models.DateTimeField(null=True, blank=True, editable=False)

    class Meta:
        ordering = ("name", "id")
        constraints = [
            models.UniqueConstraint(fields=("owner", "name"), name="gateway_unique_name_per_owner"),
            models.UniqueConstraint(
                fields=("cluster", "effective_route_host"),
                name=ROUTE_HOST_CONSTRAINT,
                condition=models.Q(effective_route_host__isnull=False),
            ),
        ]
        # One index per filter and ordering the API offers, each ending in the list order (name, id) so a page
        # is an index range; `?search=` (icontains on UPPER(field)) uses trigram indexes on PostgreSQL only
        # (see gateways.migration_ops). The owner filter uses the unique (owner, name) constraint.
        indexes = [
            models.Index(fields=("name", "id"), name="gateway_name_id"),
            models.Index(fields=("phase", "name", "id"), name="gateway_phase_name_id"),
            models.Index(fields=("cluster", "name", "id"), name="gateway_cluster_name_id"),
            models.Index(fields=("created_at", "id"), name="gateway_created_at_id"),
            models.Index(fields=("name", "id"), condition=models.Q(suspended=True), name="gateway_suspended_name_id"),
            *(
                GinIndex(OpClass(Upper(field), name="gin_trgm_ops"), name=f"gateway_{field}_trgm")
                for field in ("name", "namespace", "image")
            ),
        ]

    def __str__(self) -> str:
        return self.name

    def save(self, *args: Any, **kwargs: Any) -> None:
        """A new gateway gets the fleet's default release (None until one exists: the worker assigns it then).
        Saving any route input recomputes the effective route host (unique per cluster)."""
        if self._state.adding and self.release_id is None:
            self.release = GatewayRelease.current_default()
        update_fields = kwargs.get("update_fields")
        if update_fields is None or _ROUTE_INPUTS & set(update_fields):
            self.effective_route_host = self.resolve_route_host()
            if update_fields is not None:
                kwargs["update_fields"] = {*update_fields, "effective_route_host"}
        super().save(*args, **kwargs)

    def resolve_route_host(self) -> str | None:
        """The explicit host, else ``<namespace>.<cluster base domain>``; None without a route."""
        if not self.route_enabled:
            return None
        return (self.route_host or default_route_host(self.namespace, self.cluster.base_domain)).lower()

    def route_host_taken(self) -> bool:
        """Whether another gateway on the cluster has this one's effective route host (``ROUTE_HOST_CONSTRAINT``)."""
        if self.effective_route_host is None:
            return False
        others = Gateway.objects.filter(cluster_id=self.cluster_id, effective_route_host=self.effective_route_host)
        return others.exclude(pk=self.pk).exists()

    def desired_images(self, release: GatewayRelease | None = None) -> tuple[str, str]:
        """The images the gateway should run: each override, else its release's ("" when neither names one)."""
        release = release if release is not None else self.release
        image, supervisor_image = release.pinned_images() if release else ("", "")
        return self.image or image, self.supervisor_image or supervisor_image

    @property
    def oidc_enabled(self) -> bool:
        return bool(self.oidc_issuer)

    @property
    def image_overridden(self) -> bool:
        return bool(self.image or self.supervisor_image)

    @property
    def helm_release(self) -> str:
        """The Helm release name (see ``helm_release_name``)."""
        return self.helm_release_name or self.name

    def namespace_to_assign(self) -> str:
        return f"gw-{self.name}-{self.id.hex[:8]}"

    def assign_namespace(self) -> None:
        """The namespace and the release are named once, from the name and the id, and never change.

        The release is `<name, at most 24 characters>-<id8>`: the chart names objects `<release>-openshell-<suffix>`
        and truncates them to 63 characters, so a longer release would make `…-sandbox` the same name as the
        gateway's own ServiceAccount.
        """
        if not self.namespace:
            self.namespace = self.namespace_to_assign()
        if not self.helm_release_name:
            self.helm_release_name = f"{self.name[:RELEASE_NAME_PREFIX].rstrip('-')}-{self.id.hex[:8]}"

    def clean(self) -> None:
        errors: dict[str, Any] = {}
        if self.database_provider == DatabaseProvider.EXTERNAL:
            if urlparse(self.database_uri or "").scheme not in ("postgres", "postgresql"):
                errors["database_uri"] = "An external database needs a postgres:// or postgresql:// URI."
        elif self.database_uri:
            errors["database_uri"] = "A URI is only allowed with the external database provider."
        oidc_details = (self.oidc_audience, self.oidc_roles_claim, self.oidc_admin_role, self.oidc_user_role)
        if (any(oidc_details) or self.oidc_ca_configmap) and not self.oidc_issuer:
            errors["oidc_issuer"] = "OIDC settings need an issuer."
        if self.oidc_issuer and urlparse(self.oidc_issuer).scheme != "https":
            errors["oidc_issuer"] = "The OIDC issuer must be an https:// URL."
        if self.route_host and not self.route_enabled:
            errors["route_host"] = "A route host needs the route enabled."
        elif (
            self.route_host
            and self.cluster_id is not None
            and not host_in_domains(self.route_host, self.cluster.route_domains)
        ):
            errors["route_host"] = ValidationError(
                f"Route host {self.route_host!r} is outside cluster {self.cluster.name}'s route domains "
                f"({', '.join(self.cluster.route_domains)}); a platform admin can allow more domains.",
                code="host_outside_domains",
            )
        elif self.cluster_id is not None:
            # A new gateway's default host is unknown until its namespace is named, and unique by then.
            self.effective_route_host = self.resolve_route_host() if self.route_host or self.namespace else None
            if self.route_host_taken():
                errors["route_host"] = ValidationError(
                    f"Another gateway on {self.cluster} already uses {self.route_host or self.effective_route_host}; "
                    "hosts are unique per cluster.",
                    code=ROUTE_HOST_CONSTRAINT,
                )
        if self.cluster_id is not None:
            unsigned = self.cluster.require_signed_releases and unsigned_release_problem(
                self.cluster, self.release if self.release_id else GatewayRelease.current_default()
            )
            if unsigned:
                errors.setdefault("cluster", ValidationError(unsigned, code="unsigned_release"))
            for field, message in self.spec_rule_problems().items():
                errors.setdefault(field, ValidationError(message, code="spec_rule"))
        if errors:
            raise ValidationError(errors)

    def spec_rule_problems(self) -> dict[str, str]:
        """The worker's spec rules (``gateways.spec_rules``) on this gateway as it will run: its namespace (the one
        it will get, for a new gateway), and each image it names, else its release's (the default for a new one)."""
        release = self.release if self.release_id else GatewayRelease.current_default()
        spec = GatewaySpec.from_gateway(self, images=self.desired_images(release))
        if not spec.namespace:
            spec = replace(spec, namespace=self.namespace_to_assign())
        return spec_problems(spec, ClusterFacts.from_cluster(self.cluster))


class GatewayEvent(EventRecord):
    gateway = models.ForeignKey(Gateway, on_delete=models.CASCADE, related_name="events")

    class Meta(EventRecord.Meta):
        pass


class ReleaseEvent(EventRecord):
    """A release's event history: what its verification found (a failure is a Warning, VerificationFailed)."""

    release = models.ForeignKey(GatewayRelease, on_delete=models.CASCADE, related_name="events")

    class Meta(EventRecord.Meta):
        pass


class GatewayPlan(models.Model):
    """A preview of what the reconciler would do with a gateway's spec; computed by a worker, never applied.

    ``spec`` is the spec to plan (the model's field values, as JSON) and is encrypted: it holds the DB URI.
    ``gateway`` is empty for a would-be gateway. Plans are short-lived (see ``gateways.plans``).
    """

    id = models.UUIDField(primary_key=True, default=uuid.uuid4, editable=False)
    owner = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="gateway_plans")
    gateway = models.ForeignKey(Gateway, null=True, blank=True, on_delete=models.CASCADE, related_name="plans")
    cluster = models.ForeignKey(ManagedCluster, on_delete=models.CASCADE, related_name="gateway_plans")
    name = models.CharField(max_length=NAME_MAX_LENGTH)
    spec = EncryptedTextField()
    status = models.CharField(max_length=16, choices=PlanStatus.choices, default=PlanStatus.PENDING)
    result = models.JSONField(null=True, blank=True)
    error = models.CharField(max_length=2000, blank=True)
    created_at = models.DateTimeField(auto_now_add=True, db_index=True)
    finished_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ("-created_at",)

    def __str__(self) -> str:
        return f"plan {self.id} for {self.name}"
