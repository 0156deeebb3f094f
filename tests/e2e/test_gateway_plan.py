"""Plans end to end: the API, a real worker, the real helm binary (``helm template``) and devcluster."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from kubernetes import client

from tests.e2e.conftest import kube_api
from tests.fixtures.devcluster import DevCluster, start_devcluster
from tests.helpers import release_of

pytestmark = pytest.mark.e2e

IMAGE = "ghcr.io/nvidia/openshell/gateway:1.0.0"
DB_URI = "postgresql://gw:plan-e2e-s3cret@db.example.test:5432/gw"


def gateway_body(cluster: str, **overrides: object) -> dict:
    return {
        "name": "edge",
        "cluster": cluster,
        "image": IMAGE,
        "supervisor_image": "ghcr.io/nvidia/openshell/supervisor:1.0.0",
        "database": {"provider": "external", "uri": DB_URI},
        **overrides,
    }


def finished(response) -> dict:
    """A plan answered with ``?wait``: 200 and ready; never a secret in it."""
    assert response.status_code == 200, response.text
    assert DB_URI not in response.text and "plan-e2e-s3cret" not in response.text
    plan = response.json()
    assert plan["status"] == "ready", plan
    return plan["result"]


@pytest.fixture
def bare_cluster(tmp_path) -> Iterator[DevCluster]:
    """A cluster without the Agent Sandbox API (no ``agent-sandbox`` preset)."""
    with start_devcluster(tmp_path / "bare", ready_delay=0.3) as dc:
        yield dc


def test_noop_then_image_change_shows_exactly_the_statefulset_image(
    tenant, api_session, wait_for_phase, gateway_cluster, register
) -> None:
    register(gateway_cluster, "k8s")
    created = tenant.post("/api/v1/gateways/", json=gateway_body("k8s"))
    assert created.status_code == 201, created.text
    gw_id = created.json()["id"]
    wait_for_phase(gw_id, "Running")

    noop = finished(tenant.post(f"/api/v1/gateways/{gw_id}/plan/?wait=30"))
    assert noop["action"] == "nothing", noop
    assert noop["values_diff"] == [] and noop["objects"] == [] and noop["unchanged_objects"] > 0
    assert noop["release"]["revision"] == 1 and noop["render_error"] is None
    assert {c["name"]: c["state"] for c in noop["prerequisites"]}["DB credentials Secret"] == "present"

    changed_image = "ghcr.io/nvidia/openshell/gateway:1.1.0"
    change = finished(tenant.post("/api/v1/gateways/plan/?wait=30", json=gateway_body("k8s", image=changed_image)))
    assert change["action"] == "upgrade", change
    assert change["values_diff"] == [{"path": "image.tag", "change": "changed", "before": "1.0.0", "after": "1.1.0"}]
    (sts,) = change["objects"]
    release = release_of(created.json()["namespace"])  # the mirror chart names its StatefulSet after the release
    assert (sts["kind"], sts["name"], sts["change"]) == ("StatefulSet", release, "changed")
    assert sts["fields"] == [
        {
            "path": "spec.template.spec.containers[0].image",
            "change": "changed",
            "before": IMAGE,
            "after": changed_image,
        }
    ]
    assert f"-        image: {IMAGE}" in sts["diff"] and f"+        image: {changed_image}" in sts["diff"]
    assert tenant.get(f"/api/v1/gateways/{gw_id}/").json()["image"] == IMAGE, "a plan changes nothing"

    # Another tenant sees neither the gateway's plans nor this plan.
    plan_id = tenant.post(f"/api/v1/gateways/{gw_id}/plan/").json()["id"]
    other = api_session("other-tenant", admin=False)
    assert other.post(f"/api/v1/gateways/{gw_id}/plan/").status_code == 404
    assert other.get(f"/api/v1/gateways/plans/{plan_id}/").status_code == 404


def test_would_be_gateway_plans_an_install_and_creates_nothing(tenant, gateway_cluster, register) -> None:
    register(gateway_cluster, "k8s")
    before = {ns.metadata.name for ns in client.CoreV1Api(kube_api(gateway_cluster)).list_namespace().items}
    response = tenant.post("/api/v1/gateways/plan/?wait=30", json=gateway_body("k8s", name="newbie"))
    plan = finished(response)
    assert plan["action"] == "install" and plan["release"] is None, plan
    assert {o["change"] for o in plan["objects"]} == {"added"}
    assert "StatefulSet" in {o["kind"] for o in plan["objects"]}
    states = {c["name"]: c["state"] for c in plan["prerequisites"]}
    assert states["Namespace"] == states["DB credentials Secret"] == "will-create"
    assert {
        "path": "server.externalDbSecret",
        "change": "added",
        "before": None,
        "after": "newbie-db-credentials",
    } in plan["values_diff"]
    # The cluster has the default network_policy (off): the values the worker would render turn the chart's off.
    assert {"path": "networkPolicy.enabled", "change": "added", "before": None, "after": False} in plan["values_diff"]
    assert "NetworkPolicy" not in {o["kind"] for o in plan["objects"]}
    assert tenant.get("/api/v1/gateways/").json()["count"] == 0
    after = {ns.metadata.name for ns in client.CoreV1Api(kube_api(gateway_cluster)).list_namespace().items}
    assert after == before and not [ns for ns in after if ns.startswith("gw-newbie-")]


def test_cluster_without_agent_sandbox_is_blocked_naming_it(tenant, bare_cluster, register) -> None:
    register(bare_cluster, "bare")
    plan = finished(tenant.post("/api/v1/gateways/plan/?wait=30", json=gateway_body("bare")))
    assert plan["action"] == "blocked", plan
    assert any("agents.x-k8s.io/v1alpha1" in reason for reason in plan["reasons"])
    api = {c["name"]: c for c in plan["prerequisites"]}["API Agent Sandbox (agents.x-k8s.io)"]
    assert api["state"] == "missing" and "Agent Sandbox" in api["message"]
    assert "preflight" in plan["render_error"] and plan["objects"] == []


def test_bad_would_be_spec_is_400_in_the_error_shape(tenant, gateway_cluster, register) -> None:
    register(gateway_cluster, "k8s")
    response = tenant.post("/api/v1/gateways/plan/", json=gateway_body("k8s", image="Bad Image"))
    assert response.status_code == 400
    error = response.json()["error"]
    assert error["status"] == 400 and "image" in error["fields"]
