"""The fleet resync's reads: a release judged at the listed versions keeps its verdict; the rest is read whole."""

from __future__ import annotations

from typing import Any

import yaml

from cluster_vocabulary.helm import HelmStatus
from workers.drivers.helm_parse import HelmReleaseStatus
from workers.drivers.helm_storage import StoredRelease
from workers.reconcile.gateway.observation import cluster_reads
from workers.reconcile.gateway.observation.cluster_reads import Judged, judged_objects
from workers.reconcile.gateway.observation.drift import Drift, remembered_drift

KINDS = frozenset({"StatefulSet", "Service"})
LIGHT = frozenset({"Service"})
LABELS = {"app.kubernetes.io/instance": "edge"}


def service(namespace: str, version: str, port: int = 80) -> dict[str, Any]:
    return {
        "apiVersion": "v1",
        "kind": "Service",
        "metadata": {"name": "edge", "namespace": namespace, "labels": LABELS, "resourceVersion": version},
        "spec": {"ports": [{"name": "http", "port": port}]},
    }


def statefulset(namespace: str) -> dict[str, Any]:
    return {
        "apiVersion": "apps/v1",
        "kind": "StatefulSet",
        "metadata": {"name": "edge", "namespace": namespace, "labels": LABELS, "resourceVersion": "1"},
        "spec": {"replicas": 1},
        "status": {"readyReplicas": 1},
    }


def head(obj: dict[str, Any]) -> dict[str, Any]:
    return {"apiVersion": obj["apiVersion"], "kind": obj["kind"], "metadata": obj["metadata"]}


MANIFEST = yaml.safe_dump_all(
    [
        {
            "apiVersion": "v1",
            "kind": "Service",
            "metadata": {"name": "edge", "labels": LABELS},
            "spec": {"ports": [{"name": "http", "port": 80}]},
        },
        {
            "apiVersion": "apps/v1",
            "kind": "StatefulSet",
            "metadata": {"name": "edge", "labels": LABELS},
            "spec": {"replicas": 1},
        },
    ]
)
RELEASE = StoredRelease(
    HelmReleaseStatus("edge", "ns", 1, HelmStatus.DEPLOYED, "gw", "0.1.0", None, None), {}, MANIFEST
)


class Cluster:
    """Whole objects by (namespace, release), and a count of what was read whole."""

    def __init__(self, whole: dict[tuple[str, str], dict[tuple[str, str], dict[str, Any]]]) -> None:
        self.whole = whole
        self.fetched: list[tuple[str, str]] = []
        self.relisted = 0

    def listed(self) -> dict[tuple[str, str], dict[tuple[str, str], dict[str, Any]]]:
        return {
            key: {ident: head(obj) if ident[0] in LIGHT else obj for ident, obj in objects.items()}
            for key, objects in self.whole.items()
        }

    def fetch(self, listed: dict[str, Any]) -> dict[str, Any] | None:
        meta = listed["metadata"]
        self.fetched.append((meta["namespace"], meta["name"]))
        return self.whole.get((meta["namespace"], "edge"), {}).get((listed["kind"], meta["name"]))

    def relist(self) -> dict[tuple[str, str], dict[tuple[str, str], dict[str, Any]]]:
        self.relisted += 1
        return {key: {i: o for i, o in objects.items() if i[0] in LIGHT} for key, objects in self.whole.items()}

    def read(self, releases: dict[tuple[str, str], StoredRelease]) -> Judged:
        return judged_objects(releases, self.listed(), KINDS, LIGHT, fetch=self.fetch, relist=self.relist)


def fleet(count: int, prefix: str) -> Cluster:
    return Cluster(
        {
            (f"{prefix}{n}", "edge"): {
                ("Service", "edge"): service(f"{prefix}{n}", "5"),
                ("StatefulSet", "edge"): statefulset(f"{prefix}{n}"),
            }
            for n in range(count)
        }
    )


def releases_of(cluster: Cluster) -> dict[tuple[str, str], StoredRelease]:
    return dict.fromkeys(cluster.whole, RELEASE)


def test_an_unjudged_release_is_read_whole_then_keeps_its_verdict_while_its_versions_hold() -> None:
    cluster = fleet(1, "once-")
    objects, verdicts, rejudged = cluster.read(releases_of(cluster))
    assert verdicts == {} and rejudged == 1 and cluster.fetched == [("once-0", "edge")]
    key = ("once-0", "edge")
    assert objects[key][("Service", "edge")] == cluster.whole[key][("Service", "edge")], "whole, to be judged"
    assert remembered_drift(MANIFEST, objects[key], namespace=key[0], release="edge", kinds=KINDS) == []
    cluster.fetched.clear()
    objects, verdicts, rejudged = cluster.read(releases_of(cluster))
    assert verdicts == {key: ()} and rejudged == 0 and cluster.fetched == [], "judged: nothing read whole"
    cluster.whole[key][("Service", "edge")] = service("once-0", "6", port=81)
    objects, verdicts, rejudged = cluster.read(releases_of(cluster))
    assert (verdicts, rejudged, cluster.fetched) == ({}, 1, [("once-0", "edge")]), "a new version: judged again"
    assert remembered_drift(MANIFEST, objects[key], namespace=key[0], release="edge", kinds=KINDS) == [
        Drift("Service", "edge", ("spec.ports[http].port",))
    ]


def test_many_unjudged_releases_take_one_full_list_instead_of_single_reads() -> None:
    cluster = fleet(cluster_reads.FETCH_ONE_BY_ONE + 1, "many-")
    objects, verdicts, rejudged = cluster.read(releases_of(cluster))
    assert (cluster.relisted, cluster.fetched, verdicts, rejudged) == (1, [], {}, len(cluster.whole))
    assert all(objects[key] == cluster.whole[key] for key in cluster.whole)


def test_an_object_deleted_between_the_list_and_the_read_is_left_out() -> None:
    cluster = fleet(1, "gone-")
    listed = cluster.listed()
    key = ("gone-0", "edge")
    del cluster.whole[key][("Service", "edge")]
    objects, _, _ = judged_objects(
        releases_of(cluster), listed, KINDS, LIGHT, fetch=cluster.fetch, relist=cluster.relist
    )
    assert ("Service", "edge") not in objects[key] and ("StatefulSet", "edge") in objects[key]


def test_objects_without_a_release_are_passed_through_unread() -> None:
    cluster = fleet(1, "orphan-")
    objects, verdicts, rejudged = cluster.read({})
    assert (cluster.fetched, cluster.relisted, verdicts, rejudged) == ([], 0, {}, 0)
    assert objects == cluster.listed()
