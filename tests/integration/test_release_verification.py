"""Verified releases with real signatures: the worker verifies a release's chart and images before it is Ready,
and its gateways run exactly the digests it verified.

Real parts: the tests' own registry (Debian's docker-registry) holding images, an OCI chart pushed by the real helm,
and cosign signatures in cosign's format made with keys the tests generate; the worker's release validation and
passes (`run_pass`) on PostgreSQL rows; the real helm binary with the mirror chart; devcluster over HTTP, whose pods
and Helm records say what runs.
"""

from __future__ import annotations

import hashlib
import os
import subprocess
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from cryptography.hazmat.primitives import serialization
from cryptography.hazmat.primitives.asymmetric import ec

from controlplane.models import ManagedCluster
from gateways.choices import ReleaseReason, ReleaseStatus
from gateways.models import Gateway, GatewayRelease, ReleaseEvent
from notifications.models import Delivery, Receiver, Subscription
from tests.fixtures.charts import copy_chart, helm_json, push_chart
from tests.fixtures.devcluster import DevCluster, start_devcluster
from tests.fixtures.registry import (
    Registry,
    cosign_signature,
    file_entry,
    public_pem,
    simple_signing_payload,
    tar_bytes,
)
from tests.fixtures.registry_proxy import RegistryProxy
from tests.helpers import converge_by_passes
from tests.paths import HELM, MIRROR_CHART
from workers import releases, singletons
from workers.reconcile.gateway.passes.request_from_rows import build_request
from workers.reconcile.gateway.passes.run import run_pass

pytestmark = [pytest.mark.integration, pytest.mark.django_db(transaction=True)]


@pytest.fixture(scope="module")
def trusted() -> ec.EllipticCurvePrivateKey:
    return ec.generate_private_key(ec.SECP256R1())  # cosign generate-key-pair's default


@pytest.fixture(scope="module")
def stranger() -> ec.EllipticCurvePrivateKey:
    return ec.generate_private_key(ec.SECP256R1())


@pytest.fixture(scope="module")
def k8s(tmp_path_factory: pytest.TempPathFactory) -> Iterator[DevCluster]:
    with start_devcluster(tmp_path_factory.mktemp("verified-k8s"), extra_presets=("agent-sandbox",)) as dc:
        yield dc


@pytest.fixture
def worker(mirror_worker: None, settings: Any) -> Any:
    """This process as a worker with the mirror chart, its own HELM_HOME and a fresh chart cache."""
    return settings


@pytest.fixture
def cluster_row(k8s: DevCluster, request: pytest.FixtureRequest) -> ManagedCluster:
    name = "c-" + hashlib.sha256(request.node.name.encode()).hexdigest()[:10]
    return ManagedCluster.objects.create(
        name=name, kubeconfig=k8s.kubeconfig.read_text(), base_domain=f"{name}.example.test"
    )


def push_binary(registry: Registry, repository: str, tag: str, content: bytes) -> str:
    """Push a one-layer image whose layer holds ``content``; its manifest digest."""
    return registry.push_image(repository, tag, [tar_bytes([file_entry("bin/app", content)])], labels={})


def packaged_digest(chart: Path, workdir: Path) -> str:
    """sha256 of the chart as `helm package` packs it (what a platform admin records as chart_digest)."""
    env = {
        **os.environ,
        "HOME": str(workdir),
        "HELM_CACHE_HOME": str(workdir / "c"),
        "HELM_CONFIG_HOME": str(workdir / "cfg"),
        "HELM_DATA_HOME": str(workdir / "d"),
    }
    out = subprocess.run([HELM, "package", chart, "-d", workdir], env=env, capture_output=True, text=True, check=True)
    archive = Path(out.stdout.strip().rsplit(": ", 1)[1])
    return "sha256:" + hashlib.sha256(archive.read_bytes()).hexdigest()


