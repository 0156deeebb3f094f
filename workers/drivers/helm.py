"""Run the helm v4 binary against a cluster given as kubeconfig content.

Every call writes the kubeconfig and the values to private 0600 files that live only
for that call, forces the `secret` storage driver, and never creates namespaces.
"""

from __future__ import annotations

import json
import logging
import math
import os
import shlex
import subprocess
import time
from collections.abc import Callable, Iterable, Mapping, Sequence
from contextlib import ExitStack
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

from workers.drivers import errors
from workers.drivers.helm_parse import (
    HelmReleaseStatus,
    ReleaseRevision,
    ReleaseSummary,
    classify_error,
    parse_history,
    parse_list,
    parse_metadata,
    parse_release,
    parse_values_json,
    parse_values_yaml,
)
from workers.drivers.kubeconfig import kubeconfig_file, kubeconfig_secrets, private_file

logger = logging.getLogger(__name__)

# Inherited from the worker's environment; everything else (KUBECONFIG, HELM_*) is dropped.
PASSTHROUGH_ENV = (
    "PATH",
    "HOME",
    "TMPDIR",
    "SSL_CERT_FILE",
    "SSL_CERT_DIR",
    "HTTP_PROXY",
    "HTTPS_PROXY",
    "NO_PROXY",
    "http_proxy",
    "https_proxy",
    "no_proxy",
)


@dataclass(frozen=True)
class HelmConfig:
    """How to run helm. `timeout_seconds` is the deadline of one helm process (commands that
    wait get their `--timeout` on top) and the default `--timeout` of install/upgrade/uninstall.
    `env` adds variables; HELM_DRIVER is always `secret`. `on_invoke`, when set, is called with the
    subcommand alone (`install`, `get`, `show`, ... never `get metadata`) before each helm process starts."""

    binary: Path
    timeout_seconds: float = 300.0
    env: Mapping[str, str] = field(default_factory=dict)
    cache_home: Path | None = None
    config_home: Path | None = None
    data_home: Path | None = None
    on_invoke: Callable[[str], None] | None = None


@dataclass(frozen=True)
class HelmTarget:
    """A cluster (kubeconfig content) and the namespace of the release."""

    kubeconfig: str = field(repr=False)
    namespace: str


