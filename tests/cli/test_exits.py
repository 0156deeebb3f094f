"""Exit codes, errors read from the API's error shape, and what the CLI prints for them."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from click.testing import CliRunner

from cpctl.exits import API_ERROR, NOT_FOUND, USAGE, api_error, exit_code_for
from cpctl.main import cli


def body(status: int, code: str, message: str, fields: dict | None = None) -> bytes:
    error = {"status": status, "code": code, "message": message, **({"fields": fields} if fields else {})}
    return json.dumps({"error": error}).encode()


@pytest.mark.parametrize(("status", "code"), [(400, 1), (401, 1), (403, 1), (404, 3), (409, 1), (500, 1)])
def test_exit_code_for_status(status: int, code: int) -> None:
    assert exit_code_for(status) == code


def test_api_error_shows_message_and_field_errors() -> None:
    error = api_error(
        400,
        body(
            400,
            "invalid",
            "The request is invalid; see fields.",
            {
                "image": ["Enter a valid image reference."],
                "oidc.issuer": ["Required.", "Must be https."],
            },
        ),
    )
    assert error.exit_code == API_ERROR and error.fields["image"] == ["Enter a valid image reference."]
    assert error.format_message().splitlines() == [
        "The request is invalid; see fields. (HTTP 400, invalid)",
        "  image: Enter a valid image reference.",
        "  oidc.issuer: Required.; Must be https.",
    ]


def test_a_not_found_error_exits_3() -> None:
    error = api_error(404, body(404, "not_found", "No Gateway matches the given query."))
    assert error.exit_code == NOT_FOUND and error.status == 404 and not error.details


@pytest.mark.parametrize(
    ("content", "quoted"),
    [
        (b"<html>\n  <p>Bad Gateway</p>\n</html>", "<html> <p>Bad Gateway</p> </html>"),
        (b"", "no body"),
        (b'{"detail": "x"}', '{"detail": "x"}'),
        (b"[1]", "[1]"),
        (b"x" * 1000, "x" * 300 + " "),
    ],
)
def test_a_body_in_another_shape_is_quoted_on_one_line(content: bytes, quoted: str) -> None:
    error = api_error(502, content)
    assert error.exit_code == API_ERROR and error.code == "unexpected"
    assert error.message == f"unexpected answer: {quoted.rstrip()} (HTTP 502, unexpected)"


def run(tmp_path: Path, *args: str) -> object:
    env = {"CPCTL_CONFIG": str(tmp_path / "config.yaml"), "CPCTL_URL": "", "CPCTL_TOKEN": ""}
    return CliRunner().invoke(cli, list(args), env=env)


def test_usage_errors_exit_2(tmp_path: Path) -> None:
    result = run(tmp_path, "gateways", "list", "-o", "xml")
    assert result.exit_code == USAGE and "xml" in result.stderr
    result = run(tmp_path, "gateways", "wait", "edge", "--for", "phase=Sleeping")
    assert result.exit_code == USAGE and "Sleeping" in result.stderr


def test_no_context_is_a_usage_error_on_stderr(tmp_path: Path) -> None:
    result = run(tmp_path, "gateways", "list")
    assert result.exit_code == USAGE and result.stdout == ""
    assert "cpctl login" in result.stderr


def test_an_unknown_context_exits_3(tmp_path: Path) -> None:
    result = run(tmp_path, "context", "use", "nowhere")
    assert result.exit_code == NOT_FOUND and "nowhere" in result.stderr


def test_an_unreachable_api_exits_1(tmp_path: Path) -> None:
    result = CliRunner().invoke(
        cli,
        ["gateways", "list"],
        env={
            "CPCTL_CONFIG": str(tmp_path / "config.yaml"),
            "CPCTL_URL": "http://127.0.0.1:9",
            "CPCTL_TOKEN": "t",
        },
    )
    assert result.exit_code == API_ERROR and "cannot reach http://127.0.0.1:9" in result.stderr


@pytest.mark.parametrize(("values", "message"), [("{nope", "--values is not JSON"), ("[1]", "a JSON object")])
def test_releases_create_refuses_bad_values_before_any_request(tmp_path: Path, values: str, message: str) -> None:
    result = CliRunner().invoke(
        cli,
        [
            "releases",
            "create",
            "--name",
            "v2",
            "--chart",
            "oci://r.example/c",
            "--version",
            "1.0.0",
            "--image",
            "r.example/o/gw:2",
            "--supervisor-image",
            "r.example/o/sv:2",
            "--values",
            values,
        ],
        env={"CPCTL_CONFIG": str(tmp_path / "config.yaml"), "CPCTL_URL": "http://127.0.0.1:9", "CPCTL_TOKEN": "t"},
    )
    assert result.exit_code == USAGE and message in result.stderr


def test_releases_create_takes_both_images(tmp_path: Path) -> None:
    result = CliRunner().invoke(cli, ["releases", "create", "--help"])
    assert result.exit_code == 0 and "--image" in result.stdout and "--supervisor-image" in result.stdout
    assert "--allow-mixed-provenance" in result.stdout
    sent = CliRunner().invoke(
        cli,
        [
            "releases",
            "create",
            "--name",
            "v2",
            "--chart",
            "oci://r.example/c",
            "--version",
            "1.0.0",
            "--image",
            "r.example/o/gw:2",
            "--supervisor-image",
            "r.example/o/sv:2",
        ],
        env={"CPCTL_CONFIG": str(tmp_path / "config.yaml"), "CPCTL_URL": "http://127.0.0.1:9", "CPCTL_TOKEN": "t"},
    )
    assert sent.exit_code == API_ERROR and "cannot reach http://127.0.0.1:9" in sent.stderr
