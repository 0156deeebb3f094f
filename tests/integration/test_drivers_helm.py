"""The Helm driver with the real helm v4 binary against devcluster."""

from __future__ import annotations

import os
import stat
import subprocess
from collections.abc import Iterator
from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest

from tests.fixtures.devcluster import DevCluster, start_devcluster
from tests.helpers import closed_port_kubeconfig
from tests.paths import HELM, PROJECT_ROOT
from tests.waiting import wait_until
from workers.drivers import errors
from workers.drivers import helm as helm_module
from workers.drivers.helm import Helm, HelmConfig, HelmTarget
from workers.drivers.kube import KubeClient

pytestmark = pytest.mark.integration

CHART = str(PROJECT_ROOT / "tests" / "charts" / "smallapp")


@pytest.fixture(scope="module")
def cluster(tmp_path_factory: pytest.TempPathFactory) -> Iterator[DevCluster]:
    with start_devcluster(tmp_path_factory.mktemp("drivers-helm")) as running:
        yield running


@pytest.fixture(scope="module")
def helm(tmp_path_factory: pytest.TempPathFactory) -> Helm:
    homes = tmp_path_factory.mktemp("helm-homes")
    return Helm(
        HelmConfig(
            binary=HELM,
            timeout_seconds=60,
            cache_home=homes / "cache",
            config_home=homes / "config",
            data_home=homes / "data",
        )
    )


@pytest.fixture
def target(cluster: DevCluster) -> Iterator[HelmTarget]:
    namespace = cluster.create_namespace("helm")
    yield HelmTarget(kubeconfig=cluster.kubeconfig.read_text(), namespace=namespace)
    cluster.clear_faults()
    cluster.delete_namespace(namespace)


def test_release_lifecycle(helm: Helm, target: HelmTarget) -> None:
    installed = helm.install(target, "web", CHART, {"message": "first"})
    assert (installed.name, installed.namespace, installed.revision) == ("web", target.namespace, 1)

    status = helm.status(target, "web")
    assert status is not None
    assert (status.status, status.revision, status.chart_name, status.chart_version, status.app_version) == (
        "deployed",
        1,
        "smallapp",
        "0.1.0",
        "1.0.0",
    )
    assert status.last_deployed is not None
    assert helm.get_values(target, "web") == {"message": "first"}

    upgraded = helm.upgrade(target, "web", CHART, {"message": "second"}, wait=True, timeout=30)
    assert (upgraded.revision, upgraded.status) == (2, "deployed")
    assert [(rev.revision, rev.status) for rev in helm.history(target, "web")] == [
        (1, "superseded"),
        (2, "deployed"),
    ]
    assert helm.get_values(target, "web") == {"message": "second"}
    assert 'message: "second"' in helm.get_manifest(target, "web")

    everywhere = {(item.name, item.namespace): item for item in helm.list_releases(target)}
    assert everywhere[("web", target.namespace)].revision == 2
    here = helm.list_releases(target, all_namespaces=False)
    assert [(item.name, item.status) for item in here] == [("web", "deployed")]

    helm.uninstall(target, "web", wait=True, timeout=30)
    assert helm.status(target, "web") is None


def test_release_storage_is_secrets(helm: Helm, target: HelmTarget) -> None:
    helm.install(target, "stored", CHART, {})
    with KubeClient(target.kubeconfig) as kube:
        storage = kube.list_objects("v1", "secrets", target.namespace, "owner=helm,name=stored")
        assert [item["type"] for item in storage] == ["helm.sh/release.v1"]
        assert kube.list_objects("v1", "configmaps", target.namespace, "owner=helm") == []


@pytest.mark.parametrize(
    "call",
    [
        lambda helm, target: helm.history(target, "ghost"),
        lambda helm, target: helm.get_values(target, "ghost"),
        lambda helm, target: helm.get_manifest(target, "ghost"),
        lambda helm, target: helm.uninstall(target, "ghost"),
        lambda helm, target: helm.upgrade(target, "ghost", CHART, {}),
    ],
)
def test_missing_release_raises_release_not_found(helm: Helm, target: HelmTarget, call: Any) -> None:
    assert helm.status(target, "ghost") is None
    with pytest.raises(errors.ReleaseNotFound):
        call(helm, target)