class Helm:
    """Thin typed wrapper over the helm CLI; failures raise `errors.DriverError` subclasses."""

    def __init__(self, config: HelmConfig) -> None:
        self.config = config

    def status(self, target: HelmTarget, release: str) -> HelmReleaseStatus | None:
        """The current revision of `release`, or None when there is no such release.
        Uses `helm get metadata`: unlike v4's `helm status` it has the chart version and
        does not fetch live resources (nor print Secrets)."""
        try:
            out = self._run(["get", "metadata", "--output=json"], [release], target)
        except errors.ReleaseNotFound:
            return None
        return parse_metadata(out)

    def install(
        self,
        target: HelmTarget,
        release: str,
        chart_ref: str,
        values: Mapping[str, Any],
        *,
        version: str | None = None,
        wait: bool = False,
        timeout: float | None = None,
    ) -> HelmReleaseStatus:
        """`helm install`; the namespace must already exist."""
        args = ["install", "--output=json", *self._op_flags(wait, timeout), *_version(version)]
        out = self._run(args, [release, chart_ref], target, values, self._op_timeout(timeout))
        return parse_release(out)

    def upgrade(
        self,
        target: HelmTarget,
        release: str,
        chart_ref: str,
        values: Mapping[str, Any],
        *,
        version: str | None = None,
        reset_values: bool = True,
        install: bool = False,
        wait: bool = False,
        timeout: float | None = None,
    ) -> HelmReleaseStatus:
        """`helm upgrade`. With `reset_values` the release gets exactly chart defaults plus
        `values`; without it `values` are merged over the previous release's values."""
        args = ["upgrade", "--output=json", *self._op_flags(wait, timeout), *_version(version)]
        args.append("--reset-values" if reset_values else "--reset-then-reuse-values")
        if install:
            args.append("--install")
        out = self._run(args, [release, chart_ref], target, values, self._op_timeout(timeout))
        return parse_release(out)

    def uninstall(self, target: HelmTarget, release: str, *, wait: bool = False, timeout: float | None = None) -> None:
        """`helm uninstall`; raises `ReleaseNotFound` when there is nothing to remove."""
        args = ["uninstall", *self._op_flags(wait, timeout)]
        self._run(args, [release], target, may_wait=self._op_timeout(timeout))

    def history(self, target: HelmTarget, release: str) -> list[ReleaseRevision]:
        """All stored revisions of `release`, oldest first."""
        return parse_history(self._run(["history", "--output=json"], [release], target))

    def list_releases(self, target: HelmTarget, *, all_namespaces: bool = True) -> list[ReleaseSummary]:
        """Latest revision of every release in any state (helm v4 lists all states by default,
        uninstalled-with-history included), in all namespaces or only `target.namespace`."""
        args = ["list", "--output=json", "--max=0"]
        if all_namespaces:
            args.append("--all-namespaces")
        return parse_list(self._run(args, target=target))

    def get_values(self, target: HelmTarget, release: str) -> dict[str, Any]:
        """The user-supplied values of the current revision."""
        return parse_values_json(self._run(["get", "values", "--output=json"], [release], target))

    def get_manifest(self, target: HelmTarget, release: str) -> str:
        """The rendered manifest of the current revision (may contain secrets: do not log)."""
        return self._run(["get", "manifest"], [release], target)

    def show_values(self, chart_ref: str, *, version: str | None = None) -> dict[str, Any]:
        """A chart's default values (no cluster involved)."""
        return parse_values_yaml(self._run(["show", "values", *_version(version)], [chart_ref]))

    def show_chart(self, chart_ref: str, *, version: str | None = None) -> dict[str, Any]:
        """A chart's Chart.yaml (name, version, appVersion, ...)."""
        return parse_values_yaml(self._run(["show", "chart", *_version(version)], [chart_ref]))

    def pull(self, chart_ref: str, destination: Path, *, version: str | None = None) -> Path:
        """Download a remote chart (``oci://...``) into ``destination``; returns the .tgz path."""
        destination.mkdir(parents=True, exist_ok=True)
        before = set(destination.glob("*.tgz"))
        plain_http = ["--plain-http"] if is_loopback_oci(chart_ref) else []
        self._run(["pull", f"--destination={destination}", *plain_http, *_version(version)], [chart_ref])
        (archive,) = set(destination.glob("*.tgz")) - before or sorted(destination.glob("*.tgz"))[-1:]
        return archive

    def package(self, chart_dir: Path, destination: Path) -> Path:
        """Package a chart directory into ``destination`` (empty or new) as ``helm package`` does; the .tgz path."""
        destination.mkdir(parents=True, exist_ok=True)
        self._run(["package", f"--destination={destination}"], [str(chart_dir)])
        (archive,) = destination.glob("*.tgz")
        return archive

    def template(
        self,
        release: str,
        namespace: str,
        chart_ref: str,
        values: Mapping[str, Any],
        *,
        version: str | None = None,
        api_versions: Iterable[str] = (),
        kube_version: str | None = None,
    ) -> str:
        """Render the chart client-side, as installing it into `namespace` would."""
        args = ["template", f"--namespace={namespace}", *_version(version)]
        args += [f"--api-versions={api}" for api in api_versions]
        if kube_version:
            args.append(f"--kube-version={kube_version}")
        return self._run(args, [release, chart_ref], values=values)

    def _op_timeout(self, timeout: float | None) -> float:
        return self.config.timeout_seconds if timeout is None else timeout

    def _op_flags(self, wait: bool, timeout: float | None) -> list[str]:
        flags = [f"--timeout={math.ceil(self._op_timeout(timeout))}s"]
        if wait:
            flags.append("--wait=watcher")
        return flags

    def _env(self) -> dict[str, str]:
        env = {key: os.environ[key] for key in PASSTHROUGH_ENV if key in os.environ}
        env.update(self.config.env)
        homes = {
            "HELM_CACHE_HOME": self.config.cache_home,
            "HELM_CONFIG_HOME": self.config.config_home,
            "HELM_DATA_HOME": self.config.data_home,
        }
        env.update({key: str(path) for key, path in homes.items() if path is not None})
        env.update({"HELM_DRIVER": "secret", "NO_COLOR": "1"})
        return env

    def _run(
        self,
        args: Sequence[str],
        positional: Sequence[str] = (),
        target: HelmTarget | None = None,
        values: Mapping[str, Any] | None = None,
        may_wait: float = 0.0,
    ) -> str:
        """Run `helm ARGS [--kubeconfig --namespace --values] -- POSITIONAL` and return stdout
        (never logged: it can hold values and manifests). `may_wait` is helm's own --timeout,
        added to the kill deadline."""
        secrets = errors.secret_strings(values or {})
        with ExitStack() as stack:
            flags: list[str] = []
            if target is not None:
                secrets |= kubeconfig_secrets(target.kubeconfig)
                path = stack.enter_context(kubeconfig_file(target.kubeconfig))
                flags += [f"--kubeconfig={path}", f"--namespace={target.namespace}"]
            if values is not None:
                path = stack.enter_context(private_file(json.dumps(dict(values)), "values.json"))
                flags.append(f"--values={path}")
            argv = [str(self.config.binary), *args, *flags]
            if positional:
                argv += ["--", *positional]
            proc = self._exec(argv, self.config.timeout_seconds + may_wait)
        if proc.returncode != 0:
            error = classify_error(proc.stderr, secrets)
            logger.debug("helm %s failed (%s): %s", args[0], type(error).__name__, error.message)
            raise error
        return proc.stdout

    def _exec(self, argv: list[str], deadline: float) -> subprocess.CompletedProcess[str]:
        logger.debug("running %s", shlex.join(argv))
        if self.config.on_invoke is not None:
            self.config.on_invoke(argv[1])
        started = time.monotonic()
        try:
            proc = subprocess.run(
                argv,
                capture_output=True,
                text=True,
                env=self._env(),
                stdin=subprocess.DEVNULL,
                timeout=deadline,
                check=False,
            )
        except subprocess.TimeoutExpired:
            raise errors.HelmTimeout(f"helm {argv[1]} killed after {deadline:g}s") from None
        except OSError as exc:
            raise errors.HelmError(f"cannot run helm: {exc.strerror or exc}") from None
        logger.debug("helm %s exited %d in %.2fs", argv[1], proc.returncode, time.monotonic() - started)
        return proc


def is_loopback_oci(chart_ref: str) -> bool:
    """Plain HTTP is allowed only for registries on this machine; anything else must use TLS."""
    host = urlsplit(chart_ref).hostname if chart_ref.startswith("oci://") else None
    return host in ("localhost", "127.0.0.1", "::1")


def _version(version: str | None) -> list[str]:
    return [f"--version={version}"] if version else []
