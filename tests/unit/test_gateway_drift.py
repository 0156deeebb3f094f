"""Drift between a release's manifest and live objects: what is compared, and what is ignored."""

from __future__ import annotations

import copy
from typing import Any

import pytest
import yaml

from workers.reconcile.gateway.observation.drift import (
    DRIFT_KINDS,
    Drift,
    differences,
    drift_message,
    find_drift,
    remembered_drift,
)

LABELS = {"app.kubernetes.io/instance": "edge", "app.kubernetes.io/name": "openshell"}
SERVICE: dict[str, Any] = {
    "apiVersion": "v1",
    "kind": "Service",
    "metadata": {"name": "edge-openshell", "labels": LABELS},
    "spec": {
        "type": "ClusterIP",
        "selector": {"app": "gw"},
        "ports": [{"name": "grpc", "port": 8443, "targetPort": "grpc"}],
    },
}
STATEFULSET: dict[str, Any] = {
    "apiVersion": "apps/v1",
    "kind": "StatefulSet",
    "metadata": {"name": "edge-openshell", "labels": LABELS},
    "spec": {
        "replicas": 1,
        "template": {
            "spec": {
                "containers": [
                    {
                        "name": "gateway",
                        "image": "r/gw:1",
                        "args": ["--port", "8443"],
                        "volumeMounts": [{"name": "data", "mountPath": "/data", "readOnly": False}],
                    },
                ]
            }
        },
    },
}
SECRET = {"apiVersion": "v1", "kind": "Secret", "metadata": {"name": "kek", "labels": LABELS}, "data": {"k": "dg=="}}
CLUSTER_ROLE = {
    "apiVersion": "rbac.authorization.k8s.io/v1",
    "kind": "ClusterRole",
    "metadata": {"name": "edge-reader", "labels": LABELS},
    "rules": [],
}
MANIFEST = yaml.safe_dump_all([SERVICE, STATEFULSET, SECRET, CLUSTER_ROLE])


def served(obj: dict[str, Any]) -> dict[str, Any]:
    """The object as an API server returns it: metadata, defaults, status and server-added labels."""
    live = copy.deepcopy(obj)
    live["metadata"].update(
        namespace="ns",
        uid="u-1",
        resourceVersion="7",
        generation=3,
        creationTimestamp="2026-01-01T00:00:00Z",
        managedFields=[{"manager": "helm"}],
        annotations={"meta.helm.sh/release-name": "edge"},
    )
    live["metadata"]["labels"] = {**obj["metadata"]["labels"], "app.kubernetes.io/managed-by": "Helm"}
    live["status"] = {"observedGeneration": 3}
    if obj["kind"] == "Service":
        live["spec"].update(clusterIP="10.96.0.11", sessionAffinity="None")
        live["spec"]["ports"][0]["protocol"] = "TCP"
    if obj["kind"] == "StatefulSet":
        pod = live["spec"]["template"]["spec"]
        pod.update(dnsPolicy="ClusterFirst", restartPolicy="Always")
        pod["containers"][0]["terminationMessagePath"] = "/dev/termination-log"
        pod["containers"][0]["volumeMounts"][0].pop("readOnly")  # omitempty: the server drops false
        pod["containers"].append({"name": "injected-sidecar", "image": "mesh:1"})
    return live


def live_objects(*objs: dict[str, Any]) -> dict[tuple[str, str], dict[str, Any]]:
    return {(o["kind"], o["metadata"]["name"]): o for o in objs}


def drift(live: dict[tuple[str, str], dict[str, Any]], kinds: frozenset[str] = frozenset(DRIFT_KINDS)) -> list[Drift]:
    return find_drift(MANIFEST, live, namespace="ns", release="edge", kinds=kinds)


def test_server_filled_fields_labels_defaults_and_sidecars_are_no_drift() -> None:
    assert drift(live_objects(served(SERVICE), served(STATEFULSET))) == []


