"""Shared models: ManagedCluster, plus the abstract bases for spec/status resources and events."""

from __future__ import annotations

import uuid
from datetime import datetime
from typing import Any, ClassVar

from django.conf import settings
from django.db import models, transaction
from django.dispatch import Signal
from django.utils import timezone

from controlplane.choices import EventType, Flavour
from controlplane.fields import EncryptedTextField
from controlplane.image_policy import ImagePolicy, parse_policy
from controlplane.kubeconfig import validate_kubeconfig
from controlplane.maintenance_windows import Schedule, Verdict, parse_schedule, verdict
from controlplane.validators import (
    validate_dns1123_label,
    validate_dns1123_subdomain,
    validate_domain_list,
    validate_image_policy,
    validate_maintenance_windows,
    validate_pem_bundle,
)

__all__ = [
    "AuditEntry",
    "ClusterEvent",
    "EventRecord",
    "FleetSample",
    "ManagedCluster",
    "SpecResource",
    "WatcherReplica",
    "events_recorded",
]

# Sent with ``events`` (the saved rows) inside the transaction that records them, whichever way they are
# written (``save``/``create`` or ``bulk_create``); ``sender`` is the EventRecord subclass. Apps that react to
# events (notifications) connect here, so the recorders need not know them.
events_recorded = Signal()


class SpecResource(models.Model):
    """A desired-state resource whose ``generation`` grows on every change of a spec field."""

    SPEC_FIELDS: ClassVar[tuple[str, ...]] = ()
    # Reconciler state that a spec change resets: the failures, the backoff, and whatever a kind adds.
    FRESH_START: ClassVar[dict[str, Any]] = {"failure_count": 0, "next_attempt_at": None}

    id = models.UUIDField(primary_key=True, default=uuid.uuid4, editable=False)
    generation = models.PositiveBigIntegerField(default=1, editable=False)
    created_at = models.DateTimeField(auto_now_add=True)
    updated_at = models.DateTimeField(auto_now=True)
    # One reconcile pass at a time across all workers (see workers.reconcile.lease).
    lease_owner = models.CharField(max_length=32, blank=True, editable=False)
    lease_expires_at = models.DateTimeField(null=True, blank=True, editable=False)
    # Retry state of the reconciler (see workers.reconcile.retry); the database, not the queue, keeps it.
    failure_count = models.PositiveIntegerField(default=0, editable=False)
    next_attempt_at = models.DateTimeField(null=True, blank=True, editable=False)

    class Meta:
        abstract = True

    @classmethod
    def from_db(cls, db: str | None, field_names: Any, values: Any) -> SpecResource:
        instance = super().from_db(db, field_names, values)
        instance._loaded_spec = instance.spec_snapshot()
        return instance

    def spec_snapshot(self) -> dict[str, Any]:
        """The spec fields loaded on this instance. A deferred one (a row Django's delete collector loads with its key
        only, say) is left out: reading it would load the row again, whose loading would snapshot it again."""
        deferred = self.get_deferred_fields()
        return {name: getattr(self, name) for name in self.SPEC_FIELDS if name not in deferred}

    def spec_changed(self) -> bool:
        loaded = getattr(self, "_loaded_spec", None)
        if loaded is None:
            return False
        current = self.spec_snapshot()
        return any(current.get(name, value) != value for name, value in loaded.items())

    def save(self, *args: Any, **kwargs: Any) -> None:
        """A spec change bumps the generation and is a fresh start: it resets the ``FRESH_START`` fields."""
        if self.spec_changed():
            self.generation += 1
            for name, value in self.FRESH_START.items():
                setattr(self, name, value)
            update_fields = kwargs.get("update_fields")
            if update_fields is not None:
                kwargs["update_fields"] = {*update_fields, "generation", *self.FRESH_START}
        super().save(*args, **kwargs)
        self._loaded_spec = self.spec_snapshot()


