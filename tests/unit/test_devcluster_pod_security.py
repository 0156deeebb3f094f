"""Pod Security Admission checks and messages, as kubernetes/pod-security-admission words them."""

from __future__ import annotations

from typing import Any

import pytest

from devcluster.admission.pod_security import (
    LATEST,
    LevelVersion,
    enforce,
    evaluate,
    forbidden_detail,
    policy_for,
)
from devcluster.errors import ApiError

RESTRICTED_OK_SC = {
    "allowPrivilegeEscalation": False,
    "runAsNonRoot": True,
    "capabilities": {"drop": ["ALL"]},
    "seccompProfile": {"type": "RuntimeDefault"},
}


def pod(spec: dict[str, Any] | None = None, annotations: dict[str, str] | None = None, **container: Any) -> dict:
    """A pod with one container `c` (extra container fields as keyword arguments)."""
    return {
        "metadata": {"name": "x", "annotations": annotations or {}},
        "spec": {"containers": [{"name": "c", "image": "i", **container}], **(spec or {})},
    }


def detail(level: str, p: dict[str, Any], minor: int = LATEST) -> str:
    return forbidden_detail(evaluate(LevelVersion(level, minor), p))


@pytest.mark.parametrize(
    ("p", "expected"),
    [
        (pod({"hostNetwork": True, "hostIPC": True}), "host namespaces (hostNetwork=true, hostIPC=true)"),
        (
            pod(securityContext={"privileged": True}),
            'privileged (container "c" must not set securityContext.privileged=true)',
        ),
        (
            pod(securityContext={"capabilities": {"add": ["NET_RAW", "SYS_ADMIN", "CHOWN"]}}),
            'non-default capabilities (container "c" must not include "NET_RAW", "SYS_ADMIN" in '
            "securityContext.capabilities.add)",
        ),
        (
            pod({"volumes": [{"name": "h", "hostPath": {"path": "/"}}, {"name": "e", "emptyDir": {}}]}),
            'hostPath volumes (volume "h")',
        ),
        (
            pod(ports=[{"containerPort": 80, "hostPort": 9090}, {"hostPort": 8080}]),
            'hostPort (container "c" uses hostPorts 8080, 9090)',
        ),
        (
            pod(securityContext={"appArmorProfile": {"type": "Unconfined"}}),
            'forbidden AppArmor profile (container "c" must not set AppArmor profile type to "Unconfined")',
        ),
        (
            pod({"securityContext": {"seLinuxOptions": {"type": "spc_t", "user": "u"}}}),
            'seLinuxOptions (pod set forbidden securityContext.seLinuxOptions: type "spc_t"; user may not be set)',
        ),
        (
            pod(securityContext={"procMount": "Unmasked"}),
            'procMount (container "c" must not set securityContext.procMount to "Unmasked")',
        ),
        (
            pod({"securityContext": {"seccompProfile": {"type": "Unconfined"}}}),
            'seccompProfile (pod must not set securityContext.seccompProfile.type to "Unconfined")',
        ),
        (
            pod({"securityContext": {"sysctls": [{"name": "kernel.msgmax"}, {"name": "net.ipv4.tcp_syncookies"}]}}),
            "forbidden sysctls (kernel.msgmax)",
        ),
        (
            pod(securityContext={"windowsOptions": {"hostProcess": True}}),
            'hostProcess (container "c" must not set securityContext.windowsOptions.hostProcess=true)',
        ),
        (
            pod(livenessProbe={"httpGet": {"host": "example.com", "port": 80}}),
            'probe or lifecycle host (container "c" uses probe or lifecycle host "example.com")',
        ),
    ],
)
def test_each_baseline_check(p: dict[str, Any], expected: str) -> None:
    assert detail("baseline", p) == expected


def test_baseline_allows_a_plain_pod_and_privileged_allows_anything() -> None:
    assert evaluate(LevelVersion("baseline"), pod()) == []
    assert evaluate(LevelVersion("privileged"), pod({"hostPID": True}, securityContext={"privileged": True})) == []


def test_restricted_message_of_a_plain_pod_matches_upstream() -> None:
    assert detail("restricted", pod()) == (
        'allowPrivilegeEscalation != false (container "c" must set securityContext.allowPrivilegeEscalation=false), '
        'unrestricted capabilities (container "c" must set securityContext.capabilities.drop=["ALL"]), '
        'runAsNonRoot != true (pod or container "c" must set securityContext.runAsNonRoot=true), '
        'seccompProfile (pod or container "c" must set securityContext.seccompProfile.type to "RuntimeDefault" or '
        '"Localhost")'
    )