class Images:
    """A gateway and a supervisor image pushed under ``<base>/gateway`` and ``<base>/supervisor`` at tag 1.0."""

    def __init__(self, registry: Registry, base: str, host: str | None = None) -> None:
        self.registry, self.base, self.host = registry, base, host or registry.host
        self.gateway = push_binary(registry, f"{base}/gateway", "1.0", f"gateway 1.0 of {base}".encode())
        self.supervisor = push_binary(registry, f"{base}/supervisor", "1.0", f"supervisor 1.0 of {base}".encode())

    def refs(self) -> dict[str, str]:
        return {
            "image": f"{self.host}/{self.base}/gateway:1.0",
            "supervisor_image": f"{self.host}/{self.base}/supervisor:1.0",
        }

    def sign(self, key: ec.EllipticCurvePrivateKey) -> None:
        self.registry.sign(f"{self.base}/gateway", self.gateway, key)
        self.registry.sign(f"{self.base}/supervisor", self.supervisor, key)


def make_gateway(owner: Any, cluster: ManagedCluster, release: GatewayRelease, name: str = "edge") -> Gateway:
    gateway = Gateway(owner=owner, cluster=cluster, name=name, release=release)
    gateway.assign_namespace()
    gateway.save()
    return gateway


def running(gateway: Gateway) -> bool:
    return gateway.phase == "Running"


def pod_images(dc: DevCluster, namespace: str) -> set[str]:
    pods = dc.call("GET", f"/api/v1/namespaces/{namespace}/pods")["items"]
    return {container["image"] for pod in pods for container in pod["spec"]["containers"]}


def helm_history(dc: DevCluster, workdir: Path, gateway: Gateway) -> list[dict[str, Any]]:
    """Helm's own record of the gateway's release on the cluster ([] when it was never installed)."""
    listed = helm_json(dc.kubeconfig, workdir, "list", "-n", gateway.namespace)
    if not any(entry["name"] == gateway.helm_release for entry in listed):
        return []
    return helm_json(dc.kubeconfig, workdir, "history", gateway.helm_release, "-n", gateway.namespace)


def test_a_signed_release_is_ready_with_its_digests_and_its_pods_run_them_even_after_the_tag_moves(
    registry: Registry,
    repository: str,
    trusted,
    stranger,
    worker,
    k8s,
    cluster_row,
    alice,
    admin_api,
    tmp_path: Path,
) -> None:
    images = Images(registry, repository)
    images.sign(trusted)
    _, chart_digest = push_chart(MIRROR_CHART, registry.host, repository, tmp_path / "push")
    registry.sign(f"{repository}/openshell-gateway", chart_digest, trusted)
    release = GatewayRelease.objects.create(
        name="signed",
        chart=f"oci://{registry.host}/{repository}/openshell-gateway",
        version="0.1.0",
        signature_keys=public_pem(stranger) + public_pem(trusted),
        **images.refs(),
    )

    release = releases.validate(release)

    assert (release.status, release.reason, release.message) == (ReleaseStatus.READY, "", "")
    verified = release.verified_digests
    der = trusted.public_key().public_bytes(serialization.Encoding.DER, serialization.PublicFormat.SubjectPublicKeyInfo)
    fingerprint = "sha256:" + hashlib.sha256(der).hexdigest()
    assert (verified["chart"], verified["image"], verified["supervisor_image"], verified["key"]) == (
        chart_digest,
        images.gateway,
        images.supervisor,
        fingerprint,
    )
    assert verified["verified_at"] and not ReleaseEvent.objects.filter(release=release).exists()

    gateway = converge_by_passes(make_gateway(alice, cluster_row, release), running)
    pinned = {
        f"{registry.host}/{repository}/gateway@{images.gateway}",
        f"{registry.host}/{repository}/supervisor@{images.supervisor}",
    }
    assert pod_images(k8s, gateway.namespace) == pinned
    shown = admin_api.get(f"/api/v1/gateways/{gateway.pk}/").json()["status"]["deployed_images"]
    assert {shown["image"], shown["supervisor_image"]} == pinned
    history = helm_history(k8s, tmp_path / "h", gateway)
    assert [entry["chart"] for entry in history] == ["openshell-gateway-0.1.0"]

    # The tag is pushed again (new content, even signed by the trusted key): nothing that runs changes.
    moved = push_binary(registry, f"{repository}/gateway", "1.0", b"gateway 1.0, pushed again")
    registry.sign(f"{repository}/gateway", moved, trusted)
    assert moved != images.gateway
    singletons.chart.cache_clear()  # as a restarted worker: the chart is loaded again, by its verified digest
    for _ in range(3):
        run_pass(str(gateway.pk))
    gateway.refresh_from_db()
    assert gateway.phase == "Running" and pod_images(k8s, gateway.namespace) == pinned
    assert len(helm_history(k8s, tmp_path / "h", gateway)) == 1
    assert GatewayRelease.objects.get(pk=release.pk).verified_digests == verified


