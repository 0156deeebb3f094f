"""``cpctl releases`` with signature policies, against the API served over HTTP (pytest-django's live server)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from click.testing import CliRunner
from cryptography.hazmat.primitives.asymmetric import ec
from rest_framework.authtoken.models import Token

from cpctl.main import cli
from gateways.models import GatewayRelease
from tests.fixtures.registry import public_pem
from tests.paths import MIRROR_CHART

pytestmark = pytest.mark.django_db(transaction=True)

DIGEST = "sha256:" + "ab" * 32
IMAGE, SUPERVISOR = "reg.example.test/openshell/gateway:1.0", "reg.example.test/openshell/supervisor:1.0"


def test_a_release_is_created_with_public_key_files_and_shows_whether_it_is_verified(
    live_server,
    admin_user,
    tmp_path: Path,
) -> None:
    env = {
        "CPCTL_CONFIG": str(tmp_path / "config.yaml"),
        "CPCTL_URL": live_server.url,
        "CPCTL_TOKEN": Token.objects.create(user=admin_user).key,
    }
    keys = [public_pem(ec.generate_private_key(ec.SECP256R1())) for _ in range(3)]
    files = []
    for number, key in enumerate(keys):
        files.append(tmp_path / f"cosign-{number}.pub")
        files[-1].write_text(key)

    def cpctl(*args: str) -> object:
        return CliRunner().invoke(cli, list(args), env=env)

    created = cpctl(
        "releases",
        "create",
        "--name",
        "signed",
        "--chart",
        str(MIRROR_CHART),
        "--chart-digest",
        DIGEST,
        "--image",
        IMAGE,
        "--supervisor-image",
        SUPERVISOR,
        "--public-key",
        str(files[0]),
        "--public-key",
        str(files[1]),
        "-o",
        "json",
    )
    assert created.exit_code == 0, created.output
    assert json.loads(created.stdout)["signature_policy"] == {"public_keys": keys[0] + keys[1].strip()}
    assert GatewayRelease.objects.get().chart_digest == DIGEST

    private = tmp_path / "cosign.key"
    private.write_text("-----BEGIN PRIVATE KEY-----\nAAAA\n-----END PRIVATE KEY-----\n")
    refused = cpctl(
        "releases",
        "create",
        "--name",
        "bad",
        "--chart",
        str(MIRROR_CHART),
        "--chart-digest",
        DIGEST,
        "--image",
        IMAGE,
        "--supervisor-image",
        SUPERVISOR,
        "--public-key",
        str(private),
    )
    assert refused.exit_code == 1 and "signature_policy.public_keys: Key 1 is a private key" in refused.stderr

    header, row = cpctl("releases", "get", "signed").stdout.splitlines()
    assert header.split()[-1] == "VERIFIED" and row.split()[-1] == "Pending"  # not verified yet: no condition
    changed = cpctl("releases", "keys", "signed", "--public-key", str(files[2]), "-o", "json")
    assert changed.exit_code == 0, changed.output
    assert GatewayRelease.objects.get().signature_keys == keys[2].strip()
    GatewayRelease.objects.update(
        status="Ready",
        conditions=[
            {
                "type": "Verified",
                "status": "False",
                "reason": "VerificationFailed",
                "message": "no signature",
                "lastTransitionTime": "2026-12-05T15:00:00+00:00",
                "observedGeneration": 0,
            }
        ],
    )
    assert cpctl("releases", "get", "signed").stdout.splitlines()[1].split()[-1] == "False"
