"""Approvals of a rollout wave's plan (pure: no Django, no I/O).

A wave that needs approval is planned first: every gateway of the wave still to start is planned as
``/gateways/{id}/plan/`` plans it, on the target release. The wave's ``plan_hash`` is a sha256 over a
canonical JSON of each gateway's action, values diff and object diff, ordered by gateway id, so it
does not depend on the order the plans were made in. An approval names that hash.

Redaction markers are keyed per plan (``workers.reconcile.gateway.plan.redact``), and a chart may
generate a Secret's data at render time, so the hash counts a redacted value as ``[REDACTED]``: it
binds what a reviewer can read. A change to a secret in a spec still voids an approval, through the
inputs below.

What fed the plan, its ``inputs``, is kept beside it: a digest of each target's spec, the target
release, the set of targets and each cluster's API versions. Any change to one voids the approval,
and ``changes`` names what changed.
"""

from __future__ import annotations

import hashlib
import json
import re
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from enum import StrEnum
from typing import Any

__all__ = [
    "ApprovalState",
    "Gate",
    "Inputs",
    "Refusal",
    "changes",
    "digest",
    "entry",
    "plan_changes",
    "plan_hash",
    "refusal",
]

REDACTED = re.compile(r"\[REDACTED:[0-9a-f]+\]")
REDACTED_MARK = "[REDACTED]"
NAMES_SHOWN = 5


class ApprovalState(StrEnum):
    AWAITING = "awaiting"
    APPROVED = "approved"
    REJECTED = "rejected"
    VOID = "void"  # what fed the plan changed before the wave applied


class Gate(StrEnum):
    """Whether the current wave may start gateways, as the state machine is told."""

    OPEN = "open"  # the wave needs no approval, or its approved plan still holds
    AWAITING = "awaiting"  # the wave waits for its plan to be made, or approved


class Refusal(StrEnum):
    """Why an approval is refused."""

    NOT_AWAITING = "not_awaiting"  # no plan waits for approval (409)
    SELF_APPROVAL = "self_approval"  # four eyes: the creator may not approve (403)
    STALE_HASH = "stale_hash"  # the hash is not the current plan's (409)


def digest(value: Any) -> str:
    """sha256 of the canonical JSON of ``value``: keys sorted, no whitespace."""
    text = json.dumps(value, sort_keys=True, separators=(",", ":"), ensure_ascii=False, default=str)
    return hashlib.sha256(text.encode()).hexdigest()


def _unmarked(value: Any) -> Any:
    if isinstance(value, Mapping):
        return {key: _unmarked(item) for key, item in value.items()}
    if isinstance(value, list):
        return [_unmarked(item) for item in value]
    if isinstance(value, str):
        return REDACTED.sub(REDACTED_MARK, value)
    return value


def entry(gateway_id: str, plan: Mapping[str, Any]) -> dict[str, Any]:
    """What of one gateway's plan the hash covers: the action, the values diff and the object diff."""
    return _unmarked(
        {
            "gateway": gateway_id,
            "action": plan.get("action"),
            "values_diff": plan.get("values_diff") or [],
            "objects": plan.get("objects") or [],
        }
    )


def plan_hash(plans: Mapping[str, Mapping[str, Any]]) -> str:
    """The wave's hash over the plans by gateway id; the same plans in any order give the same hash."""
    return digest([entry(gateway_id, plans[gateway_id]) for gateway_id in sorted(plans)])


@dataclass(frozen=True)
class Inputs:
    """What fed a wave's plan: ``specs`` maps each target's gateway id to its spec digest, ``names`` to its name,
    ``clusters`` to its cluster; ``api_versions`` maps each cluster to the digest of what it serves."""

    release: str
    specs: Mapping[str, str]
    names: Mapping[str, str]
    clusters: Mapping[str, str]
    api_versions: Mapping[str, str]

    def as_dict(self) -> dict[str, Any]:
        return {
            "release": self.release,
            "specs": dict(self.specs),
            "names": dict(self.names),
            "clusters": dict(self.clusters),
            "api_versions": dict(self.api_versions),
        }

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> Inputs:
        return cls(
            release=data.get("release", ""),
            specs=data.get("specs", {}),
            names=data.get("names", {}),
            clusters=data.get("clusters", {}),
            api_versions=data.get("api_versions", {}),
        )

    def without(self, gateway_ids: Iterable[str]) -> Inputs:
        """These inputs less the given targets (those that started since the plan was made)."""
        gone = set(gateway_ids)
        keep = {g for g in self.specs if g not in gone}
        clusters = {g: c for g, c in self.clusters.items() if g in keep}
        return Inputs(
            release=self.release,
            specs={g: s for g, s in self.specs.items() if g in keep},
            names={g: n for g, n in self.names.items() if g in keep},
            clusters=clusters,
            api_versions={c: v for c, v in self.api_versions.items() if c in set(clusters.values())},
        )


def _listed(names: Iterable[str]) -> str:
    shown = sorted(names)
    extra = f" and {len(shown) - NAMES_SHOWN} more" if len(shown) > NAMES_SHOWN else ""
    return ", ".join(shown[:NAMES_SHOWN]) + extra


def changes(planned: Inputs, current: Inputs) -> list[str]:
    """What changed between the inputs a plan was made from and the current ones, in words; [] when nothing did."""
    found = []
    if planned.release != current.release:
        found.append("the target release")
    removed = [planned.names[g] for g in planned.specs if g not in current.specs]
    added = [current.names[g] for g in current.specs if g not in planned.specs]
    if removed or added:
        parts = ([f"{_listed(removed)} left"] if removed else []) + ([f"{_listed(added)} joined"] if added else [])
        found.append(f"the targets ({'; '.join(parts)})")
    respecced = [
        current.names[g] for g, spec in current.specs.items() if g in planned.specs and planned.specs[g] != spec
    ]
    if respecced:
        found.append(f"the spec of {_listed(respecced)}")
    clusters = [
        c for c, v in current.api_versions.items() if c in planned.api_versions and planned.api_versions[c] != v
    ]
    if clusters:
        found.append(f"the API versions of cluster {_listed(clusters)}")
    return found


def plan_changes(
    planned: Mapping[str, Mapping[str, Any]], current: Mapping[str, Mapping[str, Any]], names: Mapping[str, str]
) -> list[str]:
    """The gateways whose part of the hash differs between two plans of the same targets, in words."""
    differ = [
        names.get(g, g)
        for g in sorted(set(planned) | set(current))
        if g not in planned or g not in current or entry(g, planned[g]) != entry(g, current[g])
    ]
    return [f"the plan of {_listed(differ)}"] if differ else []


def refusal(
    *, awaiting_hash: str | None, given_hash: str, approver_id: Any, creator_id: Any, allow_self: bool
) -> Refusal | None:
    """Why ``approver_id`` may not approve the plan that waits (with ``awaiting_hash``) by ``given_hash``; None: it may.

    Four eyes come first: a creator may not approve at all (unless ``allow_self``), whatever hash they name."""
    if awaiting_hash is None:
        return Refusal.NOT_AWAITING
    if not allow_self and creator_id is not None and approver_id == creator_id:
        return Refusal.SELF_APPROVAL
    if given_hash != awaiting_hash:
        return Refusal.STALE_HASH
    return None
