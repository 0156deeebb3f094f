"""OpenShift SCC admission: ranges, allocation, strategies, ordering and OpenShift's refusal message."""

from __future__ import annotations

import copy
from pathlib import Path
from typing import Any

import pytest
import yaml

from devcluster.admission.ranges import Block, allocate, mcs_level, parse_block, parse_blocks
from devcluster.admission.scc import choose
from devcluster.admission.scc_provider import FieldError, aggregate, assign, provider_for, sort_key
from devcluster.presets import PRESETS_DIR

SCCS = {
    doc["metadata"]["name"]: doc
    for doc in yaml.safe_load_all((PRESETS_DIR / "openshift.yaml").read_text())
    if doc and doc.get("kind") == "SecurityContextConstraints"
}
NAMESPACE = {
    "metadata": {
        "name": "demo",
        "annotations": {
            "openshift.io/sa.scc.uid-range": "1000680000/10000",
            "openshift.io/sa.scc.supplemental-groups": "1000680000/10000",
            "openshift.io/sa.scc.mcs": "s0:c26,c15",
        },
    }
}


def provider(name: str) -> Any:
    return provider_for(SCCS[name], NAMESPACE)


def pod(pod_sc: dict[str, Any] | None = None, **container_sc: Any) -> dict[str, Any]:
    container: dict[str, Any] = {"name": "c", "image": "i"}
    if container_sc:
        container["securityContext"] = container_sc
    spec: dict[str, Any] = {"containers": [container], "serviceAccountName": "default"}
    if pod_sc is not None:
        spec["securityContext"] = pod_sc
    return {"metadata": {"name": "p"}, "spec": spec}


@pytest.mark.parametrize(
    ("text", "block"),
    [("1000680000/10000", Block(1000680000, 1000689999)), ("5-9", Block(5, 9)), (" 7/1 ", Block(7, 7))],
)
def test_parse_block(text: str, block: Block) -> None:
    assert parse_block(text) == block


@pytest.mark.parametrize("text", ["", "1000/0", "9-5", "a/b", "1000"])
def test_parse_block_rejects(text: str) -> None:
    with pytest.raises(ValueError):
        parse_block(text)


def test_parse_blocks_and_format() -> None:
    assert parse_blocks("1/10,100/5") == [Block(1, 10), Block(100, 104)]
    assert str(Block(1000680000, 1000689999)) == "1000680000/10000"


def test_allocation_takes_the_lowest_free_block() -> None:
    assert allocate([]) == Block(1000000000, 1000009999)
    assert allocate(["1000000000/10000", "1000020000/10000", "garbage", ""]) == Block(1000010000, 1000019999)
    assert allocate(["1000000000/10000", "1000010000/10000"]).start == 1000020000


@pytest.mark.parametrize(
    ("start", "level"),
    [(1000000000, "s0:c1,c0"), (1000010000, "s0:c3,c2"), (1000680000, "s0:c26,c15")],
)
def test_mcs_level_per_block(start: int, level: str) -> None:
    assert mcs_level(Block(start, start + 9999)) == level


def test_field_error_rendering_and_aggregate() -> None:
    a = FieldError("p.fsGroup", "Invalid value", [1000], "1000 is not an allowed group", "[]int64")
    b = FieldError('provider "x"', "Forbidden", detail="not usable by user or serviceaccount")
    c = FieldError("p.runAsUser", "Required value")
    d = FieldError(
        "p.drop", "Invalid value", None, "ALL is required to be dropped but was not found", "[]core.Capability"
    )
    assert str(a) == "p.fsGroup: Invalid value: []int64{1000}: 1000 is not an allowed group"
    assert str(b) == 'provider "x": Forbidden: not usable by user or serviceaccount'
    assert str(c) == "p.runAsUser: Required value"
    assert str(d) == "p.drop: Invalid value: []core.Capability(nil): ALL is required to be dropped but was not found"
    assert aggregate([b]) == str(b)
    assert aggregate([a, b, a]) == f"[{a}, {b}]"


