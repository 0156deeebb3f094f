"""Helm runner plumbing (argv, env, private files, logging) with a fake helm script.

The fake only records what it was given and replays canned output; helm's real
behaviour is covered by tests/integration/test_drivers_helm.py.
"""

from __future__ import annotations

import json
import logging
import os
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from workers.drivers import errors
from workers.drivers.helm import Helm, HelmConfig, HelmTarget

FAKE_HELM = """#!{python}
import json, os, stat, sys, time
record = {{"argv": sys.argv[1:], "env": dict(os.environ), "files": {{}}}}
for arg in sys.argv[1:]:
    for flag in ("--kubeconfig=", "--values="):
        if arg.startswith(flag):
            path = arg[len(flag):]
            record["files"][flag.strip("-=")] = {{
                "path": path,
                "mode": stat.S_IMODE(os.stat(path).st_mode),
                "dir_mode": stat.S_IMODE(os.stat(os.path.dirname(path)).st_mode),
                "content": open(path).read(),
            }}
with open(os.environ["FAKE_RECORD"], "w") as out:
    json.dump(record, out)
sys.stdout.write(os.environ.get("FAKE_STDOUT", ""))
sys.stderr.write(os.environ.get("FAKE_STDERR", ""))
time.sleep(float(os.environ.get("FAKE_SLEEP", "0")))
sys.exit(int(os.environ.get("FAKE_EXIT", "0")))
"""

SECRET = "s3cr3t-value-never-logged"
KUBECONFIG = "apiVersion: v1\nkind: Config\nusers:\n- name: u\n  user: {token: kube-token-never-logged}\n"
TARGET = HelmTarget(kubeconfig=KUBECONFIG, namespace="tenant-a")
RELEASE_OUT = json.dumps({"name": "web", "namespace": "tenant-a", "version": 1, "info": {"status": "deployed"}})

Run = Callable[..., tuple[Any, dict[str, Any]]]


@pytest.fixture
def run_fake(tmp_path: Path) -> Run:
    """Call `action(helm)` against the fake binary; return (result, what the fake saw)."""
    binary = tmp_path / "helm"
    binary.write_text(FAKE_HELM.format(python=sys.executable))
    binary.chmod(0o755)
    record = tmp_path / "record.json"

    def run(
        action: Callable[[Helm], Any],
        *,
        stdout: str = "",
        stderr: str = "",
        exit_code: int = 0,
        sleep: float = 0.0,
        timeout: float = 30.0,
        env: dict[str, str] | None = None,
        on_invoke: Callable[[str], None] | None = None,
    ) -> tuple[Any, dict]:
        fake_env = {
            "FAKE_RECORD": str(record),
            "FAKE_STDOUT": stdout,
            "FAKE_STDERR": stderr,
            "FAKE_EXIT": str(exit_code),
            "FAKE_SLEEP": str(sleep),
            **(env or {}),
        }
        helm = Helm(
            HelmConfig(
                binary=binary,
                timeout_seconds=timeout,
                env=fake_env,
                cache_home=tmp_path / "cache",
                config_home=tmp_path / "config",
                data_home=tmp_path / "data",
                on_invoke=on_invoke,
            )
        )
        result = action(helm)
        return result, json.loads(record.read_text())

    return run


def _positional(argv: list[str]) -> list[str]:
    return argv[argv.index("--") + 1 :]