def test_upgrade_with_install_creates_release(helm: Helm, target: HelmTarget) -> None:
    created = helm.upgrade(target, "fresh", CHART, {}, install=True)
    assert (created.revision, created.status) == (1, "deployed")


def test_reset_then_reuse_keeps_previous_values(helm: Helm, target: HelmTarget) -> None:
    helm.install(target, "merge", CHART, {"message": "kept", "replicaCount": 2})
    helm.upgrade(target, "merge", CHART, {"replicaCount": 3}, reset_values=False)
    assert helm.get_values(target, "merge") == {"message": "kept", "replicaCount": 3}
    helm.upgrade(target, "merge", CHART, {"replicaCount": 1})
    assert helm.get_values(target, "merge") == {"replicaCount": 1}


def test_install_never_creates_the_namespace(helm: Helm, cluster: DevCluster) -> None:
    target = HelmTarget(kubeconfig=cluster.kubeconfig.read_text(), namespace="helm-missing-ns")
    with pytest.raises(errors.NotFound, match="not found"):
        helm.install(target, "web", CHART, {})
    with KubeClient(target.kubeconfig) as kube:
        assert not kube.namespace_exists("helm-missing-ns")


def test_name_in_use_and_unowned_objects_conflict(helm: Helm, target: HelmTarget) -> None:
    helm.install(target, "taken", CHART, {})
    with pytest.raises(errors.Conflict, match="still in use"):
        helm.install(target, "taken", CHART, {})
    with KubeClient(target.kubeconfig) as kube:
        kube.apply_configmap(target.namespace, "squat-config", {"a": "b"}, {})
    with pytest.raises(errors.Conflict, match="cannot be imported"):
        helm.install(target, "squat", CHART, {})


def test_chart_values_and_rendering(helm: Helm, tmp_path: Path) -> None:
    defaults = helm.show_values(CHART)
    assert {"replicaCount", "image", "message", "hookJob"} <= set(defaults)
    rendered = helm.template("web", "tenant-x", CHART, {"message": "rendered-here"})
    assert 'message: "rendered-here"' in rendered
    with pytest.raises(errors.ChartError):
        helm.show_values(str(tmp_path / "no-such-chart"))


def test_template_errors_are_chart_errors_without_values(helm: Helm, tmp_path: Path) -> None:
    chart = tmp_path / "broken"
    (chart / "templates").mkdir(parents=True)
    (chart / "Chart.yaml").write_text("apiVersion: v2\nname: broken\nversion: 0.1.0\n")
    (chart / "values.schema.json").write_text('{"properties": {"token": {"type": "string", "pattern": "^x+$"}}}')
    (chart / "templates" / "cm.yaml").write_text("x: {{ .Values.missing.field }}\n")
    with pytest.raises(errors.ChartError) as raised:
        helm.template("web", "t", str(chart), {"token": "tok-SHOULD-NOT-LEAK"})
    assert "does not match pattern" in str(raised.value)
    assert "tok-SHOULD-NOT-LEAK" not in str(raised.value)
    (chart / "values.schema.json").unlink()
    with pytest.raises(errors.ChartError, match="nil pointer"):
        helm.template("web", "t", str(chart), {})


def test_closed_port_is_cluster_unreachable_at_the_first_try(helm: Helm, cluster: DevCluster) -> None:
    """One helm process per call, which reports the refused connection itself (it is not killed at the deadline:
    that would be a HelmTimeout)."""
    invoked: list[str] = []
    counting = Helm(replace(helm.config, on_invoke=invoked.append))
    target = HelmTarget(kubeconfig=closed_port_kubeconfig(cluster.kubeconfig.read_text()), namespace="t")
    with pytest.raises(errors.ClusterUnreachable):
        counting.status(target, "web")
    with pytest.raises(errors.ClusterUnreachable):
        counting.install(target, "web", CHART, {})
    assert invoked == ["get", "install"]


def test_injected_server_error_is_a_driver_error(helm: Helm, target: HelmTarget, cluster: DevCluster) -> None:
    cluster.add_fault(path_regex=f"/namespaces/{target.namespace}/secrets", status=500)
    with pytest.raises(errors.DriverError) as raised:
        helm.status(target, "web")
    assert isinstance(raised.value, errors.HelmError)
    assert "500" in str(raised.value)


