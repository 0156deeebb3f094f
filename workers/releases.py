"""Chart releases in the worker: the bootstrap default, each gateway's release, and its chart, loaded once.

- The default release comes from GATEWAY_CHART / GATEWAY_CHART_VERSION when there is none yet
  (the settings are only the bootstrap default; platform admins manage releases through the API).
- A gateway without a release (created before any default existed) is given the default.
- The first worker to load a release validates it and records the verdict on the row: Ready, or
  Invalid with a message (the chart cannot be loaded, or its values overrides set keys the chart does
  not have or of the wrong type, alone or merged with everything the mapping can set).
- A remote chart that cannot be pulled (a registry outage) is no verdict: the release stays Pending with
  reason ChartUnavailable, its gateways stall without running helm, and the pull is retried with backoff.
"""

from __future__ import annotations

import hashlib
import logging
from datetime import datetime
from typing import Any

from django.conf import settings
from django.db import IntegrityError, transaction
from django.utils import timezone

from cluster_vocabulary.kubernetes import ConditionStatus
from controlplane.conditions import Condition, set_condition
from controlplane.signing_keys import keys_fingerprint
from controlplane.values_tree import deep_merge
from gateways.chart_keys import type_mismatches, unknown_keys
from gateways.choices import ReleaseReason, ReleaseStatus
from gateways.models import Gateway, GatewayRelease
from gateways.release_trust import unsigned_release_problem
from gateways.states import Reason, ReleaseConditionType, VerifiedArtefact
from gateways.values import gateway_values, routing_problems
from workers import release_events, singletons
from workers.charts import Chart, ReleaseInputs
from workers.drivers.errors import DriverError
from workers.release_verification import (
    RegistryUnavailable,
    VerificationFailed,
    chart_pinned,
    needs_reverification,
    needs_verification,
    reverify_release,
    verify_release,
)
from workers.routing import routing_config
from workers.startup import MAXIMAL_SPEC, cluster_shapes

__all__ = ["UNAVAILABLE", "default_release", "load", "release_of", "validate"]

log = logging.getLogger(__name__)

VERIFIED_KINDS = (VerifiedArtefact.CHART, VerifiedArtefact.IMAGE, VerifiedArtefact.SUPERVISOR_IMAGE)

# The chart of an Invalid or unavailable release: never used, since such a pass stalls before any helm call.
UNAVAILABLE = Chart(ref="", version=None, chart_version="", defaults={})


def default_release() -> GatewayRelease:
    """The default release, created from the settings when there is none."""
    existing = GatewayRelease.current_default()
    if existing is not None:
        return existing
    ref, version = settings.GATEWAY_CHART, settings.GATEWAY_CHART_VERSION
    name = "bootstrap-" + hashlib.sha256(f"{ref} {version}".encode()).hexdigest()[:8]
    try:
        with transaction.atomic():
            release, _ = GatewayRelease.objects.get_or_create(name=name, defaults={"chart": ref, "version": version})
            GatewayRelease.objects.filter(pk=release.pk).update(default=True)
    except IntegrityError:  # another worker made a default meanwhile
        pass
    log.info("bootstrap release %s: %s %s", name, ref, version or "(unversioned)")
    return GatewayRelease.objects.get(default=True)


def release_of(gateway: Gateway) -> GatewayRelease:
    """The gateway's release; one without is given the default (no generation bump: it ran the default already)."""
    if gateway.release_id is not None:
        return gateway.release
    release = default_release()
    Gateway.objects.filter(pk=gateway.pk, release__isnull=True).update(release=release)
    gateway.release = release
    return release


def _problems(release: GatewayRelease, chart: Chart) -> list[str]:
    problems = [f"the chart has no values key {p!r}" for p in unknown_keys(release.values, chart.defaults)]
    problems += type_mismatches(release.values, chart.defaults)
    if problems:
        return problems
    routing = routing_config()
    for facts in cluster_shapes():
        if routing_problems(facts, routing):
            continue  # a worker configuration problem (reported at start-up), not the release's
        merged = deep_merge(release.values, gateway_values(MAXIMAL_SPEC, facts, routing))
        bad = unknown_keys(merged, chart.defaults)
        problems += [f"{facts.flavour}: the chart has no values key {p!r}" for p in bad]
    return sorted(set(problems))


