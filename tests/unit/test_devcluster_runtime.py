"""The pure parts of devcluster's process runtime: the image config, a container's environment, the volume plan,
probe thresholds, restart back-off, the container command and Service endpoints."""

from __future__ import annotations

import base64
import subprocess
from pathlib import Path
from typing import Any

import pytest
import yaml

from devcluster.runtime.env import EnvError, container_env, expand
from devcluster.runtime.image import BASE_PATH, parse_dockerfile, repository_of
from devcluster.runtime.pods import restart_delay
from devcluster.runtime.probes import Probe
from devcluster.runtime.proxy import endpoints
from devcluster.runtime.runtime import command_of, image_mounts
from devcluster.runtime.volumes import DirectoryKind, Mount, VolumeError, plan_volumes
from tests.paths import HELM, PROJECT_ROOT

OBJECTS: dict[tuple[str, str], dict[str, Any]] = {
    ("secrets", "creds"): {
        "data": {"password": base64.b64encode(b"s3cret").decode(), "TOKEN": base64.b64encode(b"t0k").decode()}
    },
    ("configmaps", "settings"): {"data": {"level": "debug", "MODE": "fast"}},
}


def lookup(key: tuple[str, str], namespace: str, name: str) -> dict[str, Any] | None:
    return OBJECTS.get((key[1], name))


def make_pod(**spec: Any) -> dict[str, Any]:
    return {
        "metadata": {"name": "web-1", "namespace": "apps", "uid": "u-1", "labels": {"tier": "front"}},
        "spec": {"nodeName": "node", "serviceAccountName": "web", **spec},
        "status": {"podIP": "127.0.0.1", "hostIP": "172.18.0.2"},
    }


def test_the_control_plane_dockerfile() -> None:
    image = parse_dockerfile((PROJECT_ROOT / "Dockerfile").read_text())
    assert image.workdir == "/opt/controlplane"
    assert image.entrypoint == ["/opt/controlplane/scripts/entrypoint.sh"] and image.cmd == ["api"]
    assert image.env["PATH"] == f"/opt/controlplane/.tools:{BASE_PATH}"
    assert image.env["CATALOG_STORE_DIR"] == "/var/lib/controlplane/catalogs"
    assert image.user == "10001:10001" and image.homes == {10001: "/var/lib/controlplane"}


def test_dockerfile_forms() -> None:
    image = parse_dockerfile(
        "FROM a\nENV OLD x\nFROM b\n# comment\nENV A=1 \\\n    B=${A}-2\nENV LEGACY some value\n"
        'WORKDIR /srv/$A\nENTRYPOINT run --flag\nCMD ["serve"]\n'
    )
    assert "OLD" not in image.env
    assert (image.env["A"], image.env["B"], image.env["LEGACY"]) == ("1", "1-2", "some value")
    assert image.workdir == "/srv/1"
    assert image.entrypoint == ["/bin/sh", "-c", "run --flag"] and image.cmd == ["serve"]


@pytest.mark.parametrize(
    ("image", "repository"),
    [
        ("ghcr.io/example/controlplane:1.0.0", "ghcr.io/example/controlplane"),
        ("ghcr.io/example/controlplane@sha256:" + "a" * 64, "ghcr.io/example/controlplane"),
        ("localhost:5000/cp:2@sha256:" + "b" * 64, "localhost:5000/cp"),
        ("localhost:5000/cp", "localhost:5000/cp"),
    ],
)
def test_repository_of(image: str, repository: str) -> None:
    assert repository_of(image) == repository


def test_environment_order_references_and_sources() -> None:
    container = {
        "envFrom": [
            {"secretRef": {"name": "creds"}, "prefix": "S_"},
            {"configMapRef": {"name": "settings"}},
            {"configMapRef": {"name": "absent", "optional": True}},
        ],
        "env": [
            {"name": "PATH", "value": "/bin"},
            {"name": "PASSWORD", "valueFrom": {"secretKeyRef": {"name": "creds", "key": "password"}}},
            {"name": "LEVEL", "valueFrom": {"configMapKeyRef": {"name": "settings", "key": "level"}}},
            {"name": "NAME", "valueFrom": {"fieldRef": {"fieldPath": "metadata.name"}}},
            {"name": "IP", "valueFrom": {"fieldRef": {"fieldPath": "status.podIP"}}},
            {"name": "TIER", "valueFrom": {"fieldRef": {"fieldPath": "metadata.labels['tier']"}}},
            {"name": "ACCOUNT", "valueFrom": {"fieldRef": {"fieldPath": "spec.serviceAccountName"}}},
            {"name": "HOSTS", "value": "$(IP),$(LATER),$(HOME),$$(IP),$(S_TOKEN)"},
            {"name": "LATER", "value": "x"},
            {"name": "GONE", "valueFrom": {"secretKeyRef": {"name": "creds", "key": "nope", "optional": True}}},
        ],
    }
    env = container_env(lookup, make_pod(), container, {"PATH": "/usr/bin", "HOME": "/home", "KEEP": "1"})
    assert env == {
        "PATH": "/bin",
        "HOME": "/home",
        "KEEP": "1",
        "S_password": "s3cret",
        "S_TOKEN": "t0k",
        "level": "debug",
        "MODE": "fast",
        "PASSWORD": "s3cret",
        "LEVEL": "debug",
        "NAME": "web-1",
        "IP": "127.0.0.1",
        "TIER": "front",
        "ACCOUNT": "web",
        "HOSTS": "127.0.0.1,$(LATER),$(HOME),$(IP),t0k",
        "LATER": "x",
    }


