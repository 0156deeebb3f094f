"""Migration 0011 on a database with gateways of several image pairs, installed with the real helm binary on
devcluster: afterwards the releases own the images, every gateway runs exactly what it ran, the reconciler
finds nothing to do, and `helm history` shows no new revision.

Real parts: PostgreSQL migrated back to 0009 and forward with Django's migration executor, the worker's pass
(`run_pass`) and fleet resync, the real helm binary with the mirror chart, devcluster over HTTP.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from django.db import connection
from django.db.migrations.executor import MigrationExecutor

from controlplane.image_policy import ImagePolicy
from controlplane.models import ManagedCluster
from gateways.image_migration import clone_name
from gateways.models import Gateway, GatewayEvent, GatewayRelease
from tests.fixtures.charts import MIRROR_CHART, helm_images
from tests.fixtures.devcluster import DevCluster, start_devcluster
from tests.helpers import converge_by_passes
from workers.reconcile.gateway.passes import fleet
from workers.reconcile.gateway.passes.run import run_pass

pytestmark = [pytest.mark.integration, pytest.mark.django_db(transaction=True)]

A = ("reg.example.test:5000/openshell/gateway:1.0.0", "reg.example.test:5000/openshell/supervisor:1.0.0")
B = (
    "reg.example.test:5000/openshell/gateway:1.1.0@sha256:" + "ab" * 32,
    "reg.example.test:5000/openshell/supervisor@sha256:" + "cd" * 32,
)
MIXED = ("quay.io/someone/openshell-gateway:16112bc", "ghcr.io/nvidia/openshell/supervisor:16112bc")
BEFORE = [("gateways", "0009_release_reason")]


@pytest.fixture(scope="module")
def devcluster(tmp_path_factory: pytest.TempPathFactory) -> Iterator[DevCluster]:
    with start_devcluster(tmp_path_factory.mktemp("mig-k8s"), extra_presets=("agent-sandbox",)) as dc:
        yield dc


def migrate(targets: list[tuple[str, str]] | None = None) -> None:
    executor = MigrationExecutor(connection)
    executor.migrate(targets or executor.loader.graph.leaf_nodes())


def converge(gateway: Gateway) -> Gateway:
    return converge_by_passes(gateway, lambda current: current.phase == "Running")


def test_the_migration_moves_images_into_releases_without_a_helm_revision(
    devcluster, mirror_worker, alice, settings: Any, tmp_path: Path
) -> None:
    # network_policy as gateways.0015 sets it on a cluster with gateways: installed before it, they have the policy.
    cluster = ManagedCluster.objects.create(
        name="mig", kubeconfig=devcluster.kubeconfig.read_text(), base_domain="mig.example.test", network_policy=True
    )
    v1 = GatewayRelease.objects.create(name="v1", chart=str(MIRROR_CHART), default=True)
    pairs = {"g0": A, "g1": A, "g2": B, "g3": MIXED}
    gateways = {}
    for name, (image, supervisor) in pairs.items():  # as before the migration: every gateway names its images
        gateway = Gateway(owner=alice, cluster=cluster, name=name, image=image, supervisor_image=supervisor)
        gateway.assign_namespace()
        gateway.save()
        gateways[name] = converge(gateway)
    records = {
        name: helm_images(devcluster.kubeconfig, tmp_path / "h", g.namespace, g.helm_release)
        for name, g in gateways.items()
    }
    assert {name: record[:2] for name, record in records.items()} == pairs
    assert {record[3] for record in records.values()} == {1}

    migrate(BEFORE)
    migrate()

    v1.refresh_from_db()
    assert (v1.image, v1.supervisor_image) == A
    clone = GatewayRelease.objects.get(name=clone_name("v1", B))
    assert (clone.image, clone.supervisor_image, clone.chart, clone.default) == (*B, v1.chart, False)
    after = {name: Gateway.objects.select_related("release").get(pk=g.pk) for name, g in gateways.items()}
    assert {name: (g.release.name, g.image, g.supervisor_image) for name, g in after.items()} == {
        "g0": ("v1", "", ""),
        "g1": ("v1", "", ""),
        "g2": (clone.name, "", ""),
        "g3": ("v1", *MIXED),
    }
    assert after["g2"].deployed_release_id == clone.pk
    assert all(g.generation == gateways[name].generation for name, g in after.items()), "no spec change"
    assert {name: g.desired_images() for name, g in after.items()} == pairs

    # The worker finds nothing to do: the fleet resync writes status only, and full passes upgrade nothing.
    report = fleet.resync_cluster(str(cluster.pk), enqueue=lambda pk: None)
    assert report.passes == 0, report
    for gateway in after.values():
        current = converge(gateway)
        assert (current.deployed_image, current.deployed_supervisor_image) == pairs[gateway.name]
        assert current.release_revision == 1
    for name, gateway in after.items():
        assert (
            helm_images(devcluster.kubeconfig, tmp_path / "h", gateway.namespace, gateway.helm_release)
            == (records[name])
        ), f"{name}: helm history shows a new revision"
    upgrades = GatewayEvent.objects.filter(gateway__cluster=cluster, reason__startswith="Upgrade")
    assert not upgrades.exists(), list(upgrades.values_list("reason", "message"))

    # g3 kept its override, which the test platform allows; a platform policy that no longer does keeps it
    # running, with the condition set by the next pass, and no helm call that changes anything.
    assert policy_condition_of(after["g3"]) == ("True", "Allowed")
    settings.GATEWAY_IMAGE_POLICY = ImagePolicy(source="platform setting GATEWAY_IMAGE_OVERRIDES")
    run_pass(str(after["g3"].pk))
    current = Gateway.objects.get(pk=after["g3"].pk)
    assert policy_condition_of(current) == ("False", "NotAllowed") and current.phase == "Running"
    assert helm_images(devcluster.kubeconfig, tmp_path / "h", current.namespace, current.helm_release)[3] == 1


def policy_condition_of(gateway: Gateway) -> tuple[str, str]:
    (condition,) = [c for c in Gateway.objects.get(pk=gateway.pk).conditions if c["type"] == "ImagePolicy"]
    return condition["status"], condition["reason"]
