"""Pure helm output parsing and stderr -> exception mapping (no binary, no cluster)."""

from __future__ import annotations

import json
from collections.abc import Callable
from datetime import UTC, datetime, timedelta, timezone

import pytest

from workers.drivers import errors
from workers.drivers.helm_parse import (
    HelmReleaseStatus,
    classify_error,
    error_message,
    parse_history,
    parse_list,
    parse_metadata,
    parse_release,
    parse_time,
    parse_values_json,
    parse_values_yaml,
)

# Real helm v4.3.1 stderr captured against closed ports, fake API servers and broken charts.
STDERR_CASES = [
    ("Error: release: not found\n", errors.ReleaseNotFound),
    ("Error: uninstall: Release not loaded: web: release: not found\n", errors.ReleaseNotFound),
    ('Error: UPGRADE FAILED: "web" has no deployed releases\n', errors.ReleaseNotFound),
    (
        "Error: UPGRADE FAILED: another operation (install/upgrade/rollback) is in progress\n",
        errors.OperationInProgress,
    ),
    (
        'Error: kubernetes cluster unreachable: Get "http://127.0.0.1:1/version": '
        "dial tcp 127.0.0.1:1: connect: connection refused\n",
        errors.ClusterUnreachable,
    ),
    (
        'Error: Kubernetes cluster unreachable: Get "https://10.0.0.1:6443/version": '
        "dial tcp 10.0.0.1:6443: i/o timeout\n",
        errors.ClusterUnreachable,
    ),
    (
        'Error: kubernetes cluster unreachable: Get "http://nohost.invalid:80/version": '
        "dial tcp: lookup nohost.invalid on 10.255.255.53:53: no such host\n",
        errors.ClusterUnreachable,
    ),
    (
        'Error: kubernetes cluster unreachable: Get "https://127.0.0.1:18200/version": '
        "tls: first record does not look like a TLS handshake\n",
        errors.ClusterUnreachable,
    ),
    ("Error: kubernetes cluster unreachable: unknown\n", errors.ClusterUnreachable),
    (
        'level=ERROR msg="cluster reachability check failed: kubernetes cluster unreachable: '
        'the server has asked for the client to provide credentials"\n'
        "Error: INSTALLATION FAILED: cluster reachability check failed: kubernetes cluster "
        "unreachable: the server has asked for the client to provide credentials\n",
        errors.Unauthorized,
    ),
    (
        'Error: query: failed to query with labels: secrets is forbidden: User "system:anonymous" '
        'cannot list resource "secrets" in API group "" in the namespace "t1"\n',
        errors.Unauthorized,
    ),
    ("Error: list: failed to list: Unauthorized\n", errors.Unauthorized),
    (
        'Error: kubernetes cluster unreachable: error loading config file "/tmp/x/kubeconfig": '
        "yaml: line 1: did not find expected node content\n",
        errors.InvalidRequest,
    ),
    (
        "Error: INSTALLATION FAILED: cannot reuse a name that is still in use\n",
        errors.Conflict,
    ),
    (
        'Error: INSTALLATION FAILED: unable to continue with install: ConfigMap "web" in namespace '
        '"t1" exists and cannot be imported into the current release: invalid ownership metadata\n',
        errors.Conflict,
    ),
    (
        'Error: UPGRADE FAILED: Apply failed with 1 conflict: conflict with "kubectl" using apps/v1: .spec.replicas\n',
        errors.Conflict,
    ),
    ('Error: path "./nope" not found\n', errors.ChartError),
    ("Error: repo nosuchrepo not found\n", errors.ChartError),
    (
        "Error: cannot load Chart.yaml: error converting YAML to JSON: yaml: line 3: could not find expected ':'\n",
        errors.ChartError,
    ),
    (
        'Error: bad/templates/cm.yaml:1:13\n  executing "bad/templates/cm.yaml" at <.Values.a.b.c>:\n'
        "    nil pointer evaluating interface {}.b\n\nUse --debug flag to render out invalid YAML\n",
        errors.ChartError,
    ),
    (
        "Error: parse error at (bad/templates/cm.yaml:2): unclosed action started at "
        "bad/templates/cm.yaml:1\n\nUse --debug flag to render out invalid YAML\n",
        errors.ChartError,
    ),
    (
        "Error: INSTALLATION FAILED: execution error at (bad/templates/cm.yaml:1:6): a is required\n",
        errors.ChartError,
    ),
    (
        "Error: YAML parse error on bad/templates/cm.yaml: error converting YAML to JSON: yaml: "
        "line 1: did not find expected node content\n",
        errors.ChartError,
    ),
    (
        "Error: values don't meet the specifications of the schema(s) in the following chart(s):\n"
        "bad:\n- at '/a': got string, want integer\n",
        errors.ChartError,
    ),
    (
        "Error: INSTALLATION FAILED: unable to build kubernetes objects from release manifest: "
        'resource mapping not found for name: "web" namespace: "" from "": no matches for kind '
        '"HTTPRoute" in version "gateway.networking.k8s.io/v1"\n',
        errors.ChartError,
    ),
    (
        'Error: INSTALLATION FAILED: Get "https://127.0.0.1:1/v2/foo/bar/tags/list": '
        "dial tcp 127.0.0.1:1: connect: connection refused\n",
        errors.ChartError,
    ),
    (
        'Error: UPGRADE FAILED: Patch "http://127.0.0.1:1234/apis/apps/v1/namespaces/t1/deployments/web": '
        "dial tcp 127.0.0.1:1234: connect: connection refused\n",
        errors.ClusterUnreachable,
    ),
    ("Error: INSTALLATION FAILED: context deadline exceeded\n", errors.HelmTimeout),
    (
        "Error: UPGRADE FAILED: resource Deployment/t1/web not ready. status: InProgress, message: "
        "timed out waiting for the condition\n",
        errors.HelmTimeout,
    ),
    ('Error: INSTALLATION FAILED: create: failed to create: namespaces "t9" not found\n', errors.NotFound),
    (
        'Error: INSTALLATION FAILED: Secret "web" is invalid: metadata.name: Invalid value: "Web"\n',
        errors.InvalidRequest,
    ),
    ("Error: query: failed to query with labels: fake says 500\n", errors.HelmError),
    ("", errors.HelmError),
]


