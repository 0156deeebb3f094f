"""Pure parts of gateway plans: field and manifest diffs, redaction, prerequisite checks, the action decision."""

from __future__ import annotations

import base64
import json
from dataclasses import replace
from datetime import UTC, datetime, timedelta

import pytest

from controlplane.capabilities import needed_apis
from controlplane.values_tree import deep_merge
from gateways.choices import PlanAction
from workers.reconcile.gateway.observation.state import State
from workers.reconcile.gateway.plan.checks import (
    MISSING,
    PRESENT,
    WILL_CREATE,
    ClusterObjects,
    prerequisite_checks,
)
from workers.reconcile.gateway.plan.decide import decide
from workers.reconcile.gateway.plan.diff import field_changes, format_path, manifest_diff, parse_manifest
from workers.reconcile.gateway.plan.redact import Redactor
from workers.reconcile.gateway.request import GatewayRequest, Prerequisites, Timing
from workers.reconcile.retry import RetryPolicy

DB_URI = "postgresql://gw:s3cret-pw@db.example.test/gw"
CHART_DEFAULTS = {
    "image": {"repository": "r", "tag": "0.1.0"},
    "agentSandbox": {"preflight": {"enabled": True}},
    "grpcRoute": {"enabled": False, "hostnames": []},
    "openshiftRoute": {"enabled": False},
    "certManager": {"enabled": False},
}


@pytest.mark.parametrize(
    ("path", "text"),
    [
        (("image", "tag"), "image.tag"),
        (("spec", "containers", 0, "image"), "spec.containers[0].image"),
        (("metadata", "labels", "app.kubernetes.io/name"), 'metadata.labels["app.kubernetes.io/name"]'),
        ((), ""),
    ],
)
def test_format_path(path: tuple, text: str) -> None:
    assert format_path(path) == text


@pytest.mark.parametrize(
    ("before", "after", "expected"),
    [
        ({"a": 1}, {"a": 1}, []),
        ({"a": 1}, {"a": 2}, [("a", "changed", 1, 2)]),
        ({}, {"a": {"b": 1, "c": {}}}, [("a.b", "added", None, 1), ("a.c", "added", None, {})]),
        ({"a": {"b": [1]}}, {}, [("a.b", "removed", [1], None)]),
        ({"a": 1, "b": 2}, {"b": 2}, [("a", "removed", 1, None)]),
        ({"l": [1, 2]}, {"l": [1, 3, 4]}, [("l[1]", "changed", 2, 3), ("l[2]", "added", None, 4)]),
        ({"l": [{"x": 1}, {"x": 2}]}, {"l": [{"x": 1}]}, [("l[1]", "removed", {"x": 2}, None)]),
        ({"a": {"b": "x"}}, {"a": "x"}, [("a", "changed", {"b": "x"}, "x")]),
    ],
)
def test_field_changes(before: object, after: object, expected: list[tuple]) -> None:
    changes = [
        (c["path"], c["change"], c["before"], c["after"]) for c in (f.as_dict() for f in field_changes(before, after))
    ]
    assert changes == expected


MANIFEST = """\
---
# Source: gw/templates/service.yaml
apiVersion: v1
kind: Service
metadata: {name: edge}
spec: {ports: [{port: 8443}]}
---
# Source: gw/templates/statefulset.yaml
apiVersion: apps/v1
kind: StatefulSet
metadata: {name: edge, namespace: gw-edge}
spec:
  template:
    spec:
      containers: [{name: gateway, image: "gw:1.0.0"}]
---
apiVersion: batch/v1
kind: Job
metadata:
  name: edge-migrate
  annotations: {"helm.sh/hook": pre-install}
---
"""


def test_parse_manifest_keys_objects_and_leaves_out_hooks_and_empty_documents() -> None:
    keys = sorted(parse_manifest(MANIFEST))
    assert keys == [("apps/v1", "StatefulSet", "gw-edge", "edge"), ("v1", "Service", "", "edge")]
    assert parse_manifest("") == {}


