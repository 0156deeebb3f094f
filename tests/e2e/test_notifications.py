"""Notifications on the live stack: real worker and beat, a real HTTP receiver on loopback (allowed by
NOTIFICATIONS_ALLOW_PRIVATE_ADDRESSES in the stack), events from the real reconcilers and cluster probe.

The receiver answers 500 to the first request of every delivery, so each notification is delivered after one
forced retry. A second test kills the worker while the receiver holds a request, and checks the guarantee:
the delivery is sent again with the same idempotency key (the receiver dedupes on it), it ends delivered, and
a delivery recorded as delivered is never sent again.
"""

from __future__ import annotations

import hashlib
import hmac
import json
import signal
from collections.abc import Callable
from typing import Any

import pytest
from cryptography.hazmat.primitives.asymmetric import ec

from controlplane.celery import app
from controlplane.models import ManagedCluster
from controlplane.tasks import TaskName
from tests.fixtures.charts import MIRROR_CHART, copy_chart
from tests.fixtures.devcluster import DevCluster
from tests.fixtures.receiver import HOLD, Receiver, Seen
from tests.fixtures.registry import Registry, fbc_layer, public_pem
from tests.fixtures.stack import E2E_BROKER_URL, ApiSession, Stack
from tests.helpers import KUBECONFIG
from tests.waiting import wait_until

pytestmark = pytest.mark.e2e

SECRET = "e2e-notification-signing-secret"
IMAGES = {
    "image": "ghcr.io/nvidia/openshell/gateway:1.0.0",
    "supervisor_image": "ghcr.io/nvidia/openshell/supervisor:1",
}


@pytest.fixture
def admin(api_session: Callable[..., ApiSession]) -> ApiSession:
    return api_session("notify-admin")


def signed(seen: Seen) -> bool:
    material = seen.headers["X-Controlplane-Timestamp"].encode() + b"." + seen.body
    expected = "sha256=" + hmac.new(SECRET.encode(), material, hashlib.sha256).hexdigest()
    return hmac.compare_digest(seen.headers.get("X-Controlplane-Signature", ""), expected)


def create(session: ApiSession, path: str, body: dict[str, Any]) -> dict[str, Any]:
    response = session.post(path, json=body)
    assert response.status_code == 201, response.text
    return response.json()


def add_receiver(admin: ApiSession, receiver: Receiver) -> None:
    create(
        admin,
        "/api/v1/receivers/",
        {
            "name": "e2e-hook",
            "kind": "webhook",
            "url": f"{receiver.url}/hook",
            "secret": SECRET,
            "tenants_may_subscribe": True,
        },
    )


def accepted(receiver: Receiver) -> dict[str, list[Seen]]:
    """The requests of each delivery key the receiver has seen."""
    by_key: dict[str, list[Seen]] = {}
    for seen in receiver.requests():
        by_key.setdefault(seen.key, []).append(seen)
    return by_key