@pytest.mark.parametrize(("stderr", "expected"), STDERR_CASES)
def test_classify_error_maps_stderr_to_typed_exception(stderr: str, expected: type) -> None:
    error = classify_error(stderr)
    assert type(error) is expected
    assert error.message
    assert not error.message.startswith("Error:")


@pytest.mark.parametrize(
    ("exc_type", "parent"),
    [
        (errors.ReleaseNotFound, errors.NotFound),
        (errors.OperationInProgress, errors.Conflict),
        (errors.ChartError, errors.DriverError),
        (errors.HelmTimeout, errors.DriverError),
        (errors.HelmError, errors.DriverError),
        (errors.ServerError, errors.DriverError),
    ],
)
def test_exception_hierarchy(exc_type: type, parent: type) -> None:
    assert issubclass(exc_type, parent)


def test_classify_error_redacts_values_echoed_by_schema_errors() -> None:
    stderr = (
        "Error: values don't meet the specifications of the schema(s) in the following chart(s):\n"
        "bad:\n- at '/password': 'hunter2-PASS' does not match pattern '^x+$'\n"
    )
    error = classify_error(stderr, errors.secret_strings({"auth": {"password": "hunter2-PASS"}}))
    assert isinstance(error, errors.ChartError)
    assert "hunter2-PASS" not in str(error)
    assert errors.REDACTED in str(error)


@pytest.mark.parametrize(
    ("stderr", "expected"),
    [
        ("Error: release: not found\n", "release: not found"),
        (
            'level=ERROR msg="x"\nE1130 14:39:25.884339 memcache.go:381] "noise"\nError: INSTALLATION FAILED: boom\n',
            "INSTALLATION FAILED: boom",
        ),
        (
            "Error: a.yaml:1:2\n  executing x\n\nUse --debug flag to render out invalid YAML\n",
            "a.yaml:1:2\n  executing x",
        ),
        ("panic: something\n", "panic: something"),
    ],
)
def test_error_message_keeps_only_the_error(stderr: str, expected: str) -> None:
    assert error_message(stderr) == expected


def test_sanitise_truncates_long_messages() -> None:
    assert len(errors.sanitise("x" * 10_000)) <= errors.MAX_MESSAGE_CHARS + 3


@pytest.mark.parametrize(
    ("values", "expected"),
    [
        ({"a": "secret-1", "b": {"c": ["secret-2", 3, True, None]}}, {"secret-1", "secret-2"}),
        ({"short": "abc", "n": 12345}, set()),
        ({}, set()),
    ],
)
def test_secret_strings(values: dict, expected: set[str]) -> None:
    assert errors.secret_strings(values) == expected


RELEASE_JSON = {
    "name": "web",
    "info": {
        "first_deployed": "2025-11-30T14:42:14.885443794Z",
        "last_deployed": "2025-11-30T14:50:00.123456789Z",
        "description": "Upgrade complete",
        "status": "deployed",
        "notes": "hello",
    },
    "chart": {"metadata": {"name": "smallapp", "version": "0.2.0", "appVersion": "1.16.0"}},
    "config": {"password": "do-not-care"},
    "manifest": "---\n",
    "version": 2,
    "namespace": "t1",
    "apply_method": "ssa",
}


@pytest.mark.parametrize(
    ("document", "expected"),
    [
        (
            RELEASE_JSON,
            {
                "name": "web",
                "namespace": "t1",
                "revision": 2,
                "status": "deployed",
                "chart_name": "smallapp",
                "chart_version": "0.2.0",
                "app_version": "1.16.0",
                "last_deployed": datetime(2025, 11, 30, 14, 50, 0, 123456, tzinfo=UTC),
            },
        ),
        (
            {"name": "bare", "version": 1, "namespace": "t2", "info": {"status": "pending-install"}},
            {
                "name": "bare",
                "namespace": "t2",
                "revision": 1,
                "status": "pending-install",
                "chart_name": None,
                "chart_version": None,
                "app_version": None,
                "last_deployed": None,
            },
        ),
    ],
)
def test_parse_release(document: dict, expected: dict) -> None:
    release = parse_release(json.dumps(document))
    assert {key: getattr(release, key) for key in expected} == expected