def test_a_local_chart_is_installed_from_the_archive_that_was_hashed(
    registry: Registry,
    repository: str,
    trusted,
    worker,
    k8s,
    cluster_row,
    alice,
    tmp_path: Path,
) -> None:
    images = Images(registry, repository)
    images.sign(trusted)
    chart = copy_chart(tmp_path / "chart", "0.1.0")
    release = GatewayRelease.objects.create(
        name="local",
        chart=str(chart),
        chart_digest=packaged_digest(chart, tmp_path / "pkg"),
        signature_keys=public_pem(trusted),
        **images.refs(),
    )
    release = releases.validate(release)
    assert release.status == ReleaseStatus.READY and release.verified_digests["chart"] == release.chart_digest
    kept = Path(worker.HELM_HOME) / "charts" / "verified" / (release.chart_digest.replace(":", "-") + ".tgz")
    assert "sha256:" + hashlib.sha256(kept.read_bytes()).hexdigest() == release.chart_digest

    copy_chart(tmp_path / "other", "6.6.6")  # the directory changes after verification: not what gets installed
    (chart / "Chart.yaml").write_text((tmp_path / "other" / "Chart.yaml").read_text())
    singletons.chart.cache_clear()
    gateway = converge_by_passes(make_gateway(alice, cluster_row, release), running)
    assert [entry["chart"] for entry in helm_history(k8s, tmp_path / "h", gateway)] == ["openshell-gateway-0.1.0"]


def sign_other_digest(registry: Registry, repository: str, digest: str, key: ec.EllipticCurvePrivateKey) -> None:
    """A trusted signature under ``digest``'s tag whose payload names another image."""
    payload = simple_signing_payload(f"{registry.host}/{repository}", "sha256:" + "e" * 64)
    registry.push_signatures(repository, digest, [(payload, cosign_signature(key, payload))])


FAILURES = {
    "unsigned image": (
        lambda images, trusted, stranger: images.registry.sign(f"{images.base}/supervisor", images.supervisor, trusted),
        "image",
        "no cosign signature found",
    ),
    "signed by another key": (
        lambda images, trusted, stranger: images.sign(stranger),
        "image",
        "no signature by a trusted key",
    ),
    "payload naming another digest": (
        lambda images, trusted, stranger: (
            images.registry.sign(f"{images.base}/supervisor", images.supervisor, trusted),
            sign_other_digest(images.registry, f"{images.base}/gateway", images.gateway, trusted),
        ),
        "image",
        "payload digest mismatch",
    ),
    "chart digest mismatch": (
        lambda images, trusted, stranger: images.sign(trusted),
        "chart",
        "its packaged digest is",
    ),
}