def _unavailable(
    release: GatewayRelease, message: str, reason: str = ReleaseReason.CHART_UNAVAILABLE
) -> GatewayRelease:
    """Record on a Pending release that its chart, or the registry of its signatures, could not be reached (written
    only when the message changes)."""
    message = message[:2000]
    GatewayRelease.objects.filter(pk=release.pk, status=ReleaseStatus.PENDING).exclude(
        reason=reason, message=message
    ).update(reason=reason, message=message, updated_at=timezone.now())
    release.refresh_from_db()
    return release


def _verify(release: GatewayRelease) -> tuple[dict[str, str], GatewayRelease | None]:
    """The release's verified digests ({} when it has no trust policy), or the release as the check left it: Pending
    (RegistryUnavailable) or Invalid (VerificationFailed, with an event on the release)."""
    if not needs_verification(release):
        return {}, None
    try:
        return verify_release(release, timezone.now()), None
    except RegistryUnavailable as exc:
        log.warning("release %s: cannot verify: %s; verified again later", release.name, exc)
        return {}, _unavailable(release, f"cannot verify: {exc}", ReleaseReason.REGISTRY_UNAVAILABLE)
    except VerificationFailed as exc:
        return {}, _record(
            release, ReleaseStatus.INVALID, f"verification failed: {exc}", "", reason=ReleaseReason.VERIFICATION_FAILED
        )


def _record(
    release: GatewayRelease,
    status: str,
    message: str,
    chart_version: str,
    *,
    reason: str = "",
    verified: dict[str, str] | None = None,
) -> GatewayRelease:
    """Write the verdict on a Pending release (once: a verdict written meanwhile by another worker stands)."""
    now = timezone.now()
    fields = {
        "status": status,
        "reason": reason,
        "message": message[:2000],
        "chart_version": chart_version,
        "verified_digests": verified or {},
        "validated_at": now,
        "updated_at": now,
    }
    if verified and release.signature_keys:
        fields["conditions"] = _verified_condition(
            release, now, ConditionStatus.TRUE, ReleaseReason.VERIFIED, _verified_message(verified)
        )
    written = GatewayRelease.objects.filter(pk=release.pk, status=ReleaseStatus.PENDING).update(**fields)
    release.refresh_from_db()
    if written and reason == ReleaseReason.VERIFICATION_FAILED:
        release_events.verification_failed(release, release.message)
    log.info("release %s validated: %s %s", release.name, release.status, release.message)
    return release


def _verified_message(verified: dict[str, str]) -> str:
    artefacts = ", ".join(f"{kind} {verified[kind]}" for kind in VERIFIED_KINDS if kind in verified)
    return f"Verified {artefacts} with key {verified.get(VerifiedArtefact.KEY, '')}"


def _verified_condition(
    release: GatewayRelease, now: datetime, status: str, reason: str, message: str
) -> list[Condition]:
    return set_condition(
        release.conditions or [],
        type_=ReleaseConditionType.VERIFIED,
        status=status,
        reason=reason,
        message=message[:1024],
        generation=0,
        now=now,
    )