@pytest.mark.parametrize(
    ("item", "message"),
    [
        ({"secretKeyRef": {"name": "missing", "key": "k"}}, 'secret "missing" not found'),
        ({"configMapKeyRef": {"name": "settings", "key": "k"}}, "couldn't find key k in ConfigMap apps/settings"),
        ({"fieldRef": {"fieldPath": "spec.volumes"}}, "unsupported fieldRef fieldPath 'spec.volumes'"),
    ],
)
def test_environment_errors(item: dict[str, Any], message: str) -> None:
    with pytest.raises(EnvError, match=message):
        container_env(lookup, make_pod(), {"env": [{"name": "X", "valueFrom": item}]}, {})


def test_expand() -> None:
    assert expand("$(A)/$(B)/$$(A)/$", {"A": "1"}) == "1/$(B)/$(A)/$"


def test_volume_plan() -> None:
    pod = make_pod(
        volumes=[
            {"name": "tmp", "emptyDir": {"medium": "Memory"}},
            {"name": "data", "persistentVolumeClaim": {"claimName": "shared"}},
            {"name": "creds", "secret": {"secretName": "creds", "items": [{"key": "password", "path": "db/pw"}]}},
            {
                "name": "all",
                "projected": {
                    "sources": [{"configMap": {"name": "settings"}}, {"secret": {"name": "absent", "optional": True}}]
                },
            },
        ]
    )
    container = {
        "volumeMounts": [
            {"name": "data", "mountPath": "/var/lib/app/data", "subPath": "one"},
            {"name": "tmp", "mountPath": "/tmp"},
            {"name": "creds", "mountPath": "/etc/creds"},
            {"name": "all", "mountPath": "/etc/all"},
            {"name": "data", "mountPath": "/var/lib/app", "readOnly": True},
        ]
    }
    plan = plan_volumes(lookup, pod, container, "/pods/p1", "/claims")
    assert plan.mounts == (
        Mount("/pods/p1/volumes/tmp", "/tmp", False),
        Mount("/pods/p1/volumes/creds", "/etc/creds", True),
        Mount("/pods/p1/volumes/all", "/etc/all", True),
        Mount("/claims/apps/shared", "/var/lib/app", True),
        Mount("/claims/apps/shared/one", "/var/lib/app/data", False),
    )
    assert plan.files == {
        "/pods/p1/volumes/creds/db/pw": b"s3cret",
        "/pods/p1/volumes/all/level": b"debug",
        "/pods/p1/volumes/all/MODE": b"fast",
    }
    assert plan.directories == {
        "/claims/apps/shared": DirectoryKind.CLAIM,
        "/claims/apps/shared/one": DirectoryKind.CLAIM,
        "/pods/p1/volumes/tmp": DirectoryKind.EMPTY_DIR,
        "/pods/p1/volumes/creds": DirectoryKind.FILES,
        "/pods/p1/volumes/all": DirectoryKind.FILES,
    }


def test_host_paths_are_mounted_not_created() -> None:
    pod = make_pod(volumes=[{"name": "host", "hostPath": {"path": "/srv/data"}}])
    plan = plan_volumes(lookup, pod, {"volumeMounts": [{"name": "host", "mountPath": "/data"}]}, "/p", "/c")
    assert plan.mounts == (Mount("/srv/data", "/data", False),) and plan.directories == {}


@pytest.mark.parametrize(
    ("volume", "message"),
    [
        ({"name": "v", "nfs": {"server": "x"}}, "of type \\['nfs'\\] is not supported"),
        ({"name": "v", "secret": {"secretName": "missing"}}, 'secret "missing" not found'),
        ({"name": "v", "persistentVolumeClaim": {"claimName": "../escape"}}, "invalid path"),
    ],
)
def test_volume_errors(volume: dict[str, Any], message: str) -> None:
    with pytest.raises(VolumeError, match=message):
        plan_volumes(
            lookup, make_pod(volumes=[volume]), {"volumeMounts": [{"name": "v", "mountPath": "/v"}]}, "/p", "/c"
        )