def test_default_sccs_sort_as_on_openshift() -> None:
    ordered = [scc["metadata"]["name"] for scc in sorted(SCCS.values(), key=sort_key)]
    assert ordered == [
        "anyuid",
        "restricted-v2",
        "restricted",
        "nonroot-v2",
        "nonroot",
        "hostmount-anyuid",
        "hostnetwork-v2",
        "hostnetwork",
        "hostaccess",
        "privileged",
    ]


def test_restricted_v2_assigns_uid_fsgroup_selinux_and_seccomp() -> None:
    admitted, errs = assign(provider("restricted-v2"), pod())
    assert errs == [] and admitted is not None
    assert admitted["spec"]["securityContext"] == {
        "fsGroup": 1000680000,
        "seLinuxOptions": {"level": "s0:c26,c15"},
        "seccompProfile": {"type": "RuntimeDefault"},
    }
    assert admitted["spec"]["containers"][0]["securityContext"] == {
        "runAsUser": 1000680000,
        "runAsNonRoot": True,
        "capabilities": {"drop": ["ALL"]},
        "allowPrivilegeEscalation": False,
    }


@pytest.mark.parametrize(
    ("scc", "p", "errors"),
    [
        (
            "restricted-v2",
            pod(runAsUser=1000),
            [
                "provider restricted-v2: .containers[0].runAsUser: Invalid value: 1000: must be in the ranges: "
                "[1000680000, 1000689999]"
            ],
        ),
        (
            "restricted-v2",
            pod(allowPrivilegeEscalation=True, capabilities={"add": ["NET_ADMIN"]}),
            [
                'provider restricted-v2: .containers[0].capabilities.add: Invalid value: "NET_ADMIN": capability may '
                "not be added",
                "provider restricted-v2: .containers[0].allowPrivilegeEscalation: Invalid value: true: Allowing "
                "privilege escalation for containers is not allowed",
            ],
        ),
        (
            "restricted-v2",
            pod({"seccompProfile": {"type": "Unconfined"}}),
            [
                "pod.metadata.annotations[seccomp.security.alpha.kubernetes.io/pod]: Forbidden: unconfined is not an "
                "allowed seccomp profile. Valid values are [runtime/default]",
                "pod.metadata.annotations[container.seccomp.security.alpha.kubernetes.io/c]: Forbidden: unconfined is "
                "not an allowed seccomp profile. Valid values are [runtime/default]",
            ],
        ),
        (
            "nonroot-v2",
            pod(runAsUser=0),
            ["provider nonroot-v2: .containers[0].runAsUser: Invalid value: 0: running with the root UID is forbidden"],
        ),
        (
            "nonroot-v2",
            pod(runAsNonRoot=False),
            ["provider nonroot-v2: .containers[0].runAsNonRoot: Invalid value: false: must be true"],
        ),
        (
            "restricted-v2",
            pod({"seLinuxOptions": {"level": "s0:c1,c2"}}, privileged=True),
            [
                'provider restricted-v2: .spec.securityContext.seLinuxOptions.level: Invalid value: "s0:c1,c2": '
                "must be s0:c26,c15",
                'provider restricted-v2: .containers[0].seLinuxOptions.level: Invalid value: "s0:c1,c2": must be '
                "s0:c26,c15",
                "provider restricted-v2: .containers[0].privileged: Invalid value: true: Privileged containers are "
                "not allowed",
            ],
        ),
    ],
)
def test_strategies_refuse(scc: str, p: dict[str, Any], errors: list[str]) -> None:
    admitted, errs = assign(provider(scc), p)
    assert admitted is None
    assert [str(e) for e in errs] == errors


def test_host_features_and_volumes() -> None:
    p = pod(ports=None)
    p["spec"]["hostNetwork"] = True
    p["spec"]["containers"][0]["ports"] = [{"containerPort": 80, "hostPort": 80}]
    p["spec"]["volumes"] = [{"name": "h", "hostPath": {"path": "/"}}]
    _, errs = assign(provider("restricted-v2"), p)
    rendered = [str(e) for e in errs]
    assert (
        "provider restricted-v2: .spec.securityContext.hostNetwork: Invalid value: true: Host network is not "
        "allowed to be used" in rendered
    )
    assert 'spec.volumes[0]: Invalid value: "hostPath": hostPath volumes are not allowed to be used' in rendered
    assert (
        "provider restricted-v2: .containers[0].containers[0].hostPort: Invalid value: 80: Host ports are not "
        "allowed to be used" in rendered
    )
    p["spec"]["volumes"] = [{"name": "h", "hostPath": {"path": "/"}}]
    admitted, errs = assign(provider("privileged"), p)
    assert errs == [] and admitted is not None