def test_failed_gateway_halted_rollout_invalid_signature_and_lost_cluster_each_reach_the_receiver_once(
    admin: ApiSession,
    tenant: ApiSession,
    receiver: Receiver,
    gateway_cluster: DevCluster,
    registry: Registry,
    repository: str,
    tmp_path_factory: pytest.TempPathFactory,
    register,
) -> None:
    receiver.answer = lambda seen, earlier: 500 if earlier == 0 else 200
    add_receiver(admin, receiver)
    create(
        tenant,
        "/api/v1/subscriptions/",
        {
            "name": "failed-gateways",
            "receiver": "e2e-hook",
            "kinds": ["gateway"],
            "min_severity": "critical",
            "labels": {"alert": "yes"},
        },
    )
    create(
        admin,
        "/api/v1/subscriptions/",
        {
            "name": "halts-signatures-outages",
            "receiver": "e2e-hook",
            "kinds": ["rollout", "catalog", "cluster"],
            "reasons": ["GateFailed", "SignatureInvalid", "Unreachable"],
        },
    )
    v2 = copy_chart(tmp_path_factory.mktemp("notify-charts") / "v2", "0.2.0")
    create(admin, "/api/v1/releases/", {"name": "v1", "chart": str(MIRROR_CHART), "default": True})
    create(admin, "/api/v1/releases/", {"name": "v2", "chart": str(v2)})

    # A gateway whose installs keep failing goes Failed after five attempts; so does the rollout's canary.
    register(gateway_cluster, "notify")
    fault = gateway_cluster.add_fault(
        path_regex=r"/apis/apps/v1/namespaces/gw-(broken|canary)-[^/]+/statefulsets/", method="PATCH", status=500
    )
    try:
        broken = create(
            tenant, "/api/v1/gateways/", {"name": "broken", "cluster": "notify", "labels": {"alert": "yes"}, **IMAGES}
        )
        create(
            tenant, "/api/v1/gateways/", {"name": "canary", "cluster": "notify", "labels": {"ring": "canary"}, **IMAGES}
        )
        rollout = create(
            admin,
            "/api/v1/rollouts/",
            {
                "name": "to-v2",
                "target_release": "v2",
                "selector": {"labels": {"ring": "canary"}},
                "waves": {"percentages": [100]},
                "max_parallel": 1,
                "bake_seconds": 1,
                "gate_timeout_seconds": 3,
                "failure_policy": "halt",
            },
        )
        # A catalog whose image has no signature by the policy's key.
        registry.push_image(repository, "v1", [fbc_layer("v1")])
        catalog = create(
            admin,
            "/api/v1/catalogs/",
            {
                "name": "unsigned",
                "source": {"image": {"ref": f"{registry.host}/{repository}:v1"}},
                "signature_policy": {"public_keys": public_pem(ec.generate_private_key(ec.SECP256R1()))},
            },
        )
        # A cluster that does not answer beat's probe.
        lost = ManagedCluster.objects.create(name="lost", kubeconfig=KUBECONFIG, base_domain="lost.example.test")

        def all_delivered() -> list[dict[str, Any]] | None:
            rows = admin.get("/api/v1/deliveries/?limit=50").json()["results"]
            return rows if len(rows) == 4 and all(r["status"] == "delivered" for r in rows) else None

        deliveries = wait_until(all_delivered, "four notifications to be delivered", timeout=90, interval=0.5)
    finally:
        gateway_cluster.call("DELETE", f"/_devcluster/faults/{fault}")

    by_object = {d["object_id"]: d for d in deliveries}
    assert set(by_object) == {broken["id"], rollout["id"], catalog["id"], str(lost.pk)}
    assert all(d["attempts"] == 2 and d["response_code"] == 200 for d in deliveries)
    seen = accepted(receiver)
    assert set(seen) == {d["idempotency_key"] for d in deliveries}
    for key, requests in seen.items():
        # Exactly once after the forced retry: a 500, then one 200, with the same key and body, both signed.
        assert len(requests) == 2 and requests[0].body == requests[1].body, key
        assert all(signed(r) and r.path == "/hook" for r in requests), key
    payloads = {json.loads(requests[1].body)["kind"]: json.loads(requests[1].body) for requests in seen.values()}
    gateway, halted, signature, outage = (payloads[k] for k in ("gateway", "rollout", "catalog", "cluster"))
    assert gateway["version"] == "v1" and gateway["name"] == "broken" and gateway["cluster"] == "notify"
    assert (gateway["phase"], gateway["severity"]) == ("Failed", "critical")
    assert gateway["reason"] in ("InstallFailed", "UpgradeFailed")
    assert gateway["link"].endswith(f"/api/v1/gateways/{broken['id']}/")
    assert (halted["name"], halted["reason"], halted["severity"]) == ("to-v2", "GateFailed", "critical")
    assert (signature["name"], signature["reason"], signature["severity"]) == (
        "unsigned",
        "SignatureInvalid",
        "critical",
    )
    assert (outage["name"], outage["reason"], outage["severity"], outage["phase"]) == (
        "lost",
        "Unreachable",
        "warning",
        "Unreachable",
    )
    # The delivery log: a tenant sees the deliveries of their own subscription only.
    mine = tenant.get("/api/v1/deliveries/").json()["results"]
    assert [d["object_name"] for d in mine] == ["broken"]


def test_a_worker_killed_mid_delivery_resends_with_the_same_key_and_never_after_delivered(
    admin: ApiSession,
    tenant: ApiSession,
    receiver: Receiver,
    gateway_cluster: DevCluster,
    live_stack: Stack,
    register,
) -> None:
    receiver.answer = lambda seen, earlier: HOLD if earlier == 0 else 200
    add_receiver(admin, receiver)
    create(
        tenant,
        "/api/v1/subscriptions/",
        {"name": "installs", "receiver": "e2e-hook", "kinds": ["gateway"], "reasons": ["InstallSucceeded"]},
    )
    register(gateway_cluster, "notify-kill")
    create(tenant, "/api/v1/gateways/", {"name": "victim", "cluster": "notify-kill", **IMAGES})

    [held] = wait_until(lambda: receiver.requests(), "the worker to send the notification")
    live_stack.stop("worker", sig=signal.SIGKILL)  # mid-delivery: the receiver got it, the worker never heard back
    receiver.release()
    live_stack.start_worker()

    def delivered() -> dict[str, Any] | None:
        rows = tenant.get("/api/v1/deliveries/").json()["results"]
        return rows[0] if rows and rows[0]["status"] == "delivered" else None

    row = wait_until(delivered, "the delivery to be sent again once its claim lapsed", timeout=60, interval=0.5)
    first, second = receiver.requests()
    assert first.key == second.key == row["idempotency_key"] == held.key  # the receiver can dedupe
    assert first.body == second.body and signed(first) and signed(second)
    assert row["attempts"] == 2

    # A redelivered task message (acks_late) for a delivered row is dropped by the worker, not sent.
    with app.connection_for_write(E2E_BROKER_URL) as connection:
        app.send_task(TaskName.DELIVER_NOTIFICATION, args=[row["id"]], connection=connection)
    marker = f"delivery {row['id']} is already delivered; not sent again"
    wait_until(lambda: marker in live_stack.log("worker"), "the worker to skip the delivered row")
    assert len(receiver.requests()) == 2