@pytest.mark.parametrize("case", sorted(FAILURES))
def test_a_release_that_does_not_verify_is_invalid_and_nothing_is_installed_or_upgraded_from_it(
    case: str,
    registry: Registry,
    repository: str,
    trusted,
    stranger,
    worker,
    k8s,
    cluster_row,
    alice,
    admin_user,
    tmp_path: Path,
) -> None:
    prepare, artefact, reason = FAILURES[case]
    hook = Receiver.objects.create(name="hook", url="https://hooks.example.test/releases", secret="s")
    Subscription.objects.create(
        owner=admin_user,
        name="trust",
        receiver=hook,
        kinds=["release"],
        reasons=["VerificationFailed"],
        min_severity="critical",
    )
    good_images = Images(registry, repository + "/good")
    good_images.sign(trusted)
    chart_digest = packaged_digest(MIRROR_CHART, tmp_path / "pkg")
    good = GatewayRelease.objects.create(
        name="good",
        chart=str(MIRROR_CHART),
        chart_digest=chart_digest,
        signature_keys=public_pem(trusted),
        **good_images.refs(),
    )
    running_gateway = converge_by_passes(make_gateway(alice, cluster_row, good, "running"), running)

    images = Images(registry, repository + "/bad")
    prepare(images, trusted, stranger)
    other = copy_chart(tmp_path / "other-chart", "0.2.0")
    bad_digest = packaged_digest(other, tmp_path / "pkg-other") if artefact == "chart" else chart_digest
    bad = GatewayRelease.objects.create(
        name="bad",
        chart=str(MIRROR_CHART),
        chart_digest=bad_digest,
        signature_keys=public_pem(trusted),
        **images.refs(),
    )

    bad = releases.validate(bad)

    assert (bad.status, bad.reason) == (ReleaseStatus.INVALID, ReleaseReason.VERIFICATION_FAILED)
    assert bad.message.startswith(f"verification failed: {artefact} ") and reason in bad.message, bad.message
    assert bad.verified_digests == {}
    (event,) = ReleaseEvent.objects.filter(release=bad)
    assert (event.type, event.reason, event.message) == ("Warning", "VerificationFailed", bad.message)
    assert releases.validate(bad).status == ReleaseStatus.INVALID  # the verdict stands; no second event
    assert ReleaseEvent.objects.filter(release=bad).count() == 1
    (notified,) = Delivery.objects.all()  # matched when the verdict was committed
    payload = notified.payload
    assert (notified.reason, notified.severity, payload["kind"]) == ("VerificationFailed", "critical", "release")
    assert payload["link"].endswith(f"/api/v1/releases/{bad.pk}/") and payload["message"] == bad.message

    # A new gateway on it is never installed, and a running one moved to it (as a rollout would) is not upgraded.
    fresh = make_gateway(alice, cluster_row, bad, "fresh")
    running_gateway.release = bad
    running_gateway.save()
    for _ in range(2):
        run_pass(str(fresh.pk))
        run_pass(str(running_gateway.pk))
    assert helm_history(k8s, tmp_path / "h", fresh) == []
    assert len(helm_history(k8s, tmp_path / "h", running_gateway)) == 1
    for gateway in (fresh, running_gateway):
        gateway.refresh_from_db()
        stalled = {c["type"]: c for c in gateway.conditions}["Stalled"]
        assert "Release bad is Invalid" in stalled["message"] and reason in stalled["message"]


def test_a_registry_down_during_verification_is_retried_never_passed(
    registry_proxy: RegistryProxy,
    repository: str,
    trusted,
    worker,
    k8s,
    cluster_row,
    alice,
    tmp_path: Path,
) -> None:
    images = Images(registry_proxy.target, repository, host=registry_proxy.host)
    images.sign(trusted)
    release = GatewayRelease.objects.create(
        name="outage",
        chart=str(MIRROR_CHART),
        chart_digest=packaged_digest(MIRROR_CHART, tmp_path / "pkg"),
        signature_keys=public_pem(trusted),
        **images.refs(),
    )
    gateway = make_gateway(alice, cluster_row, release)
    registry_proxy.fail_with = 503
    try:
        pending = releases.validate(release)
        assert (pending.status, pending.reason) == (ReleaseStatus.PENDING, ReleaseReason.REGISTRY_UNAVAILABLE)
        assert "503" in pending.message and pending.verified_digests == {} and pending.validated_at is None
        run_pass(str(gateway.pk))
        assert helm_history(k8s, tmp_path / "h", gateway) == []
        gateway.refresh_from_db()
        assert "is not verified yet" in {c["type"]: c for c in gateway.conditions}["Stalled"]["message"]
    finally:
        registry_proxy.fail_with = None
    assert not ReleaseEvent.objects.filter(release=release).exists()
    ready = releases.validate(GatewayRelease.objects.get(pk=release.pk))
    assert (ready.status, ready.reason, ready.verified_digests["image"]) == ("Ready", "", images.gateway)
    gateway = converge_by_passes(gateway, running)
    assert f"{registry_proxy.host}/{repository}/gateway@{images.gateway}" in pod_images(k8s, gateway.namespace)