def test_a_missing_object_is_named() -> None:
    assert drift(live_objects(served(STATEFULSET))) == [Drift("Service", "edge-openshell")]


def test_kinds_not_listed_and_uncovered_or_cluster_scoped_objects_are_skipped() -> None:
    # Secret and ClusterRole are absent from `live` yet never reported; nor is an unlisted kind.
    assert drift(live_objects(served(STATEFULSET)), kinds=frozenset({"StatefulSet"})) == []


@pytest.mark.parametrize(
    ("edit", "path"),
    [
        (
            lambda s: s["spec"]["template"]["spec"]["containers"][0].update(image="evil:1"),
            "spec.template.spec.containers[gateway].image",
        ),
        (
            lambda s: s["spec"]["template"]["spec"]["containers"][0]["args"].append("--debug"),
            "spec.template.spec.containers[gateway].args",
        ),
        (lambda s: s["spec"]["template"]["spec"]["containers"].pop(0), "spec.template.spec.containers[gateway]"),
        (lambda s: s["spec"].update(replicas=3), "spec.replicas"),
        (lambda s: s["metadata"]["labels"].pop("app.kubernetes.io/name"), "metadata.labels.app.kubernetes.io/name"),
        (lambda s: s["spec"].pop("template"), "spec.template"),
    ],
)
def test_a_changed_field_the_chart_sets_is_drift(edit, path) -> None:
    live = served(STATEFULSET)
    edit(live)
    (found,) = drift(live_objects(served(SERVICE), live))
    assert (found.kind, found.name) == ("StatefulSet", "edge-openshell")
    assert path in found.differences


def test_int_or_string_and_empty_values_compare_equal() -> None:
    assert differences({"port": 8443, "x": "", "y": {}, "z": None}, {"port": "8443"}) == []
    assert differences({"port": 8443}, {"port": 8444}) == ["port"]


def test_unnamed_lists_compare_by_position_and_length() -> None:
    assert differences({"rules": [{"a": 1}]}, {"rules": [{"a": 1, "b": 2}]}) == []
    assert differences({"rules": [{"a": 1}]}, {"rules": [{"a": 1}, {"a": 2}]}) == ["rules"]
    assert differences({"rules": [{"a": 1}]}, {"rules": [{"a": 2}]}) == ["rules[0].a"]


def test_the_message_names_kind_name_and_what_differs() -> None:
    message = drift_message([Drift("Service", "a"), Drift("StatefulSet", "b", ("spec.replicas",))])
    assert message == "Service a is missing; StatefulSet b differs at spec.replicas"


def test_a_long_message_is_cut_below_the_condition_limit() -> None:
    message = drift_message([Drift("ConfigMap", f"cm-{i:03}") for i in range(100)])
    assert len(message) == 1000 and message.endswith("…")


def remembered(live: dict[tuple[str, str], dict[str, Any]]) -> list[Drift]:
    return remembered_drift(MANIFEST, live, namespace="ns", release="edge", kinds=frozenset(DRIFT_KINDS))


def test_remembered_drift_follows_every_new_resource_version() -> None:
    service, statefulset = served(SERVICE), served(STATEFULSET)
    assert remembered(live_objects(service, statefulset)) == []
    edited = copy.deepcopy(statefulset)
    edited["spec"]["replicas"] = 3
    # The same version with other content cannot exist on a server: the remembered verdict stands.
    assert remembered(live_objects(service, edited)) == []
    edited["metadata"]["resourceVersion"] = "8"
    assert remembered(live_objects(service, edited)) == drift(live_objects(service, edited)) != []
    assert remembered(live_objects(service)) == [Drift("StatefulSet", "edge-openshell")]


def test_objects_without_a_resource_version_are_compared_every_time() -> None:
    service, statefulset = served(SERVICE), served(STATEFULSET)
    del statefulset["metadata"]["resourceVersion"]
    assert remembered(live_objects(service, statefulset)) == []
    statefulset["spec"]["replicas"] = 3
    assert remembered(live_objects(service, statefulset)) != []