def test_kubeconfig_and_values_files_private_and_removed(
    helm: Helm, target: HelmTarget, monkeypatch: pytest.MonkeyPatch
) -> None:
    seen: dict[str, tuple[Path, int]] = {}
    real_run = subprocess.run

    def spy(argv: list[str], **kwargs: Any) -> subprocess.CompletedProcess[str]:
        for arg in argv:
            for flag in ("--kubeconfig=", "--values="):
                if arg.startswith(flag):
                    path = Path(arg.removeprefix(flag))
                    seen[flag] = (path, stat.S_IMODE(path.stat().st_mode))
        return real_run(argv, **kwargs)

    monkeypatch.setattr(helm_module.subprocess, "run", spy)
    helm.install(target, "files", CHART, {"message": "private"})
    assert {flag: mode for flag, (_, mode) in seen.items()} == {"--kubeconfig=": 0o600, "--values=": 0o600}
    for path, _ in seen.values():
        assert not path.exists() and not path.parent.exists()


def test_wait_timeout_and_operation_in_progress(helm: Helm, tmp_path: Path) -> None:
    with start_devcluster(tmp_path / "slow", ready_delay=600) as slow:
        target = HelmTarget(kubeconfig=slow.kubeconfig.read_text(), namespace=slow.create_namespace("slow"))
        with pytest.raises(errors.HelmTimeout, match="context deadline exceeded"):
            helm.install(target, "late", CHART, {}, wait=True, timeout=1)
        failed = helm.status(target, "late")
        assert failed is not None and failed.status == "failed"

        _leave_pending_install(slow.kubeconfig, target.namespace, "stuck")
        with pytest.raises(errors.OperationInProgress):
            helm.upgrade(target, "stuck", CHART, {})
        helm.uninstall(target, "stuck")
        assert helm.status(target, "stuck") is None


def _leave_pending_install(kubeconfig: Path, namespace: str, release: str) -> None:
    """Start a waiting `helm install` and SIGKILL it once the release is pending."""
    argv = [
        str(HELM),
        "install",
        release,
        CHART,
        f"--kubeconfig={kubeconfig}",
        f"--namespace={namespace}",
        "--wait",
        "--timeout=120s",
    ]
    homes = kubeconfig.parent / "helm-homes"
    env = {
        **os.environ,
        "HELM_DRIVER": "secret",
        "HELM_CACHE_HOME": str(homes / "cache"),
        "HELM_CONFIG_HOME": str(homes / "config"),
        "HELM_DATA_HOME": str(homes / "data"),
    }
    with subprocess.Popen(argv, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL) as proc:
        try:
            with KubeClient(kubeconfig.read_text()) as kube:
                wait_until(
                    lambda: kube.list_objects("v1", "secrets", namespace, f"owner=helm,name={release}"),
                    "helm to store the release",
                    20,
                    0.05,
                )
        finally:
            proc.kill()


def test_release_records_decode_as_helm_reads_them(helm: Helm, target: HelmTarget) -> None:
    """Helm's own storage Secrets, decoded without helm, say what `helm get metadata/values` say."""
    from workers.drivers.helm_storage import HELM_OWNER_SELECTOR, latest_releases

    helm.install(target, "stored", CHART, {"message": "one", "nested": {"n": 3, "flag": True}})
    helm.upgrade(target, "stored", CHART, {"message": "two", "nested": {"n": 4, "flag": False}})
    with KubeClient(target.kubeconfig) as kube:
        secrets = kube.list_objects("v1", "secrets", target.namespace, HELM_OWNER_SELECTOR)
    assert len(secrets) == 2
    record = latest_releases(secrets)[(target.namespace, "stored")]
    via_helm = helm.status(target, "stored")
    assert via_helm is not None and record.status.last_deployed is not None
    # `helm get metadata` prints whole seconds; the record keeps the stored precision.
    assert record.status.last_deployed.replace(microsecond=0) == via_helm.last_deployed
    assert replace(record.status, last_deployed=None) == replace(via_helm, last_deployed=None)
    assert record.values == helm.get_values(target, "stored") == {"message": "two", "nested": {"n": 4, "flag": False}}
    assert record.manifest.strip() == helm.get_manifest(target, "stored").strip()  # helm prints a newline more