def test_manifest_diff_reports_added_removed_changed_and_counts_unchanged() -> None:
    deployed = parse_manifest(MANIFEST)
    desired = parse_manifest(MANIFEST)
    sts = ("apps/v1", "StatefulSet", "gw-edge", "edge")
    desired[sts]["spec"]["template"]["spec"]["containers"][0]["image"] = "gw:1.1.0"
    del desired[("v1", "Service", "", "edge")]
    desired[("v1", "ConfigMap", "", "new")] = {"apiVersion": "v1", "kind": "ConfigMap", "metadata": {"name": "new"}}
    diffs, unchanged = manifest_diff(deployed, desired)
    assert unchanged == 0
    assert [(d.key[1], d.change) for d in diffs] == [
        ("StatefulSet", "changed"),
        ("ConfigMap", "added"),
        ("Service", "removed"),
    ]
    (image,) = diffs[0].fields
    assert image.as_dict() == {
        "path": "spec.template.spec.containers[0].image",
        "change": "changed",
        "before": "gw:1.0.0",
        "after": "gw:1.1.0",
    }
    assert "-      - image: gw:1.0.0\n+      - image: gw:1.1.0\n" in diffs[0].unified
    assert diffs[1].as_dict()["namespace"] == "" and "+kind: ConfigMap" in diffs[1].unified
    assert manifest_diff(deployed, deployed) == ([], 2)


def test_redactor_replaces_known_secrets_their_base64_and_sensitive_keys() -> None:
    redactor = Redactor([DB_URI, "abc"])  # "abc" is too short to be worth blanking out
    tree = redactor.tree(
        {
            "env": [{"value": f"url={DB_URI}"}],
            "db": {"uri": "anything", "password": "pw"},
            "b64": base64.b64encode(DB_URI.encode()).decode(),
            "note": "abc",
        }
    )
    text = json.dumps(tree)
    assert DB_URI not in text and "anything" not in text and '"pw"' not in text
    assert base64.b64encode(DB_URI.encode()).decode() not in text
    assert tree["note"] == "abc" and tree["env"][0]["value"].startswith("url=[REDACTED:")


def test_redacted_secret_data_still_shows_whether_it_changed() -> None:
    redactor = Redactor([])
    secret = {"kind": "Secret", "metadata": {"name": "s"}, "data": {"a": "c2VjcmV0", "b": "b3RoZXI="}}
    changed = {**secret, "data": {"a": "c2VjcmV0", "b": "bmV3"}}
    before, after = redactor.manifest_object(secret), redactor.manifest_object(changed)
    assert "c2VjcmV0" not in json.dumps([before, after])
    assert [c.path for c in field_changes(before, after)] == [("data", "b")]
    assert Redactor([]).marker("c2VjcmV0") != redactor.marker("c2VjcmV0"), "markers are keyed per plan"


def test_the_chart_defaults_overlaid_with_the_values_need_the_apis_they_switch_on() -> None:
    values = deep_merge(CHART_DEFAULTS, {"image": {"tag": "1.0"}, "grpcRoute": {"enabled": True}})
    assert values["image"] == {"repository": "r", "tag": "1.0"}
    assert [api.capability for api in needed_apis(values)] == ["agent_sandbox", "grpc_route", "backend_tls_policy"]
    off = deep_merge(CHART_DEFAULTS, {"agentSandbox": {"preflight": {"enabled": False}}})
    assert needed_apis(off) == []


def make_request(**prerequisites: object) -> GatewayRequest:
    pre = Prerequisites(
        db_secret_name="edge-db-credentials",
        db_uri=None,
        trusted_ca=None,
        scc_binding=False,
        sandbox_service_account="edge-openshell-sandbox",
    )
    return GatewayRequest(
        gateway_id="g",
        generation=1,
        namespace="gw-edge",
        release="edge",
        namespace_labels={},
        prerequisites=replace(pre, **prerequisites),
        values={},
        values_error=None,
        route_host=None,
        deleting=False,
        suspended=False,
        failure_count=0,
        next_attempt_at=None,
        was_running=False,
        now=datetime(2026, 1, 1, tzinfo=UTC),
        timing=Timing(RetryPolicy(), timedelta(minutes=5), timedelta(minutes=5), timedelta(seconds=5)),
    )