def test_anyuid_runs_as_any_user_and_adds_the_required_drop() -> None:
    admitted, errs = assign(provider("anyuid"), pod(runAsUser=1000))
    assert errs == [] and admitted is not None
    assert admitted["spec"]["containers"][0]["securityContext"]["capabilities"] == {"drop": ["MKNOD"]}
    assert admitted["spec"]["containers"][0]["securityContext"]["runAsUser"] == 1000


def test_provider_needs_the_namespace_annotations() -> None:
    with pytest.raises(ValueError, match="unable to find pre-allocated uid annotation for namespace bare"):
        provider_for(SCCS["restricted-v2"], {"metadata": {"name": "bare"}})


def _openshell_gateway_pod(values: dict[str, Any], fs_group: Any, run_as_user: Any) -> dict[str, Any]:
    """The gateway pod's security settings from the OpenShell chart's defaults, with the two IDs overridden."""
    pod_sc = {**values["podSecurityContext"], "fsGroup": fs_group}
    container_sc = {**copy.deepcopy(values["securityContext"]), "runAsUser": run_as_user}
    return {
        "metadata": {"name": "openshell-0"},
        "spec": {
            "serviceAccountName": "openshell",
            "securityContext": {k: v for k, v in pod_sc.items() if v is not None},
            "containers": [
                {
                    "name": "openshell",
                    "image": "gw",
                    "securityContext": {k: v for k, v in container_sc.items() if v is not None},
                }
            ],
        },
    }


def test_openshell_gateway_defaults_are_refused_under_restricted_v2(upstream_chart: Path) -> None:
    values = yaml.safe_load((upstream_chart / "values.yaml").read_text())
    defaults = _openshell_gateway_pod(
        values, values["podSecurityContext"]["fsGroup"], values["securityContext"]["runAsUser"]
    )
    providers = [provider_for(scc, NAMESPACE) for scc in sorted(SCCS.values(), key=sort_key)]
    admitted, _, failures = choose(providers, {"restricted-v2": "serviceaccount"}, defaults)
    assert admitted is None
    message = aggregate(failures)
    assert message.startswith(
        '[provider "anyuid": Forbidden: not usable by user or serviceaccount, '
        "provider restricted-v2: .spec.securityContext.fsGroup: Invalid value: []int64{1000}: 1000 is not an allowed "
        "group, provider restricted-v2: .containers[0].runAsUser: Invalid value: 1000: must be in the ranges: "
        '[1000680000, 1000689999], provider "restricted": Forbidden: not usable by user or serviceaccount, '
    )
    assert message.endswith('provider "privileged": Forbidden: not usable by user or serviceaccount]')

    nulled = _openshell_gateway_pod(values, None, None)
    admitted, chosen, failures = choose(providers, {"restricted-v2": "serviceaccount"}, nulled)
    assert chosen == "restricted-v2" and admitted is not None
    assert admitted["metadata"]["annotations"]["openshift.io/scc"] == "restricted-v2"
    assert admitted["spec"]["securityContext"]["fsGroup"] == 1000680000
    assert admitted["spec"]["containers"][0]["securityContext"]["runAsUser"] == 1000680000


def test_restricted_hint_when_only_v1_would_admit() -> None:
    providers = [provider_for(scc, NAMESPACE) for scc in sorted(SCCS.values(), key=sort_key)]
    escalating = pod(allowPrivilegeEscalation=True)
    _, _, failures = choose(providers, {"restricted-v2": "user"}, escalating)
    assert str(failures[-1]) == (
        "no access to scc/restricted: Forbidden: the pod fails to validate against the `restricted-v2` security "
        "context constraint, but would validate successfully against the `restricted` security context constraint"
    )