class EventRecordQuerySet(models.QuerySet):
    def bulk_create(self, objs: Any, *args: Any, **kwargs: Any) -> list[Any]:
        with transaction.atomic(using=self.db, savepoint=False):
            created = super().bulk_create(objs, *args, **kwargs)
            if created:
                events_recorded.send(sender=self.model, events=created)
        return created


class EventRecord(models.Model):
    """One entry of an object's event history (Kubernetes Event style). Recording one sends ``events_recorded``."""

    timestamp = models.DateTimeField(auto_now_add=True, db_index=True)
    type = models.CharField(max_length=16, choices=EventType.choices, default=EventType.NORMAL)
    reason = models.CharField(max_length=64)
    message = models.TextField(max_length=2048)

    objects = EventRecordQuerySet.as_manager()

    class Meta:
        abstract = True
        ordering = ("-timestamp", "-id")

    def save(self, *args: Any, **kwargs: Any) -> None:
        adding = self._state.adding
        with transaction.atomic(savepoint=False):
            super().save(*args, **kwargs)
            if adding:
                events_recorded.send(sender=type(self), events=[self])


class ManagedCluster(models.Model):
    """A Kubernetes cluster the control plane manages; only platform admins see these."""

    id = models.UUIDField(primary_key=True, default=uuid.uuid4, editable=False)
    name = models.CharField(max_length=63, unique=True, validators=[validate_dns1123_label])
    flavour = models.CharField(max_length=16, choices=Flavour.choices, default=Flavour.KUBERNETES)
    kubeconfig = EncryptedTextField(validators=[validate_kubeconfig])
    base_domain = models.CharField(max_length=253, validators=[validate_dns1123_subdomain])
    allowed_route_domains = models.JSONField(
        default=list,
        blank=True,
        validators=[validate_domain_list],
        help_text="Domains, besides the base domain, under which gateway route hosts may be placed.",
    )
    gateway_api = models.BooleanField(default=True, help_text="Whether the cluster serves the Gateway API.")
    network_policy = models.BooleanField(
        default=False,
        help_text="Whether gateways here get the chart's sandbox NetworkPolicy (SSH to sandbox pods only from the "
        "gateway). Off by default, as in HyperShell; turning it off removes the policy from running gateways.",
    )
    trusted_ca_pem = models.TextField(blank=True, max_length=256 * 1024, validators=[validate_pem_bundle])
    image_policy = models.JSONField(
        null=True,
        blank=True,
        validators=[validate_image_policy],
        help_text="Whether tenants may override gateway images here, from which repositories, and whether a digest "
        "is required; null follows the platform setting (GATEWAY_IMAGE_OVERRIDES).",
    )
    require_signed_releases = models.BooleanField(
        default=False,
        help_text="Gateways here run only releases with a signature_policy (verified before use).",
    )
    maintenance_windows = models.JSONField(
        default=dict,
        blank=True,
        validators=[validate_maintenance_windows],
        help_text="When upgrades and rollout waves may start here: allowed windows and freezes (see "
        "controlplane.maintenance_windows); empty: at any time.",
    )
    # A platform admin's override of the windows and freezes, until when and why (POST .../override-window/).
    window_override_until = models.DateTimeField(null=True, blank=True, editable=False)
    window_override_reason = models.CharField(max_length=1024, blank=True, editable=False)
    rollouts_require_approval = models.BooleanField(
        default=False,
        help_text="Every rollout wave with gateways on this cluster waits for a platform admin's approval of its plan.",
    )

    reachable = models.BooleanField(null=True, editable=False)
    kubernetes_version = models.CharField(max_length=64, blank=True, editable=False)
    last_probe_at = models.DateTimeField(null=True, blank=True, editable=False)
    probe_message = models.CharField(max_length=1024, blank=True, editable=False)
    # Which optional APIs the last probe found served (see controlplane.capabilities); {}: not probed yet.
    capabilities = models.JSONField(default=dict, blank=True, editable=False)
    # Which cluster-watcher replica watches this cluster, until when (see workers.watcher).
    watcher_owner = models.CharField(max_length=64, blank=True, editable=False)
    watcher_expires_at = models.DateTimeField(null=True, blank=True, editable=False)

    created_at = models.DateTimeField(auto_now_add=True)
    updated_at = models.DateTimeField(auto_now=True)

    class Meta:
        ordering = ("name",)

    def __str__(self) -> str:
        return self.name

    def __repr__(self) -> str:
        return f"<ManagedCluster {self.name} ({self.flavour})>"

    @property
    def route_domains(self) -> tuple[str, ...]:
        """Where route hosts may live: the base domain first, then the allowed domains."""
        return (self.base_domain, *self.allowed_route_domains)

    def effective_image_policy(self) -> ImagePolicy:
        """The cluster's own image policy, else the platform's (GATEWAY_IMAGE_*)."""
        if self.image_policy is None:
            return settings.GATEWAY_IMAGE_POLICY
        return parse_policy(self.image_policy, f"cluster {self.name}'s image_policy")

    def maintenance_schedule(self) -> Schedule:
        return parse_schedule(self.maintenance_windows)

    @property
    def maintenance_status(self) -> dict[str, Any]:
        """The window now, for the API and the console."""
        window = self.window_verdict(timezone.now())
        return {
            "open": window.open,
            "next_start": window.next_start,
            "message": window.message,
            "override_until": window.overridden_until,
            "override_reason": self.window_override_reason if window.overridden_until else "",
        }

    def window_verdict(self, now: datetime) -> Verdict:
        """May an upgrade or a rollout wave start here at ``now`` (windows, freezes and a platform admin's
        override)?"""
        return verdict(self.maintenance_schedule(), now, self.window_override_until)