# Real `helm get metadata -o json` output from helm v4.3.1.
METADATA_JSON = (
    '{"name":"web","chart":"smallapp","version":"0.1.0","appVersion":"1.0.0","labels":{"modifiedAt":'
    '"1796050025","name":"web","owner":"helm","status":"failed","version":"4"},"namespace":"t1",'
    '"revision":4,"status":"failed","deployedAt":"2026-11-30T14:47:38Z","applyMethod":"ssa"}'
)


def test_parse_metadata() -> None:
    release = parse_metadata(METADATA_JSON)
    assert release == HelmReleaseStatus(
        name="web",
        namespace="t1",
        revision=4,
        status="failed",
        chart_name="smallapp",
        chart_version="0.1.0",
        app_version="1.0.0",
        last_deployed=datetime(2026, 11, 30, 14, 47, 38, tzinfo=UTC),
    )


@pytest.mark.parametrize("parser", [parse_release, parse_metadata])
@pytest.mark.parametrize("text", ["not json", "[]", '{"info": {}}'])
def test_release_parsers_reject_garbage(parser: Callable[[str], HelmReleaseStatus], text: str) -> None:
    with pytest.raises(errors.HelmError):
        parser(text)


def test_parse_history_sorted_by_revision() -> None:
    text = json.dumps(
        [
            {
                "revision": 2,
                "updated": "2025-11-30T14:50:00.1Z",
                "status": "deployed",
                "chart": "smallapp-0.2.0",
                "app_version": "1.0",
                "description": "Upgrade complete",
            },
            {
                "revision": 1,
                "updated": "2025-11-30T14:42:14Z",
                "status": "superseded",
                "chart": "smallapp-0.1.0",
                "app_version": "",
                "description": "Install complete",
            },
        ]
    )
    history = parse_history(text)
    assert [(item.revision, item.status, item.chart) for item in history] == [
        (1, "superseded", "smallapp-0.1.0"),
        (2, "deployed", "smallapp-0.2.0"),
    ]
    assert history[0].app_version is None
    assert history[1].updated == datetime(2025, 11, 30, 14, 50, 0, 100000, tzinfo=UTC)


def test_parse_list_converts_string_revision() -> None:
    text = json.dumps(
        [
            {
                "name": "web",
                "namespace": "t1",
                "revision": "3",
                "updated": "2025-11-30 14:50:00.123456789 +0000 UTC",
                "status": "failed",
                "chart": "smallapp-0.2.0",
                "app_version": "1.0",
            },
        ]
    )
    (item,) = parse_list(text)
    assert (item.name, item.namespace, item.revision, item.status) == ("web", "t1", 3, "failed")
    assert item.updated == datetime(2025, 11, 30, 14, 50, 0, 123456, tzinfo=UTC)


@pytest.mark.parametrize("text", ["[]", "null"])
def test_parse_list_empty(text: str) -> None:
    assert parse_list(text) == []


PLUS_TWO = timezone(timedelta(hours=2))
MINUS_90_MIN = timezone(-timedelta(hours=1, minutes=30))


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("2025-11-30T14:50:00Z", datetime(2025, 11, 30, 14, 50, tzinfo=UTC)),
        ("2025-11-30T14:50:00.5+02:00", datetime(2025, 11, 30, 14, 50, 0, 500000, tzinfo=PLUS_TWO)),
        ("2025-11-30 14:50:00.000000001 -0130 -0130", datetime(2025, 11, 30, 14, 50, tzinfo=MINUS_90_MIN)),
        ("", None),
        (None, None),
        ("yesterday", None),
    ],
)
def test_parse_time(text: str | None, expected: datetime | None) -> None:
    assert parse_time(text) == expected


@pytest.mark.parametrize(
    ("text", "expected"),
    [("null\n", {}), ('{"a": {"b": 1}}', {"a": {"b": 1}})],
)
def test_parse_values_json(text: str, expected: dict) -> None:
    assert parse_values_json(text) == expected


def test_parse_values_json_rejects_non_mapping() -> None:
    with pytest.raises(errors.HelmError):
        parse_values_json("[1]")


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("# only comments\n", {}),
        ("# Default values\nreplicaCount: 1\nimage:\n  tag: ''\n", {"replicaCount": 1, "image": {"tag": ""}}),
    ],
)
def test_parse_values_yaml(text: str, expected: dict) -> None:
    assert parse_values_yaml(text) == expected


@pytest.mark.parametrize("text", ["a: [", "- 1\n- 2\n"])
def test_parse_values_yaml_rejects_bad_charts(text: str) -> None:
    with pytest.raises(errors.ChartError):
        parse_values_yaml(text)