def test_a_cluster_that_requires_signed_releases_stalls_a_gateway_on_an_unsigned_one(worker, cluster, alice) -> None:
    """The worker refuses what the API refuses: a gateway from before the requirement is not installed or upgraded."""
    unsigned = GatewayRelease.objects.create(
        name="unsigned", chart=str(MIRROR_CHART), image="r.test/gw:1", supervisor_image="r.test/sv:1"
    )
    gateway = make_gateway(alice, cluster, unsigned)
    ManagedCluster.objects.filter(pk=cluster.pk).update(require_signed_releases=True)
    gateway = Gateway.objects.select_related("cluster", "release").get(pk=gateway.pk)
    chart, inputs = releases.load(gateway)
    assert chart is releases.UNAVAILABLE and "runs only signed releases" in inputs.problem
    request = build_request(gateway, chart, gateway.created_at, inputs)
    assert request.values is None and "release unsigned has no signature_policy" in request.values_error


def verified_condition(conditions: list[dict[str, Any]]) -> tuple[str, str, str]:
    found = next(c for c in conditions if c["type"] == "Verified")
    return found["status"], found["reason"], found["message"]


def test_changing_the_keys_verifies_what_runs_again_and_a_release_that_fails_upgrades_nothing(
    registry: Registry,
    repository: str,
    trusted,
    stranger,
    worker,
    k8s,
    cluster_row,
    alice,
    admin_user,
    admin_api,
    tmp_path: Path,
) -> None:
    hook = Receiver.objects.create(name="hook", url="https://hooks.example.test/releases", secret="s")
    Subscription.objects.create(owner=admin_user, name="trust", receiver=hook, kinds=["release"])
    chart_digest = packaged_digest(MIRROR_CHART, tmp_path / "pkg")
    rotated_images, other_images = Images(registry, repository + "/r"), Images(registry, repository + "/o")
    rotated_images.sign(trusted)
    other_images.sign(trusted)
    rotated, other = (
        releases.validate(
            GatewayRelease.objects.create(
                name=name,
                chart=str(MIRROR_CHART),
                chart_digest=chart_digest,
                signature_keys=public_pem(trusted),
                **images.refs(),
            )
        )
        for name, images in (("rotated", rotated_images), ("other", other_images))
    )
    assert verified_condition(rotated.conditions)[:2] == ("True", "Verified")
    on_rotated = converge_by_passes(make_gateway(alice, cluster_row, rotated, "on-rotated"), running)
    moving = converge_by_passes(make_gateway(alice, cluster_row, other, "moving"), running)
    assert verified_condition(on_rotated.conditions)[:2] == ("True", "ReleaseVerified")
    pinned = pod_images(k8s, on_rotated.namespace)

    # The keys change to a key that signed nothing of it: the pinned digests no longer verify.
    url = f"/api/v1/releases/{rotated.pk}/"
    patched = admin_api.patch(url, {"signature_policy": {"public_keys": public_pem(stranger)}}, format="json")
    assert patched.status_code == 200, patched.content
    rotated = releases.validate(GatewayRelease.objects.get(pk=rotated.pk))  # what the enqueued task runs
    status, reason, message = verified_condition(rotated.conditions)
    assert (rotated.status, status, reason) == ("Ready", "False", "VerificationFailed")
    assert "no signature by a trusted key" in message and f"image {rotated_images.refs()['image']}" in message
    (event,) = ReleaseEvent.objects.filter(release=rotated)
    assert event.message == message and Delivery.objects.get().reason == "VerificationFailed"
    shown = admin_api.get(url).json()["status"]["conditions"]
    assert verified_condition(shown) == (status, reason, message)
    refused = admin_api.post("/api/v1/rollouts/", {"name": "to-rotated", "target_release": "rotated"}, format="json")
    assert refused.status_code == 400 and "no signature by a trusted key" in str(refused.json()["error"]["fields"])

    Gateway.objects.filter(pk=moving.pk).update(release=rotated)  # a rollout moves it
    moving = Gateway.objects.get(pk=moving.pk)
    moving.generation += 1
    moving.save(update_fields=["generation"])
    for gateway in (on_rotated, moving):
        for _ in range(2):
            run_pass(str(gateway.pk))
        gateway.refresh_from_db()
        assert gateway.phase == "Running", gateway.conditions  # running pods keep running
        assert verified_condition(gateway.conditions)[:2] == ("False", "ReleaseUnverified")
        assert len(helm_history(k8s, tmp_path / "h", gateway)) == 1  # no upgrade from it
    assert pod_images(k8s, on_rotated.namespace) == pinned
    assert pod_images(k8s, moving.namespace) == {
        f"{registry.host}/{repository}/o/gateway@{other_images.gateway}",
        f"{registry.host}/{repository}/o/supervisor@{other_images.supervisor}",
    }

    # Keys that verify it again: the gateway waiting for it is upgraded to the digests it pinned.
    both = public_pem(stranger) + public_pem(trusted)
    assert admin_api.patch(url, {"signature_policy": {"public_keys": both}}, format="json").status_code == 200
    rotated = releases.validate(GatewayRelease.objects.get(pk=rotated.pk))
    assert verified_condition(rotated.conditions)[:2] == ("True", "Verified")
    moving = converge_by_passes(moving, lambda g: running(g) and g.release_revision == 2)
    assert pod_images(k8s, moving.namespace) == {
        f"{registry.host}/{repository}/r/gateway@{rotated_images.gateway}",
        f"{registry.host}/{repository}/r/supervisor@{rotated_images.supervisor}",
    }
    assert verified_condition(moving.conditions)[:2] == ("True", "ReleaseVerified")
    assert ReleaseEvent.objects.filter(release=rotated).count() == 1