class FleetSample(models.Model):
    """How many of a cluster's gateways were in each phase at one moment (the console's plots).

    One row per cluster per sampling slot: ``at`` is the start of the slot (a multiple of
    ``FLEET_SAMPLE_INTERVAL_SECONDS``), so a second sample in the same slot is a conflict, not a row.
    ``counts`` maps phase to count and leaves out zeros.
    """

    at = models.DateTimeField()
    cluster = models.ForeignKey("ManagedCluster", on_delete=models.CASCADE, related_name="+")
    counts = models.JSONField(default=dict)

    class Meta:
        constraints = [models.UniqueConstraint(fields=("cluster", "at"), name="one_fleet_sample_per_slot")]
        indexes = [models.Index(fields=("at",), name="fleet_sample_at")]

    def __str__(self) -> str:
        return f"{self.cluster_id} at {self.at.isoformat()}"


class ClusterEvent(EventRecord):
    """A cluster's reachability changes (see ``workers.breaker``)."""

    cluster = models.ForeignKey(ManagedCluster, on_delete=models.CASCADE, related_name="events")

    class Meta(EventRecord.Meta):
        pass


class AuditEntry(models.Model):
    """Who changed what, and when. Secret values are never recorded, only that they changed."""

    timestamp = models.DateTimeField(auto_now_add=True, db_index=True)
    actor = models.ForeignKey(settings.AUTH_USER_MODEL, null=True, on_delete=models.SET_NULL, related_name="+")
    actor_name = models.CharField(max_length=150)
    source = models.CharField(max_length=16, default="api")
    action = models.CharField(max_length=32)
    resource_type = models.CharField(max_length=32)
    resource_id = models.CharField(max_length=64, db_index=True)
    resource_name = models.CharField(max_length=253)
    changes = models.JSONField(default=dict, blank=True)

    class Meta:
        ordering = ("-timestamp", "-id")
        verbose_name_plural = "audit entries"

    def __str__(self) -> str:
        return f"{self.actor_name} {self.action} {self.resource_type}/{self.resource_name}"


class WatcherReplica(models.Model):
    """A running cluster-watcher replica, seen until ``expires_at``; replicas split the clusters between them."""

    identity = models.CharField(max_length=64, primary_key=True)
    expires_at = models.DateTimeField()

    def __str__(self) -> str:
        return self.identity
