"""End to end: the installed ``cpctl`` console script against the live stack (API, worker, devcluster, registry).

Every step runs the script as a subprocess with its own context file, as a person would.
"""

from __future__ import annotations

import json
import subprocess
from collections.abc import Callable
from pathlib import Path

import pytest

from tests.fixtures.charts import MIRROR_CHART
from tests.fixtures.devcluster import DevCluster
from tests.fixtures.registry import Registry, expected_lines, fbc_layer
from tests.fixtures.stack import ApiSession, Stack
from tests.waiting import wait_until

pytestmark = pytest.mark.e2e

SUPERVISOR_IMAGE = "ghcr.io/nvidia/openshell/supervisor:1.0.0"
SPEC = """\
name: edge
cluster: cli
image: ghcr.io/nvidia/openshell/gateway:1.0.0
supervisor_image: ghcr.io/nvidia/openshell/supervisor:1.0.0
labels:
  team: blue
"""


def test_cli_drives_gateways_and_catalogs(
    cpctl: Callable[..., subprocess.CompletedProcess[str]],
    live_stack: Stack,
    api_session: Callable[..., ApiSession],
    gateway_cluster: DevCluster,
    registry: Registry,
    repository: str,
    tmp_path: Path,
) -> None:
    admin = api_session("cli-admin")
    token = admin.headers["Authorization"].removeprefix("Token ")

    # -- contexts: a bad token is refused with the API's message; a good one is saved and made current
    refused = cpctl("login", live_stack.api_url, "--token", "not-a-token", "--name", "bad", status=1)
    assert "Invalid token" in refused.stderr and "HTTP 401" in refused.stderr
    cpctl("login", live_stack.api_url, "--token", token, "--name", "live")
    contexts = json.loads(cpctl("context", "list", "-o", "json").stdout)
    assert contexts == [{"current": True, "name": "live", "url": live_stack.api_url}]
    assert token not in cpctl("context", "list").stdout

    # -- a cluster from a kubeconfig file
    added = json.loads(
        cpctl(
            "clusters",
            "add",
            "--name",
            "cli",
            "--kubeconfig",
            str(gateway_cluster.kubeconfig),
            "--base-domain",
            "cli.example.test",
            "-o",
            "json",
        ).stdout
    )
    assert added["name"] == "cli" and "kubeconfig" not in added
    assert "cli.example.test" in cpctl("clusters", "list").stdout

    # -- maintenance windows: a bad entry is refused, named; set, read back, overridden (audited), cleared
    windows_file = tmp_path / "windows.yaml"
    windows_file.write_text("windows:\n- {cron: '0 22 * * *', duration: 4h, timezone: Europe/Berln}\n")
    refused = cpctl("clusters", "windows", "set", "cli", "-f", str(windows_file), status=1)
    assert "windows[0].timezone" in refused.stderr and "not an IANA time zone" in refused.stderr
    windows_file.write_text(
        "windows:\n- {cron: '0 22 * * *', duration: 4h, timezone: Europe/Berlin}\n"
        "freezes:\n- {start: '2030-12-20T00:00:00+01:00', end: '2031-01-04T00:00:00+01:00'}\n"
    )
    cpctl("clusters", "windows", "set", "cli", "-f", str(windows_file))
    shown = json.loads(cpctl("clusters", "windows", "get", "cli", "-o", "json").stdout)
    assert shown["maintenance_windows"]["windows"] == [
        {"cron": "0 22 * * *", "duration": "4h", "timezone": "Europe/Berlin"}
    ]
    assert shown["status"]["maintenance_window"]["next_start"] is not None
    assert "NEXT START" in cpctl("clusters", "windows", "get", "cli").stdout
    overridden = json.loads(
        cpctl("clusters", "override-window", "cli", "--reason", "cli test", "--minutes", "5", "-o", "json").stdout
    )
    assert overridden["status"]["maintenance_window"]["open"] is True
    assert overridden["status"]["maintenance_window"]["override_reason"] == "cli test"
    windows_file.write_text("{}\n")
    cleared = json.loads(cpctl("clusters", "windows", "set", "cli", "-f", str(windows_file), "-o", "json").stdout)
    assert cleared["maintenance_windows"] == {}

    # -- a release owns the software: chart and images; mixed provenance is refused with the API's reason
    chart, image, supervisor = str(MIRROR_CHART), "ghcr.io/nvidia/openshell/gateway:0.9.0", SUPERVISOR_IMAGE
    mixed = cpctl(
        "releases",
        "create",
        "--name",
        "mixed",
        "--chart",
        chart,
        "--image",
        "quay.io/someone/openshell-gateway:16112bc",
        "--supervisor-image",
        supervisor,
        status=1,
    )
    assert "Mixed provenance" in mixed.stderr and "supervisor_image:" in mixed.stderr
    release = json.loads(
        cpctl(
            "releases",
            "create",
            "--name",
            "cli-v1",
            "--chart",
            chart,
            "--image",
            image,
            "--supervisor-image",
            supervisor,
            "--default",
            "-o",
            "json",
        ).stdout
    )
    assert (release["image"], release["supervisor_image"], release["default"]) == (image, supervisor, True)
    header, row = cpctl("releases", "get", "cli-v1").stdout.splitlines()[:2]
    assert header.split()[:5] == ["NAME", "CHART", "VERSION", "IMAGE", "SUPERVISOR"] and image in row

    # -- a gateway from a YAML file, waited for until Running
    spec = tmp_path / "edge.yaml"
    spec.write_text(SPEC)
    created = json.loads(cpctl("gateways", "apply", "-f", str(spec), "-o", "json").stdout)
    assert created["status"]["phase"] in ("Pending", "Provisioning")
    cpctl("gateways", "wait", "edge", "--for", "phase=Running", "--timeout", "120")

    header, row = cpctl("gateways", "get", "edge").stdout.splitlines()
    assert header.split() == ["NAME", "OWNER", "CLUSTER", "PHASE", "ADDRESS", "ID"]
    address = f"grpcs://{created['namespace']}.cli.example.test:443"
    assert row.split() == ["edge", admin.username, "cli", "Running", address, created["id"]]
    shown = json.loads(cpctl("gateways", "get", created["id"], "-o", "json").stdout)
    assert shown["id"] == created["id"] and shown["labels"] == {"team": "blue"}
    assert shown["status"]["phase"] == "Running" and shown["status"]["route_address"] == address
    assert shown["status"]["release"]["revision"] == 1 and shown["status"]["release"]["status"] == "deployed"
    # The spec overrides the release's gateway image (the test platform allows it); Helm's record says so.
    assert shown["release"] == "cli-v1" and shown["desired_images"]["overridden"]
    assert shown["status"]["deployed_images"] == {
        "image": "ghcr.io/nvidia/openshell/gateway:1.0.0",
        "supervisor_image": SUPERVISOR_IMAGE,
    }
    events = json.loads(cpctl("gateways", "events", "edge", "-o", "json").stdout)
    assert "InstallSucceeded" in {e["reason"] for e in events}
    assert [g["name"] for g in json.loads(cpctl("gateways", "list", "--phase", "Running", "-o", "json").stdout)] == [
        "edge"
    ]

    # -- a plan of a would-be change, then apply updates the same gateway (If-Match from its ETag)
    spec.write_text(SPEC.replace("gateway:1.0.0", "gateway:1.1.0"))
    plan = json.loads(cpctl("gateways", "plan", "-f", str(spec), "-o", "json").stdout)
    assert plan["status"] == "ready" and plan["gateway"] == created["id"]
    assert plan["result"]["action"] == "upgrade"
    assert any(c["after"] == "1.1.0" for c in plan["result"]["values_diff"]), plan["result"]["values_diff"]
    assert "action: upgrade" in cpctl("gateways", "plan", "-f", str(spec)).stdout
    updated = json.loads(cpctl("gateways", "apply", "-f", str(spec), "-o", "json").stdout)
    assert updated["id"] == created["id"] and updated["image"].endswith(":1.1.0") and updated["generation"] == 2

    # -- errors: the API's message and field errors on stderr; not found exits 3; a wait that times out exits 4
    bad = tmp_path / "bad.json"
    body = {"name": "broken", "cluster": "cli", "image": "Not An Image!", "supervisor_image": "sv:1"}
    bad.write_text(json.dumps(body))
    api_fields = admin.post("/api/v1/gateways/", json=body).json()["error"]["fields"]
    failed = cpctl("gateways", "create", "-f", str(bad), status=1)
    assert failed.stdout == ""
    assert "The request is invalid; see fields. (HTTP 400, invalid_image)" in failed.stderr
    assert f"  image: {api_fields['image'][0]}" in failed.stderr.splitlines()
    missing = cpctl("gateways", "get", "nowhere", status=3)
    assert "no gateway named 'nowhere'" in missing.stderr
    timed_out = cpctl("gateways", "wait", "edge", "--for", "phase=Degraded", "--timeout", "1", status=4)
    assert "timed out after 1s" in timed_out.stderr

    # -- delete, and wait until the API answers 404
    deleting = json.loads(cpctl("gateways", "delete", "edge", "-o", "json").stdout)
    assert deleting["status"]["phase"] == "Deleting"
    cpctl("gateways", "wait", created["id"], "--for", "delete", "--timeout", "90")
    gone = cpctl("gateways", "get", created["id"], status=3)
    assert "HTTP 404" in gone.stderr
    assert admin.get(f"/api/v1/gateways/{created['id']}/").status_code == 404

    # -- a catalog served from a real registry: list, get, and its content streamed as JSON lines
    registry.push_image(repository, "v1", [fbc_layer("v1")])
    catalog = admin.post(
        "/api/v1/catalogs/",
        json={
            "name": "cli-catalog",
            "source": {"image": {"ref": f"{registry.host}/{repository}:v1"}},
        },
    )
    assert catalog.status_code == 201, catalog.text

    def serving() -> dict | None:
        shown = json.loads(cpctl("catalogs", "get", "cli-catalog", "-o", "json").stdout)
        conditions = {c["type"]: c["status"] for c in shown["status"]["conditions"]}
        return shown if conditions.get("Serving") == "True" else None

    wait_until(serving, "the catalog to be Serving", timeout=90, interval=1)
    assert cpctl("catalogs", "list").stdout.splitlines()[1].split()[:4] == ["cli-catalog", "0", "Available", "True"]
    assert cpctl("catalogs", "all", "cli-catalog").stdout.encode() == expected_lines("v1")
    etcd = cpctl("catalogs", "metas", "cli-catalog", "--package", "etcd").stdout.encode()
    assert etcd == b"".join(expected_lines("v1").splitlines(keepends=True)[1:4])
    bundles = cpctl("catalogs", "metas", "cli-catalog", "--schema", "olm.bundle", "--package", "etcd").stdout
    assert [json.loads(line)["name"] for line in bundles.splitlines()] == ["etcd.v0.9.4"]
    assert "HTTP 404" in cpctl("catalogs", "all", "no-such-catalog", status=3).stderr
    resynced = json.loads(cpctl("catalogs", "resync", "cli-catalog", "-o", "json").stdout)
    assert resynced["name"] == "cli-catalog" and resynced["status"]["blocked_digest"] == ""
