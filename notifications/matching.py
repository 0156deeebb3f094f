"""Which subscriptions an event reaches, and how severe it is (pure: plain data in, plain data out)."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field

from catalogs.states import Reason as CatalogReason
from cluster_vocabulary.kubernetes import EventType
from gateways.states import Phase as GatewayPhase
from gateways.states import Reason as GatewayReason
from gateways.states import ReleaseReason
from notifications.choices import EventKind, Severity
from rollouts.states import Reason as RolloutReason

__all__ = ["ATTENTION_REASONS", "CRITICAL_REASONS", "EventFacts", "Filter", "matches", "severity_of"]

SEVERITY_ORDER = {Severity.INFO: 0, Severity.WARNING: 1, Severity.CRITICAL: 2}

# Warning events that mean "a person has to act": the object stopped trying on its own.
CRITICAL_REASONS: dict[EventKind, frozenset[str]] = {
    EventKind.CATALOG: frozenset({CatalogReason.BLOCKED, CatalogReason.SIGNATURE_INVALID}),
    EventKind.ROLLOUT: frozenset({RolloutReason.GATE_FAILED, RolloutReason.RELEASE_INVALID}),
    EventKind.GATEWAY: frozenset({GatewayReason.DELETE_FAILED}),
    EventKind.RELEASE: frozenset({ReleaseReason.VERIFICATION_FAILED}),
}
# Normal events that still ask a person to act: a rollout wave waiting for approval of its plan.
ATTENTION_REASONS: dict[EventKind, frozenset[str]] = {
    EventKind.ROLLOUT: frozenset({RolloutReason.AWAITING_APPROVAL}),
}
# A gateway's Warning event is critical when the gateway is Failed once the event is recorded.
CRITICAL_GATEWAY_PHASES = frozenset({GatewayPhase.FAILED})


@dataclass(frozen=True)
class EventFacts:
    """One recorded event, with what the filters look at."""

    kind: EventKind
    event_id: int
    object_id: str
    name: str
    type: str  # Normal or Warning
    reason: str
    message: str
    timestamp: str  # ISO 8601
    phase: str = ""  # the object's phase (or Progressing reason, for a catalog) when matched
    cluster: str = ""  # gateways only; a rollout event naming a gateway carries that gateway's cluster
    owner_id: int | None = None  # gateways only: the tenant who owns it
    gateway_id: str = ""  # gateways only (and rollout events naming one)
    labels: Mapping[str, str] = field(default_factory=dict)


@dataclass(frozen=True)
class Filter:
    """A subscription's filters; an empty list (or map) does not filter."""

    kinds: frozenset[str] = frozenset()
    reasons: frozenset[str] = frozenset()
    min_severity: Severity = Severity.INFO
    clusters: frozenset[str] = frozenset()
    labels: Mapping[str, str] = field(default_factory=dict)
    gateway_ids: frozenset[str] = frozenset()
    owner_id: int | None = None  # set for a tenant: only that tenant's gateways' events
    tenant: bool = False


def severity_of(facts: EventFacts) -> Severity:
    """Normal events are info, or warning when they ask a person to act; Warning events are warning, or critical when
    the object gave up (see above)."""
    if facts.type != EventType.WARNING:
        return Severity.WARNING if facts.reason in ATTENTION_REASONS.get(facts.kind, frozenset()) else Severity.INFO
    if facts.reason in CRITICAL_REASONS.get(facts.kind, frozenset()):
        return Severity.CRITICAL
    if facts.kind is EventKind.GATEWAY and facts.phase in CRITICAL_GATEWAY_PHASES:
        return Severity.CRITICAL
    return Severity.WARNING


def matches(rule: Filter, facts: EventFacts) -> bool:
    """Whether an event passes every filter of a subscription."""
    if rule.tenant and (facts.kind is not EventKind.GATEWAY or facts.owner_id != rule.owner_id):
        return False
    if rule.kinds and facts.kind not in rule.kinds:
        return False
    if rule.reasons and facts.reason not in rule.reasons:
        return False
    if SEVERITY_ORDER[severity_of(facts)] < SEVERITY_ORDER[rule.min_severity]:
        return False
    if rule.clusters and facts.cluster not in rule.clusters:
        return False
    if rule.gateway_ids and facts.gateway_id not in rule.gateway_ids:
        return False
    return all(facts.labels.get(key) == value for key, value in rule.labels.items())