def checks_of(request: GatewayRequest, cluster: ClusterObjects, values: dict | None = None) -> dict[str, tuple]:
    checks = prerequisite_checks(
        request,
        deep_merge(CHART_DEFAULTS, values or {}),
        cluster,
        ca_configmap="gateway-trusted-ca",
        scc_binding="edge-scc",
    )
    return {check.name: (check.state, check.message) for check in checks}


def test_a_new_namespace_and_everything_in_it_will_be_created() -> None:
    request = make_request(db_uri=DB_URI, trusted_ca="PEM", scc_binding=True)
    cluster = ClusterObjects(served_apis=frozenset({"v1", "agents.x-k8s.io/v1alpha1"}), namespace_phase=None)
    states = {name: state for name, (state, _) in checks_of(request, cluster).items()}
    assert states == {
        "Namespace": WILL_CREATE,
        "DB credentials Secret": WILL_CREATE,
        "CA bundle ConfigMap": WILL_CREATE,
        "SCC RoleBinding": WILL_CREATE,
        "API Agent Sandbox (agents.x-k8s.io)": PRESENT,
    }


def test_what_the_reconciler_cannot_create_is_missing_and_named() -> None:
    request = make_request(oidc_ca_configmap="tenant-ca")
    cluster = ClusterObjects(
        served_apis=frozenset({"v1"}), namespace_phase="Terminating", configmaps={"tenant-ca": {"other": "x"}}
    )
    checks = checks_of(request, cluster, {"certManager": {"enabled": True}})
    assert checks["Namespace"][0] == MISSING and "being deleted" in checks["Namespace"][1]
    assert checks["OIDC CA ConfigMap"][0] == MISSING
    assert checks["API Agent Sandbox (agents.x-k8s.io)"] == (
        MISSING,
        "Agent Sandbox (agents.x-k8s.io): the cluster serves none of agents.x-k8s.io/v1beta1, "
        "agents.x-k8s.io/v1alpha1, which agentSandbox.preflight.enabled needs",
    )
    assert checks["API cert-manager (cert-manager.io/v1)"][0] == MISSING


def test_present_objects_are_reported_present() -> None:
    request = make_request(db_uri=DB_URI, oidc_ca_configmap="tenant-ca")
    cluster = ClusterObjects(
        served_apis=frozenset({"agents.x-k8s.io/v1alpha1"}),
        namespace_phase="Active",
        secrets=frozenset({"edge-db-credentials"}),
        configmaps={"tenant-ca": {"ca.crt": "PEM"}, "gateway-trusted-ca": {"ca.crt": "PEM"}},
    )
    assert {state for state, _ in checks_of(request, cluster).values()} == {PRESENT}


@pytest.mark.parametrize(
    ("state", "kwargs", "action"),
    [
        (State.ABSENT, {}, PlanAction.INSTALL),
        (State.OUT_OF_SYNC, {}, PlanAction.UPGRADE),
        (State.DRIFTED, {}, PlanAction.UPGRADE),
        (State.FAILED, {}, PlanAction.UPGRADE),
        (State.LOCKED, {}, PlanAction.UPGRADE),
        (State.IN_SYNC, {}, PlanAction.NOTHING),
        (State.BUSY, {}, PlanAction.BLOCKED),
        (State.ABSENT, {"blockers": ["no API"]}, PlanAction.BLOCKED),
        (State.IN_SYNC, {"retries_exhausted": True}, PlanAction.BLOCKED),
        (State.OUT_OF_SYNC, {"suspended": True, "blockers": ["no API"]}, PlanAction.NOTHING),
    ],
)
def test_decide(state: State, kwargs: dict, action: PlanAction) -> None:
    decision = decide(state, **{"blockers": [], "suspended": False, "retries_exhausted": False, **kwargs})
    assert decision.action == action and decision.reasons
    if action == PlanAction.BLOCKED and kwargs.get("blockers"):
        assert decision.reasons == ["no API"]