def test_install_argv_env_and_private_files(run_fake: Run, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("KUBECONFIG", "/root/.kube/config")
    monkeypatch.setenv("HELM_KUBETOKEN", "ambient-token")
    values = {"auth": {"password": SECRET}, "replicas": 2}
    release, seen = run_fake(
        lambda helm: helm.install(TARGET, "web", "./charts/smallapp", values, version="1.2.3"),
        stdout=RELEASE_OUT,
        env={"HELM_DRIVER": "configmap"},
    )
    assert release.revision == 1 and release.status == "deployed"
    argv = seen["argv"]
    assert argv[:2] == ["install", "--output=json"]
    assert _positional(argv) == ["web", "./charts/smallapp"]
    assert "--namespace=tenant-a" in argv and "--version=1.2.3" in argv and "--timeout=30s" in argv
    assert not any("create-namespace" in arg or arg.startswith("--set") for arg in argv)
    assert SECRET not in " ".join(argv)

    files = seen["files"]
    assert files["kubeconfig"]["content"] == KUBECONFIG
    assert json.loads(files["values"]["content"]) == values
    for entry in files.values():
        assert entry["mode"] == 0o600
        assert entry["dir_mode"] == 0o700
        assert not os.path.exists(entry["path"])
        assert not os.path.exists(os.path.dirname(entry["path"]))

    env = seen["env"]
    assert env["HELM_DRIVER"] == "secret"
    assert "KUBECONFIG" not in env and "HELM_KUBETOKEN" not in env
    assert env["HELM_CACHE_HOME"].endswith("cache") and env["HELM_DATA_HOME"].endswith("data")
    assert env["NO_COLOR"] == "1"


@pytest.mark.parametrize(
    ("kwargs", "present", "absent"),
    [
        ({}, ["--reset-values"], ["--install", "--wait=watcher", "--reset-then-reuse-values"]),
        (
            {"reset_values": False, "install": True, "wait": True, "timeout": 90},
            ["--reset-then-reuse-values", "--install", "--wait=watcher", "--timeout=90s"],
            ["--reset-values"],
        ),
    ],
)
def test_upgrade_flags(run_fake: Run, kwargs: dict, present: list[str], absent: list[str]) -> None:
    _, seen = run_fake(lambda helm: helm.upgrade(TARGET, "web", "oci://r/c", {}, **kwargs), stdout=RELEASE_OUT)
    assert set(present) <= set(seen["argv"])
    assert not set(absent) & set(seen["argv"])
    assert _positional(seen["argv"]) == ["web", "oci://r/c"]


@pytest.mark.parametrize(
    ("action", "stdout", "expected_args", "has_kubeconfig"),
    [
        (
            lambda h: h.list_releases(TARGET),
            "[]",
            ["list", "--output=json", "--max=0", "--all-namespaces"],
            True,
        ),
        (lambda h: h.status(TARGET, "web"), RELEASE_OUT, ["get", "metadata", "--output=json"], True),
        (lambda h: h.history(TARGET, "web"), "[]", ["history", "--output=json"], True),
        (lambda h: h.get_values(TARGET, "web"), "null", ["get", "values", "--output=json"], True),
        (lambda h: h.get_manifest(TARGET, "web"), "---\n", ["get", "manifest"], True),
        (lambda h: h.uninstall(TARGET, "web", wait=True), "", ["uninstall", "--timeout=30s", "--wait=watcher"], True),
        (lambda h: h.show_values("./c", version="2.0.0"), "a: 1\n", ["show", "values", "--version=2.0.0"], False),
        (
            lambda h: h.template(
                "web", "tenant-a", "./c", {}, api_versions=["gateway.networking.k8s.io/v1"], kube_version="1.31.0"
            ),
            "---\n",
            [
                "template",
                "--namespace=tenant-a",
                "--api-versions=gateway.networking.k8s.io/v1",
                "--kube-version=1.31.0",
            ],
            False,
        ),
    ],
)
def test_command_shapes(
    run_fake: Run, action: Callable, stdout: str, expected_args: list[str], has_kubeconfig: bool
) -> None:
    _, seen = run_fake(action, stdout=stdout)
    argv = seen["argv"]
    assert argv[0] == expected_args[0] and set(expected_args) <= set(argv)
    assert ("kubeconfig" in seen["files"]) is has_kubeconfig
    if has_kubeconfig:
        assert "--namespace=tenant-a" in argv


def test_list_in_one_namespace_drops_all_namespaces(run_fake: Run) -> None:
    _, seen = run_fake(lambda helm: helm.list_releases(TARGET, all_namespaces=False), stdout="[]")
    assert "--all-namespaces" not in seen["argv"] and "--namespace=tenant-a" in seen["argv"]


def test_status_missing_release_is_none(run_fake: Run) -> None:
    result, _ = run_fake(lambda helm: helm.status(TARGET, "web"), stderr="Error: release: not found\n", exit_code=1)
    assert result is None


def test_values_never_logged_even_on_failure(run_fake: Run, caplog: pytest.LogCaptureFixture) -> None:
    caplog.set_level(logging.DEBUG, logger="workers.drivers")
    stderr = f"Error: INSTALLATION FAILED: execution error at (c/templates/s.yaml:1:2): bad {SECRET}\n"
    with pytest.raises(errors.ChartError) as raised:
        run_fake(lambda helm: helm.install(TARGET, "web", "./c", {"password": SECRET}), stderr=stderr, exit_code=1)
    assert SECRET not in str(raised.value)
    assert "running " in caplog.text and "--values=" in caplog.text
    assert SECRET not in caplog.text
    assert "kube-token-never-logged" not in caplog.text


def test_kubeconfig_token_redacted_from_errors(run_fake: Run) -> None:
    stderr = "Error: kubernetes cluster unreachable: token kube-token-never-logged rejected\n"
    with pytest.raises(errors.ClusterUnreachable) as raised:
        run_fake(lambda helm: helm.history(TARGET, "web"), stderr=stderr, exit_code=1)
    assert "kube-token-never-logged" not in str(raised.value)


def test_subprocess_timeout_raises_helm_timeout(run_fake: Run) -> None:
    with pytest.raises(errors.HelmTimeout):  # a helm that outlived the timeout would answer, and raise nothing
        run_fake(lambda helm: helm.status(TARGET, "web"), sleep=10, timeout=0.5)


def test_missing_binary_raises_helm_error(tmp_path: Path) -> None:
    helm = Helm(HelmConfig(binary=tmp_path / "no-such-helm", timeout_seconds=5))
    with pytest.raises(errors.HelmError, match="cannot run helm"):
        helm.show_values("./c")


def test_target_repr_hides_kubeconfig() -> None:
    assert "kube-token-never-logged" not in repr(TARGET)


def test_on_invoke_gets_the_subcommand_of_every_run_failed_ones_too(run_fake: Run) -> None:
    seen: list[str] = []
    run_fake(lambda helm: helm.install(TARGET, "web", "./chart", {}), stdout=RELEASE_OUT, on_invoke=seen.append)
    run_fake(lambda helm: helm.get_manifest(TARGET, "web"), on_invoke=seen.append)
    with pytest.raises(errors.DriverError):
        run_fake(lambda helm: helm.show_values("./chart"), stderr="Error: boom", exit_code=1, on_invoke=seen.append)
    assert seen == ["install", "get", "show"]
