"""The content store's configuration (CATALOG_STORE, CATALOG_S3_*) and the S3 store's pure range planning."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest
from django.core.exceptions import ImproperlyConfigured

from catalogs.store.s3 import S3Config, windows
from controlplane.catalog_store_env import S3_VARIABLES, catalog_s3_env
from tests.paths import PROJECT_ROOT, PYPROJECT

SECRET = "very-secret-value-123"


@pytest.fixture(autouse=True)
def clean_env(monkeypatch: pytest.MonkeyPatch) -> pytest.MonkeyPatch:
    for name in (*S3_VARIABLES, "AWS_ACCESS_KEY_ID", "AWS_SECRET_ACCESS_KEY", "AWS_REGION", "AWS_DEFAULT_REGION"):
        monkeypatch.delenv(name, raising=False)
    return monkeypatch


def test_directory_store_needs_nothing(clean_env: pytest.MonkeyPatch) -> None:
    assert catalog_s3_env("fs") == {}


def test_s3_settings_with_defaults_and_aws_keys(clean_env: pytest.MonkeyPatch) -> None:
    clean_env.setenv("CATALOG_S3_BUCKET", "catalogs")
    clean_env.setenv("CATALOG_S3_PREFIX", "/prod/eu/")
    clean_env.setenv("AWS_ACCESS_KEY_ID", "AKID")
    clean_env.setenv("AWS_SECRET_ACCESS_KEY", SECRET)
    clean_env.setenv("AWS_REGION", "eu-west-1")
    assert catalog_s3_env("s3") == {
        "bucket": "catalogs",
        "prefix": "prod/eu/",
        "endpoint_url": None,
        "region": "eu-west-1",
        "access_key_id": "AKID",
        "secret_access_key": SECRET,
        "verify": True,
        "addressing_style": "auto",
    }


def test_own_keys_win_and_a_ca_bundle_is_the_verify_path(clean_env: pytest.MonkeyPatch, tmp_path: Path) -> None:
    bundle = tmp_path / "ca.pem"
    bundle.write_text("-----BEGIN CERTIFICATE-----\n")
    for name, value in {
        "CATALOG_S3_BUCKET": "catalogs",
        "CATALOG_S3_ENDPOINT_URL": "https://minio.example:9000",
        "CATALOG_S3_ACCESS_KEY_ID": "own",
        "CATALOG_S3_SECRET_ACCESS_KEY": SECRET,
        "AWS_ACCESS_KEY_ID": "aws",
        "AWS_SECRET_ACCESS_KEY": "aws-secret",
        "CATALOG_S3_CA_BUNDLE": str(bundle),
        "CATALOG_S3_ADDRESSING_STYLE": "path",
    }.items():
        clean_env.setenv(name, value)
    found = catalog_s3_env("s3")
    assert (found["access_key_id"], found["secret_access_key"]) == ("own", SECRET)
    assert found["verify"] == str(bundle) and found["addressing_style"] == "path" and found["prefix"] == ""


@pytest.mark.parametrize(
    ("store", "env", "named"),
    [
        ("s3", {}, "CATALOG_S3_BUCKET"),
        ("s3", {"CATALOG_S3_BUCKET": "No_Such"}, "CATALOG_S3_BUCKET"),
        ("fs", {"CATALOG_S3_BUCKET": "catalogs"}, "CATALOG_S3_BUCKET"),
        ("s3", {"CATALOG_S3_ENDPOINT_URL": "ftp://host"}, "CATALOG_S3_ENDPOINT_URL"),
        ("s3", {"CATALOG_S3_ENDPOINT_URL": "https://"}, "CATALOG_S3_ENDPOINT_URL"),
        ("s3", {"CATALOG_S3_ACCESS_KEY_ID": "own"}, "CATALOG_S3_SECRET_ACCESS_KEY"),
        ("s3", {"AWS_SECRET_ACCESS_KEY": SECRET}, "AWS_ACCESS_KEY_ID"),
        ("s3", {"CATALOG_S3_CA_BUNDLE": "/no/such/ca.pem"}, "CATALOG_S3_CA_BUNDLE"),
        ("s3", {"CATALOG_S3_CA_BUNDLE": str(PYPROJECT), "CATALOG_S3_VERIFY_TLS": "false"}, "CATALOG_S3_CA_BUNDLE"),
        (
            "s3",
            {"CATALOG_S3_ENDPOINT_URL": "http://127.0.0.1:9000", "CATALOG_S3_VERIFY_TLS": "false"},
            "CATALOG_S3_VERIFY_TLS",
        ),
        ("s3", {"CATALOG_S3_VERIFY_TLS": "maybe"}, "CATALOG_S3_VERIFY_TLS"),
        ("s3", {"CATALOG_S3_ADDRESSING_STYLE": "dns"}, "CATALOG_S3_ADDRESSING_STYLE"),
    ],
)
def test_invalid_settings_fail_naming_the_variable(
    clean_env: pytest.MonkeyPatch, store: str, env: dict[str, str], named: str
) -> None:
    if store == "s3" and named != "CATALOG_S3_BUCKET":
        clean_env.setenv("CATALOG_S3_BUCKET", "catalogs")
    for name, value in env.items():
        clean_env.setenv(name, value)
    with pytest.raises(ImproperlyConfigured) as failure:
        catalog_s3_env(store)
    assert str(failure.value).startswith(named + " ") and SECRET not in str(failure.value)


def test_start_up_fails_with_the_message(clean_env: pytest.MonkeyPatch) -> None:
    env = {**os.environ, "CATALOG_STORE": "s3", "DJANGO_SETTINGS_MODULE": "controlplane.settings"}
    done = subprocess.run(
        [sys.executable, "-c", "import django; django.setup()"],
        cwd=PROJECT_ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert done.returncode != 0 and "CATALOG_S3_BUCKET is not set" in done.stderr


def test_the_secret_stays_out_of_the_config_repr() -> None:
    config = S3Config(
        bucket="b",
        prefix="",
        endpoint_url=None,
        region="us-east-1",
        access_key_id="AKID",
        secret_access_key=SECRET,
        verify=True,
        addressing_style="auto",
        scratch_root=Path("/tmp"),
    )
    assert SECRET not in repr(config) and "AKID" in repr(config)


@pytest.mark.parametrize(
    ("spans", "gap", "expected"),
    [
        ([], 10, []),
        ([(0, 5)], 10, [(0, 5, [(0, 5)])]),
        ([(0, 5), (5, 5)], 0, [(0, 10, [(0, 5), (5, 5)])]),
        ([(0, 5), (10, 5), (100, 1)], 10, [(0, 15, [(0, 5), (10, 5)]), (100, 1, [(100, 1)])]),
        ([(0, 5), (16, 4)], 10, [(0, 5, [(0, 5)]), (16, 4, [(16, 4)])]),
    ],
)
def test_spans_are_grouped_into_ranged_gets(
    spans: list[tuple[int, int]], gap: int, expected: list[tuple[int, int, list[tuple[int, int]]]]
) -> None:
    assert windows(spans, max_gap=gap) == expected
