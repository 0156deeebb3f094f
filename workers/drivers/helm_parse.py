"""Pure functions turning helm v4 output (stdout JSON/YAML, stderr) into Python values."""

from __future__ import annotations

import json
import re
from collections.abc import Iterable
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta, timezone
from typing import Any

import yaml

from cluster_vocabulary.helm import HelmStatus
from workers.drivers import errors


@dataclass(frozen=True)
class HelmReleaseStatus:
    """The current revision of a release (`helm get metadata`, `helm install|upgrade -o json`)."""

    name: str
    namespace: str
    revision: int
    status: str
    chart_name: str | None
    chart_version: str | None
    app_version: str | None
    last_deployed: datetime | None


@dataclass(frozen=True)
class ReleaseRevision:
    """One entry of `helm history -o json`."""

    revision: int
    status: str
    chart: str
    app_version: str | None
    description: str | None
    updated: datetime | None


@dataclass(frozen=True)
class ReleaseSummary:
    """One entry of `helm list -o json`."""

    name: str
    namespace: str
    revision: int
    status: str
    chart: str
    app_version: str | None
    updated: datetime | None


_TIME = re.compile(
    r"(?P<date>\d{4}-\d{2}-\d{2})[T ](?P<time>\d{2}:\d{2}:\d{2})(?:\.(?P<frac>\d+))?"
    r"\s*(?P<zone>Z|[+-]\d{2}:?\d{2})?"
)


def parse_time(text: str | None) -> datetime | None:
    """Parse RFC 3339 or Go's `time.String()` form ("2006-01-02 15:04:05.9 +0000 UTC")."""
    match = _TIME.match(text or "")
    if not match:
        return None
    parsed = datetime.fromisoformat(f"{match['date']}T{match['time']}")
    micros = int((match["frac"] or "0")[:6].ljust(6, "0"))
    zone = match["zone"] or "Z"
    if zone == "Z":
        tz = UTC
    else:
        sign = -1 if zone[0] == "-" else 1
        digits = zone[1:].replace(":", "")
        tz = timezone(sign * timedelta(hours=int(digits[:2]), minutes=int(digits[2:])))
    return parsed.replace(microsecond=micros, tzinfo=tz)


def _load_json(text: str, what: str) -> Any:
    try:
        return json.loads(text)
    except json.JSONDecodeError as exc:
        raise errors.HelmError(f"helm {what}: unparseable JSON output ({exc.msg})") from None


def _document(text: str, what: str) -> dict[str, Any]:
    data = _load_json(text, what)
    if not isinstance(data, dict) or "name" not in data:
        raise errors.HelmError(f"helm {what}: output is not a release document")
    return data


def parse_release(text: str) -> HelmReleaseStatus:
    """Parse a full release document (`helm install|upgrade|status -o json`). helm v4's
    `status` omits the chart, so its chart fields come back None."""
    data = _document(text, "release")
    info = data.get("info") or {}
    metadata = (data.get("chart") or {}).get("metadata") or {}
    return HelmReleaseStatus(
        name=data["name"],
        namespace=data.get("namespace", ""),
        revision=int(data.get("version", 0)),
        status=info.get("status", HelmStatus.UNKNOWN),
        chart_name=metadata.get("name"),
        chart_version=metadata.get("version"),
        app_version=metadata.get("appVersion") or None,
        last_deployed=parse_time(info.get("last_deployed")),
    )


def parse_metadata(text: str) -> HelmReleaseStatus:
    """Parse `helm get metadata -o json` (flat; no values, manifest or live resources)."""
    data = _document(text, "metadata")
    return HelmReleaseStatus(
        name=data["name"],
        namespace=data.get("namespace", ""),
        revision=int(data.get("revision", 0)),
        status=data.get("status", HelmStatus.UNKNOWN),
        chart_name=data.get("chart") or None,
        chart_version=data.get("version") or None,
        app_version=data.get("appVersion") or None,
        last_deployed=parse_time(data.get("deployedAt")),
    )


def parse_history(text: str) -> list[ReleaseRevision]:
    """Parse `helm history -o json` output, oldest revision first."""
    rows = _load_json(text, "history") or []
    revisions = [
        ReleaseRevision(
            revision=int(row["revision"]),
            status=row.get("status", HelmStatus.UNKNOWN),
            chart=row.get("chart", ""),
            app_version=row.get("app_version") or None,
            description=row.get("description") or None,
            updated=parse_time(row.get("updated")),
        )
        for row in rows
    ]
    return sorted(revisions, key=lambda item: item.revision)