def _chart_pods(tmp_path: Path) -> dict[str, dict[str, Any]]:
    """The API and worker pods `deploy/chart` renders with a created catalog claim, by component."""
    values = tmp_path / "values.yaml"
    values.write_text(
        yaml.safe_dump(
            {
                "secrets": {"secretKey": "k", "fieldEncryptionKey": "f"},
                "database": {"url": "postgres://db/cp"},
                "redis": {"brokerUrl": "redis://r/0", "cacheUrl": "redis://r/1"},
                "catalogStore": {"claim": {"create": True, "storageClassName": "rwx"}},
            }
        )
    )
    rendered = subprocess.run(
        [str(HELM), "template", "cp", str(PROJECT_ROOT / "deploy" / "chart"), "-f", str(values)],
        capture_output=True,
        text=True,
        check=True,
    ).stdout
    pods = {}
    for doc in yaml.safe_load_all(rendered):
        if doc and doc["kind"] == "Deployment":
            template = doc["spec"]["template"]
            pods[template["metadata"]["labels"]["app.kubernetes.io/component"]] = {
                "metadata": {"name": doc["metadata"]["name"], "namespace": "cp", "uid": doc["metadata"]["name"]},
                "spec": template["spec"],
            }
    return pods


def _catalog_source(pod: dict[str, Any]) -> str:
    (container,) = pod["spec"]["containers"]
    plan = plan_volumes(lookup, pod, container, f"/pods/{pod['metadata']['uid']}", "/claims")
    return next(m.source for m in plan.mounts if m.target == "/var/lib/controlplane/catalogs")


def test_catalog_content_is_shared_only_through_the_claim(tmp_path: Path) -> None:
    """The API and the workers see one catalog directory through the chart's claim; an emptyDir per pod (what
    the chart refuses to render) would give each its own, and the API would serve nothing the workers unpack."""
    pods = _chart_pods(tmp_path)
    assert _catalog_source(pods["api"]) == _catalog_source(pods["worker"]) == "/claims/cp/cp-controlplane-catalogs"
    for pod in pods.values():
        pod["spec"]["volumes"] = [
            {"name": v["name"], "emptyDir": {}} if v["name"] == "catalogs" else v for v in pod["spec"]["volumes"]
        ]
    assert _catalog_source(pods["api"]) != _catalog_source(pods["worker"])


def test_probe_thresholds() -> None:
    probe = Probe({"periodSeconds": 2, "failureThreshold": 2, "successThreshold": 2, "initialDelaySeconds": 5})
    probe.schedule(100.0)
    assert probe.next_at == 105.0
    probe.record(True, 105.0)
    assert not probe.passing and probe.next_at == 107.0
    probe.record(True, 107.0)
    assert probe.passing
    probe.record(False, 109.0)
    assert probe.passing and not probe.failed
    probe.record(False, 111.0)
    assert not probe.passing and probe.failed


def test_restart_back_off() -> None:
    assert [restart_delay(n) for n in (1, 2, 3, 4, 7, 8, 20)] == [0.0, 10.0, 20.0, 40.0, 300.0, 300.0, 300.0]


@pytest.mark.parametrize(
    ("container", "argv"),
    [
        ({}, ["/entry.sh", "api"]),
        ({"args": ["worker", "-c", "2"]}, ["/entry.sh", "worker", "-c", "2"]),
        ({"command": ["sh"]}, ["sh"]),
        ({"command": ["sh"], "args": ["-c", "true"]}, ["sh", "-c", "true"]),
    ],
)
def test_command(container: dict[str, Any], argv: list[str]) -> None:
    image = parse_dockerfile('FROM x\nENTRYPOINT ["/entry.sh"]\nCMD ["api"]\n')
    assert command_of(container, image) == argv


def test_endpoints_are_ready_non_terminating_selected_pods() -> None:
    def endpoint_pod(name: str, ready: bool = True, deleting: bool = False, app: str = "web") -> dict[str, Any]:
        meta: dict[str, Any] = {"name": name, "uid": name, "labels": {"app": app}}
        if deleting:
            meta["deletionTimestamp"] = "2026-01-01T00:00:00Z"
        return {"metadata": meta, "status": {"conditions": [{"type": "Ready", "status": str(ready)}]}}

    pods = [
        endpoint_pod("b"),
        endpoint_pod("a"),
        endpoint_pod("c", ready=False),
        endpoint_pod("d", deleting=True),
        endpoint_pod("e", app="other"),
        endpoint_pod("f"),
    ]
    ports = {"a": 1001, "b": 1002, "c": 1003, "d": 1004, "e": 1005}
    service = {"spec": {"selector": {"app": "web"}}}
    assert endpoints(pods, service, "http", lambda uid, port: ports.get(uid)) == [1001, 1002]
    assert endpoints(pods, {"spec": {}}, "http", lambda uid, port: 1) == []


def test_the_image_files_are_a_fresh_tmpfs_with_each_checkout_entry_bound_read_only(tmp_path: Path) -> None:
    (tmp_path / "manage.py").write_text("")
    (tmp_path / "gateways").mkdir()
    tmp_path.chmod(0o700)
    mounts = image_mounts(tmp_path, "/opt/controlplane")
    assert mounts == (
        Mount("", "/opt/controlplane", read_only=False, tmpfs=True),
        Mount(str(tmp_path / "gateways"), "/opt/controlplane/gateways", read_only=True),
        Mount(str(tmp_path / "manage.py"), "/opt/controlplane/manage.py", read_only=True),
    )