def test_restricted_pluralises_and_covers_init_and_ephemeral_containers() -> None:
    p = pod(securityContext=RESTRICTED_OK_SC)
    p["spec"]["initContainers"] = [{"name": "init", "image": "i"}]
    p["spec"]["ephemeralContainers"] = [{"name": "debug", "image": "i"}]
    assert detail("restricted", p).startswith(
        'allowPrivilegeEscalation != false (containers "init", "debug" must set '
        "securityContext.allowPrivilegeEscalation=false)"
    )


@pytest.mark.parametrize(
    ("p", "expected"),
    [
        (pod(securityContext=RESTRICTED_OK_SC), ""),
        (
            pod(
                {"securityContext": {"runAsNonRoot": True, "seccompProfile": {"type": "Localhost"}}},
                securityContext={"allowPrivilegeEscalation": False, "capabilities": {"drop": ["ALL"]}},
            ),
            "",
        ),
        (
            pod(
                securityContext={
                    **RESTRICTED_OK_SC,
                    "capabilities": {"drop": ["ALL"], "add": ["NET_BIND_SERVICE", "NET_RAW"]},
                }
            ),
            'unrestricted capabilities (container "c" must not include "NET_RAW" in securityContext.capabilities.add)',
        ),
        (
            pod(
                {"securityContext": {"runAsNonRoot": False}},
                securityContext={**RESTRICTED_OK_SC, "runAsNonRoot": False},
            ),
            'runAsNonRoot != true (pod and container "c" must not set securityContext.runAsNonRoot=false)',
        ),
        (
            pod(securityContext={**RESTRICTED_OK_SC, "runAsUser": 0}),
            'runAsUser=0 (container "c" must not set runAsUser=0)',
        ),
        (
            pod(
                {
                    "volumes": [
                        {"name": "n", "nfs": {"server": "s", "path": "/"}},
                        {"name": "h", "hostPath": {"path": "/"}},
                    ]
                },
                securityContext=RESTRICTED_OK_SC,
            ),
            'restricted volume types (volumes "n", "h" use restricted volume types "hostPath", "nfs")',
        ),
        (
            pod({"os": {"name": "windows"}}, securityContext={"runAsNonRoot": True}),
            "",
        ),
        (
            pod({"hostUsers": False}, securityContext={**RESTRICTED_OK_SC, "runAsNonRoot": False, "runAsUser": 0}),
            "",
        ),
    ],
)
def test_each_restricted_check(p: dict[str, Any], expected: str) -> None:
    assert detail("restricted", p) == expected


def test_versions_select_the_checks_of_their_time() -> None:
    plain = pod()
    # runAsUser=0 is only checked from v1.23; capabilities from v1.22.
    root = pod(securityContext={**RESTRICTED_OK_SC, "runAsUser": 0})
    assert detail("restricted", root, 22) == ""
    assert "runAsUser=0" in detail("restricted", root, 23)
    assert "unrestricted capabilities" not in detail("restricted", plain, 21)
    # Sysctls allowed from v1.37 only; probe hosts from v1.34.
    sysctl = pod({"securityContext": {"sysctls": [{"name": "net.ipv4.tcp_notsent_lowat"}]}})
    assert detail("baseline", sysctl, 36) == "forbidden sysctls (net.ipv4.tcp_notsent_lowat)"
    assert detail("baseline", sysctl, 37) == ""
    probe = pod(readinessProbe={"tcpSocket": {"host": "h", "port": 1}})
    assert detail("baseline", probe, 33) == ""
    assert detail("baseline", probe, 99) != ""


@pytest.mark.parametrize(
    ("labels", "default", "expected"),
    [
        ({}, "privileged", "privileged:latest"),
        ({}, "restricted", "restricted:latest"),
        ({"pod-security.kubernetes.io/enforce": "baseline"}, "restricted", "baseline:latest"),
        (
            {"pod-security.kubernetes.io/enforce": "baseline", "pod-security.kubernetes.io/enforce-version": "v1.30"},
            "privileged",
            "baseline:v1.30",
        ),
        ({"pod-security.kubernetes.io/enforce": "strict"}, "privileged", "restricted:latest"),
        ({"pod-security.kubernetes.io/enforce-version": "1.30"}, "baseline", "baseline:latest"),
    ],
)
def test_level_and_version_selection(labels: dict[str, str], default: str, expected: str) -> None:
    assert str(policy_for(labels, default)) == expected


def test_enforce_refuses_with_the_upstream_message() -> None:
    with pytest.raises(ApiError) as refused:
        enforce({"pod-security.kubernetes.io/enforce": "baseline"}, "privileged", "web-1", pod({"hostPID": True}))
    assert refused.value.code == 403
    assert (
        refused.value.message
        == 'pods "web-1" is forbidden: violates PodSecurity "baseline:latest": host namespaces (hostPID=true)'
    )
    enforce({}, "privileged", "web-1", pod({"hostPID": True}))
