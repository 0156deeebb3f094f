"""What the fleet resync reads of a cluster, reading again only what changed since this process last read it.

Kubernetes names every version of an object by its resourceVersion. Helm's release records, and the chart's
objects whose status the judge does not read (Services, ConfigMaps, RBAC, …), are listed by metadata alone:
- a Helm record this process has decoded before is not fetched again;
- a release whose objects all carry the versions it was judged at keeps its remembered drift verdict, so its
  objects are never fetched whole.
The rest is fetched whole: one by one when it is a few, by one full list when it is many (the first resync after
a worker starts). An unchanged fleet therefore costs a few metadata lists and the workloads' list.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any, NamedTuple

from workers.drivers.helm_storage import (
    HELM_OWNER_SELECTOR,
    StoredRelease,
    decode_release_secret,
    latest_releases,
    newest_records,
    remembered_release,
)
from workers.drivers.kube import KubeClient
from workers.reconcile.gateway.observation.drift import Drift, remembered_verdict

__all__ = ["FETCH_ONE_BY_ONE", "Judged", "cluster_releases", "judged_objects"]

# Up to this many unread objects (or 5 % of what was listed) are fetched one by one; more take full lists.
FETCH_ONE_BY_ONE = 25
Instance = tuple[str, str]  # (namespace, release)
Objects = dict[tuple[str, str], dict[str, Any]]  # (kind, name) -> object


class Judged(NamedTuple):
    """What ``judged_objects`` read: each release's objects, the verdicts that stand, how many it judges anew."""

    objects: dict[Instance, Objects]
    verdicts: dict[Instance, tuple[Drift, ...]]
    rejudged: int  # releases with no verdict at the versions listed (changed, or new to this process)


def _few(unread: int, listed: int) -> bool:
    return unread <= max(FETCH_ONE_BY_ONE, listed // 20)


def cluster_releases(kube: KubeClient) -> dict[Instance, StoredRelease]:
    """The latest revision of every release on a cluster; records decoded before are not read again."""
    heads = newest_records(kube.list_metadata("v1", "secrets", None, HELM_OWNER_SELECTOR))
    known = {key: remembered_release(head) for key, head in heads.items()}
    if not _few(sum(release is None for release in known.values()), len(heads)):
        return latest_releases(kube.list_objects("v1", "secrets", None, HELM_OWNER_SELECTOR))
    releases: dict[Instance, StoredRelease] = {}
    for key, head in heads.items():
        if (release := known[key]) is not None:
            releases[key] = release
        elif secret := kube.get_object("v1", "secrets", head["metadata"]["namespace"], head["metadata"]["name"]):
            releases[key] = decode_release_secret(secret)  # (a record deleted since the list: the release is gone)
    return releases


def judged_objects(
    releases: Mapping[Instance, StoredRelease],
    grouped: Mapping[Instance, Objects],
    kinds: frozenset[str],
    light: frozenset[str],
    *,
    fetch: Callable[[dict[str, Any]], dict[str, Any] | None],
    relist: Callable[[], Mapping[Instance, Objects]],
) -> Judged:
    """Each release's objects, whole wherever its drift must be judged again, and the verdicts that stand.

    ``grouped`` holds the objects of the ``light`` kinds as metadata alone, the others whole; ``fetch`` reads one
    listed object whole, ``relist`` every object of the light kinds whole, grouped the same way."""
    verdicts: dict[Instance, tuple[Drift, ...]] = {}
    stale: list[Instance] = []
    for key, objects in grouped.items():
        release = releases.get(key)
        if release is None or not any(kind in light for kind, _ in objects):
            continue
        verdict = remembered_verdict(release.manifest, objects, namespace=key[0], release=key[1], kinds=kinds)
        if verdict is None:
            stale.append(key)
        else:
            verdicts[key] = verdict
    result = {key: dict(objects) for key, objects in grouped.items()}
    unread = sum(1 for key in stale for kind, _ in grouped[key] if kind in light)
    if not _few(unread, sum(len(objects) for objects in grouped.values())):
        whole = relist()
        for key in stale:
            kept = {ident: obj for ident, obj in result[key].items() if ident[0] not in light}
            result[key] = kept | {ident: obj for ident, obj in whole.get(key, {}).items() if ident[0] in light}
        return Judged(result, verdicts, len(stale))
    for key in stale:
        for ident, head in list(result[key].items()):
            if ident[0] in light:
                obj = fetch(head)
                if obj is None:
                    del result[key][ident]  # deleted since the list: drift names it missing
                else:
                    result[key][ident] = obj
    return Judged(result, verdicts, len(stale))
