"""How existing gateways' images become their releases' (pure; used by migration 0011).

Before releases carried images, every gateway named its own. The plan keeps every gateway on exactly the images
it runs, so its chart values, and so its Helm release, do not change:

- A release without images takes the pair most of its gateways run (ties: the earliest gateway's); those
  gateways stop overriding.
- Its gateways with another pair move to a release made for that pair: the same chart, version and values,
  named ``<release>-<hash of the pair>`` (grouped by chart release and image pair).
- A gateway keeps its images as a per-gateway override when its release's images could change what a rollback
  does (it is in an active rollout), when its pair has mixed provenance, or when it has no release yet.
"""

from __future__ import annotations

import hashlib
from collections import Counter
from collections.abc import Iterable
from dataclasses import dataclass, field

from controlplane.image_policy import provenance_problem

__all__ = ["GatewayImages", "ImagePlan", "clone_name", "plan_images"]

Pair = tuple[str, str]
NAME_MAX = 63
HASH_LENGTH = 8


@dataclass(frozen=True)
class GatewayImages:
    """One gateway as the plan sees it (rows in creation order)."""

    id: object
    release_id: object | None
    image: str
    supervisor_image: str
    in_active_rollout: bool = False

    @property
    def pair(self) -> Pair:
        return (self.image, self.supervisor_image)


@dataclass
class ImagePlan:
    release_images: dict[object, Pair] = field(default_factory=dict)  # release id -> the images it takes
    clones: dict[tuple[object, Pair], str] = field(default_factory=dict)  # (source release id, pair) -> new name
    moves: dict[object, tuple[object, Pair]] = field(default_factory=dict)  # gateway id -> clone key
    cleared: set[object] = field(default_factory=set)  # gateways that stop overriding (with the moved ones)


def clone_name(release_name: str, pair: Pair) -> str:
    """``<release>-<8 hex of the pair>``, at most 63 characters, a DNS label."""
    digest = hashlib.sha256("\n".join(pair).encode()).hexdigest()[:HASH_LENGTH]
    return f"{release_name[: NAME_MAX - HASH_LENGTH - 1].rstrip('-')}-{digest}"


def _eligible(gateway: GatewayImages) -> bool:
    return bool(gateway.image and gateway.supervisor_image) and provenance_problem(*gateway.pair) is None


def plan_images(gateways: Iterable[GatewayImages], releases: dict[object, tuple[str, Pair | None]]) -> ImagePlan:
    """The plan for ``gateways`` over ``releases`` (id -> (name, its images or None)); nothing is changed."""
    plan = ImagePlan()
    by_release: dict[object, list[GatewayImages]] = {}
    for gateway in gateways:
        if gateway.release_id is not None and _eligible(gateway):
            by_release.setdefault(gateway.release_id, []).append(gateway)
    for release_id, members in by_release.items():
        name, images = releases[release_id]
        if images is None:
            counts = Counter(g.pair for g in members)
            first_seen = {pair: i for i, pair in reversed(list(enumerate(g.pair for g in members)))}
            images = max(counts, key=lambda pair: (counts[pair], -first_seen[pair]))
            plan.release_images[release_id] = images
        for gateway in members:
            if gateway.in_active_rollout:
                continue
            if gateway.pair == images:
                plan.cleared.add(gateway.id)
            else:
                key = (release_id, gateway.pair)
                plan.clones.setdefault(key, clone_name(name, gateway.pair))
                plan.moves[gateway.id] = key
                plan.cleared.add(gateway.id)
    return plan