def test_a_registry_down_when_the_keys_change_leaves_the_release_unknown_and_is_checked_again(
    registry_proxy: RegistryProxy,
    repository: str,
    trusted,
    stranger,
    worker,
    admin_api,
    tmp_path: Path,
) -> None:
    images = Images(registry_proxy.target, repository, host=registry_proxy.host)
    images.sign(trusted)
    release = releases.validate(
        GatewayRelease.objects.create(
            name="rotating",
            chart=str(MIRROR_CHART),
            chart_digest=packaged_digest(MIRROR_CHART, tmp_path / "pkg"),
            signature_keys=public_pem(trusted),
            **images.refs(),
        )
    )
    assert release.status == ReleaseStatus.READY and release.trust_problem() is None
    url = f"/api/v1/releases/{release.pk}/"
    both = public_pem(stranger) + public_pem(trusted)
    assert admin_api.patch(url, {"signature_policy": {"public_keys": both}}, format="json").status_code == 200
    registry_proxy.fail_with = 503
    try:
        release = releases.validate(GatewayRelease.objects.get(pk=release.pk))
        status, reason, message = verified_condition(release.conditions)
        assert (status, reason) == ("Unknown", "RegistryUnavailable") and "503" in message
        assert "is not verified: cannot verify" in release.trust_problem()  # nothing more runs from it meanwhile
    finally:
        registry_proxy.fail_with = None
    assert not ReleaseEvent.objects.filter(release=release).exists()
    release = releases.validate(GatewayRelease.objects.get(pk=release.pk))  # checked again: it verifies
    assert verified_condition(release.conditions)[:2] == ("True", "Verified") and release.trust_problem() is None
    assert release.verified_digests["image"] == images.gateway