def parse_list(text: str) -> list[ReleaseSummary]:
    """Parse `helm list -o json` output (revision is a string there)."""
    rows = _load_json(text, "list") or []
    return [
        ReleaseSummary(
            name=row["name"],
            namespace=row.get("namespace", ""),
            revision=int(row.get("revision", 0)),
            status=row.get("status", HelmStatus.UNKNOWN),
            chart=row.get("chart", ""),
            app_version=row.get("app_version") or None,
            updated=parse_time(row.get("updated")),
        )
        for row in rows
    ]


def parse_values_json(text: str) -> dict[str, Any]:
    """Parse `helm get values -o json`; helm prints `null` when no values were set."""
    data = _load_json(text, "values")
    if data is None:
        return {}
    if not isinstance(data, dict):
        raise errors.HelmError("helm values: output is not a mapping")
    return data


def parse_values_yaml(text: str) -> dict[str, Any]:
    """Parse `helm show values` (a chart's values.yaml, comments and all)."""
    try:
        data = yaml.safe_load(text)
    except yaml.YAMLError:
        raise errors.ChartError("chart values.yaml is not valid YAML") from None
    if data is None:
        return {}
    if not isinstance(data, dict):
        raise errors.ChartError("chart values.yaml is not a mapping")
    return data


_NOISE = re.compile(r"^(level=\w+ |[IWEF]\d{4} |Use --debug flag)")


def error_message(stderr: str) -> str:
    """The `Error: ...` part of helm's stderr, without log lines and hints."""
    lines = stderr.splitlines()
    for index, line in enumerate(lines):
        if line.startswith("Error: "):
            kept = [line.removeprefix("Error: ")]
            kept += [rest for rest in lines[index + 1 :] if rest.strip() and not _NOISE.match(rest)]
            return "\n".join(kept)
    return "\n".join(line for line in lines if line.strip() and not _NOISE.match(line))


# Ordered (exception, lower-case needles): the first class with a matching needle wins.
_RULES: tuple[tuple[type[errors.DriverError], tuple[str, ...]], ...] = (
    (errors.OperationInProgress, ("another operation (install/upgrade/rollback) is in progress",)),
    (
        errors.Unauthorized,
        (
            "provide credentials",
            "kubernetes cluster unreachable: unauthorized",
            "is forbidden: user",
        ),
    ),
    (errors.InvalidRequest, ("error loading config file", "invalid configuration:")),
    (errors.ClusterUnreachable, ("kubernetes cluster unreachable",)),
    # Chart sources (OCI registries, chart repositories) failing must not look like the cluster.
    (
        errors.ChartError,
        (
            "oci://",
            "/tags/list",
            "/manifests/",
            "/blobs/",
            "index.yaml",
            "failed to fetch",
            "failed to download",
            "not a valid chart repository",
        ),
    ),
    (
        errors.ClusterUnreachable,
        (
            "connection refused",
            "no such host",
            "i/o timeout",
            "network is unreachable",
            "no route to host",
            "connection reset by peer",
            "tls:",
            "x509:",
            "http2: server sent goaway",
        ),
    ),
    (
        errors.HelmTimeout,
        (
            "context deadline exceeded",
            "timed out waiting",
            "timeout waiting",
            "deadline exceeded",
        ),
    ),
    (errors.ReleaseNotFound, ("release: not found", "has no deployed releases")),
    (
        errors.Conflict,
        (
            "cannot reuse a name that is still in use",
            "cannot re-use a name",
            "exists and cannot be imported",
            "invalid ownership metadata",
            "already exists",
            "the object has been modified",
            "apply failed with",
        ),
    ),
    (
        errors.ChartError,
        (
            "chart.yaml",
            "chart.lock",
            "no chart version found",
            "no chart name found",
            "repo ",
            "parse error at",
            "execution error at",
            'executing "',
            "yaml parse error",
            "values don't meet the specifications of the schema",
            "failed to parse",
            "unable to build kubernetes objects",
            "error validating",
            "chart requires kubeversion",
            "missing in charts/ directory",
            "render error",
            'path "',
            "not a valid chart",
            "invalid chart",
            "unable to parse",
            "chart not found",
        ),
    ),
    (errors.Unauthorized, ("unauthorized", "forbidden", "provide credentials")),
    (errors.NotFound, ("not found",)),
    (errors.InvalidRequest, ("is invalid", "invalid value", "bad request", "unprocessable")),
)


def classify_error(stderr: str, secrets: Iterable[str] = ()) -> errors.DriverError:
    """Map helm's stderr to a typed, sanitised exception."""
    message = errors.sanitise(error_message(stderr) or "helm failed without a message", secrets)
    haystack = message.lower()
    for exc_type, needles in _RULES:
        if any(needle in haystack for needle in needles):
            return exc_type(message)
    return errors.HelmError(message)