def _reverify(release: GatewayRelease) -> GatewayRelease:
    """Check a Ready release's pinned artefacts with its changed keys: Verified True, or False (with an event, and
    no more runs from it), or Unknown while the registry cannot be asked (checked again later)."""
    now, fields = timezone.now(), dict[str, Any]()
    try:
        verified = reverify_release(release, now)
        fields["verified_digests"] = verified
        status, reason, message = ConditionStatus.TRUE, ReleaseReason.VERIFIED, _verified_message(verified)
    except RegistryUnavailable as exc:
        status, reason, message = ConditionStatus.UNKNOWN, ReleaseReason.REGISTRY_UNAVAILABLE, f"cannot verify: {exc}"
    except VerificationFailed as exc:  # recorded under the new keys: not checked again until they change
        fields["verified_digests"] = {
            **release.verified_digests,
            VerifiedArtefact.KEYS: keys_fingerprint(release.signature_keys),
        }
        status, reason = ConditionStatus.FALSE, ReleaseReason.VERIFICATION_FAILED
        message = f"verification failed: {exc}"
    fields["conditions"] = _verified_condition(release, now, status, reason, message)
    written = GatewayRelease.objects.filter(  # fenced: keys changed meanwhile are checked by the next call
        pk=release.pk, signature_keys=release.signature_keys, verified_digests=release.verified_digests
    ).update(**fields, updated_at=now)
    release.refresh_from_db()
    if written and status == ConditionStatus.FALSE:
        release_events.verification_failed(release, message)
    log.info("release %s verified again with its new keys: %s %s", release.name, reason, message)
    return release


def validate(release: GatewayRelease) -> GatewayRelease:
    """Verify a Pending release (with a trust policy), load its chart, and record Ready or Invalid (once; later
    calls return the verdict).

    A chart that cannot be pulled leaves the release Pending, with reason ChartUnavailable; a registry that cannot
    be asked for signatures, with reason RegistryUnavailable.
    """
    if release.status == ReleaseStatus.READY and needs_reverification(release):
        return _reverify(release)
    if release.status != ReleaseStatus.PENDING:
        return release
    verified, stopped = _verify(release)
    if stopped is not None:
        return stopped
    chart_version, problems = "", []
    try:
        chart = singletons.chart(*chart_pinned(release, verified))
        chart_version, problems = chart.chart_version, _problems(release, chart)
    except singletons.ChartUnavailable as exc:
        log.warning("release %s: %s; retried from %s", release.name, exc.message, exc.retry_at)
        return _unavailable(release, exc.message)
    except DriverError as exc:
        problems = [f"cannot load the chart: {exc}"]
    if problems:
        return _record(release, ReleaseStatus.INVALID, "; ".join(problems), chart_version)
    return _record(release, ReleaseStatus.READY, "", chart_version, verified=verified)


def load(gateway: Gateway) -> tuple[Chart, ReleaseInputs]:
    """The chart and the release inputs of a gateway's pass."""
    release = validate(release_of(gateway))
    if release.status == ReleaseStatus.INVALID:
        problem = f"Release {release.name} is Invalid: {release.message}"
        return UNAVAILABLE, ReleaseInputs(str(release.pk), problem=problem)
    unsigned = unsigned_release_problem(gateway.cluster, release)
    if unsigned:
        return UNAVAILABLE, ReleaseInputs(str(release.pk), problem=unsigned)
    untrusted = release.trust_problem()
    if untrusted:
        retry_at = timezone.now() + singletons.pull_policy().delay(1)
        return UNAVAILABLE, ReleaseInputs(
            str(release.pk),
            unverified=untrusted,
            retry_at=retry_at,
            verified=(ConditionStatus.FALSE, Reason.RELEASE_UNVERIFIED, untrusted),
        )
    if release.reason == ReleaseReason.REGISTRY_UNAVAILABLE:  # Pending: nothing runs before it is verified
        unavailable = f"Release {release.name} is not verified yet: {release.message}"
        retry_at = timezone.now() + singletons.pull_policy().delay(1)  # the release task retries meanwhile
        return UNAVAILABLE, ReleaseInputs(str(release.pk), unavailable=unavailable, retry_at=retry_at)
    try:
        chart = singletons.chart(*chart_pinned(release))
    except singletons.ChartUnavailable as exc:  # Pending, or Ready elsewhere while this worker cannot pull it
        unavailable = f"The chart of release {release.name} is unavailable: {exc.message}"
        return UNAVAILABLE, ReleaseInputs(str(release.pk), unavailable=unavailable, retry_at=exc.retry_at)
    verified = (
        (ConditionStatus.TRUE, Reason.RELEASE_VERIFIED, f"Release {release.name} is verified")
        if (release.signature_keys)
        else None
    )
    return chart, ReleaseInputs(str(release.pk), overrides=dict(release.values), verified=verified)
