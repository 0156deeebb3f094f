"""The image, checked without a container engine: the Dockerfile parsed statically, and the entrypoint's role
mapping run with --dry-run."""

from __future__ import annotations

import json
import re
import shlex
import subprocess

import pytest
import yaml

from tests.paths import PROJECT_ROOT

ENTRYPOINT = PROJECT_ROOT / "scripts" / "entrypoint.sh"
PIN = PROJECT_ROOT / "scripts" / "gateway_chart.pin"
EMBEDDED = "/opt/controlplane/charts/gateway-chart.tgz"


def instructions() -> list[tuple[str, str]]:
    """The Dockerfile's instructions as (KEYWORD, arguments), continuation lines joined, comments dropped."""
    logical, parsed = "", []
    for line in (PROJECT_ROOT / "Dockerfile").read_text().splitlines():
        if not logical and (not line.strip() or line.lstrip().startswith("#")):
            continue
        logical += line.rstrip()
        if logical.endswith("\\"):
            logical = logical[:-1] + " "
            continue
        keyword, _, args = logical.strip().partition(" ")
        parsed.append((keyword.upper(), args.strip()))
        logical = ""
    return parsed


def only(keyword: str) -> str:
    (args,) = [args for kw, args in instructions() if kw == keyword]
    return args


def test_base_image_is_pinned_by_digest() -> None:
    assert re.fullmatch(r"python:3\.11[\w.-]*-slim-bookworm@sha256:[0-9a-f]{64}", only("FROM"))


def test_runs_as_uid_10001_with_its_own_state_directory() -> None:
    assert only("USER").split(":")[0] == "10001"
    env = " ".join(args for kw, args in instructions() if kw == "ENV")
    for variable in (
        "CONTROLPLANE_STATE_DIR=/var/lib/controlplane",
        "CATALOG_STORE_DIR=/var/lib/controlplane/",
        "HELM_HOME=/var/lib/controlplane/",
        "DATABASE_URL=sqlite:////var/lib/controlplane/",
    ):
        assert variable in env
    runs = " ".join(args for kw, args in instructions() if kw == "RUN")
    assert "--uid 10001" in runs and "chown -R 10001:10001 /var/lib/controlplane" in runs


def test_dependencies_and_tools_are_checked_by_sha256() -> None:
    runs = [args for kw, args in instructions() if kw == "RUN"]
    assert any("pip install" in r and "--require-hashes" in r and "requirements.lock" in r for r in runs)
    assert not any("pip install" in r and "--require-hashes" not in r for r in runs)
    assert any("scripts/install_helm.py" in r for r in runs)
    lock = (PROJECT_ROOT / "requirements.lock").read_text()
    hashed = {
        normalise(name): version
        for name, version in re.findall(r"^([A-Za-z0-9_.-]+)==(\S+) \\\n\s+--hash=sha256:[0-9a-f]{64}", lock, re.M)
    }
    pinned = {
        normalise(name): version
        for name, version in re.findall(
            r"^([A-Za-z0-9_.-]+)==(\S+)$", (PROJECT_ROOT / "requirements.txt").read_text(), re.M
        )
    }
    assert pinned and hashed == pinned, "requirements.lock must hash exactly the pins of requirements.txt"


def normalise(name: str) -> str:
    return re.sub(r"[-_.]+", "-", name).lower()


def test_install_script_pins_both_binaries() -> None:
    source = (PROJECT_ROOT / "scripts" / "install_helm.py").read_text()
    for binary in ("helm", "kubectl"):
        assert re.search(rf'"{binary}": \("{binary}/{binary}", "[0-9a-f]{{64}}"\)', source)


def pin() -> dict[str, str]:
    lines = (line.strip() for line in PIN.read_text().splitlines())
    return dict(line.split("=", 1) for line in lines if line and not line.startswith("#"))


def test_the_default_gateway_chart_is_embedded_checked_by_sha256_and_is_every_default() -> None:
    steps = instructions()
    embed = f"python scripts/embed_gateway_chart.py scripts/gateway_chart.pin {EMBEDDED}"
    assert ("COPY", "scripts/gateway_chart.pin scripts/embed_gateway_chart.py scripts/") in steps
    # Embedded before the code is copied in, and a local charts/ directory never replaces the checked archive.
    assert steps.index(("RUN", embed)) < steps.index(("COPY", ". ."))
    assert "charts" in (PROJECT_ROOT / ".dockerignore").read_text().split()
    script = (PROJECT_ROOT / "scripts" / "embed_gateway_chart.py").read_text()
    assert "hashlib.sha256(data).hexdigest()" in script and "actual != expected" in script
    assert pin()["ref"] == "oci://ghcr.io/nvidia/openshell/helm-chart"
    # The same archive is the settings default (BASE_DIR is the image's WORKDIR) and the deploy chart's default.
    assert only("WORKDIR") + "/charts/gateway-chart.tgz" == EMBEDDED
    settings = (PROJECT_ROOT / "controlplane" / "settings.py").read_text()
    assert 'GATEWAY_CHART = env_str("GATEWAY_CHART", str(BASE_DIR / "charts" / "gateway-chart.tgz"))' in settings
    values = yaml.safe_load((PROJECT_ROOT / "deploy" / "chart" / "values.yaml").read_text())
    assert values["gatewayChart"] == {"ref": EMBEDDED, "version": ""}


def test_tests_stay_out_of_the_image() -> None:
    copies = [args for kw, args in instructions() if kw in ("COPY", "ADD")]
    assert not any(re.search(r"(^|\s|/)tests(/|\s|$)", c) for c in copies)
    ignored = (PROJECT_ROOT / ".dockerignore").read_text().split()
    assert "tests" in ignored and "bench" in ignored


def test_healthcheck_asks_healthz_without_curl() -> None:
    check = only("HEALTHCHECK")
    command = json.loads(check[check.index("CMD") + 3 :])
    assert command[:2] == ["python", "-c"] and "/healthz" in command[2] and "curl" not in check


def test_entrypoint_defaults_to_the_api() -> None:
    assert json.loads(only("ENTRYPOINT")) == ["/opt/controlplane/scripts/entrypoint.sh"]
    assert json.loads(only("CMD")) == ["api"]


def dry_run(*args: str, **env: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        ["sh", str(ENTRYPOINT), "--dry-run", *args],
        capture_output=True,
        text=True,
        env={"PATH": "/usr/bin:/bin", **env},
        timeout=10,
    )


@pytest.mark.parametrize(
    ("role", "command"),
    [
        (
            "api",
            "python -m gunicorn controlplane.wsgi --bind 0.0.0.0:8000 --workers 3 --worker-tmp-dir /tmp "
            "--access-logfile -",
        ),
        (
            "content",
            "python -m gunicorn controlplane.wsgi_content --bind 0.0.0.0:8000 --workers 1 --threads 8 "
            "--worker-class gthread --worker-tmp-dir /tmp --access-logfile -",
        ),
        ("worker", "python -m celery -A controlplane worker -l INFO"),
        ("beat", "python -m celery -A controlplane beat -l INFO -s /var/lib/controlplane/celerybeat-schedule"),
        ("watcher", "python manage.py watch_clusters"),
        ("migrate", "python manage.py migrate --noinput"),
    ],
)
def test_entrypoint_maps_each_role(role: str, command: str) -> None:
    done = dry_run(role)
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == command


def test_entrypoint_passes_arguments_and_settings() -> None:
    done = dry_run("worker", "-c", "2", LOG_LEVEL="DEBUG")
    assert shlex.split(done.stdout) == [
        "python",
        "-m",
        "celery",
        "-A",
        "controlplane",
        "worker",
        "-l",
        "DEBUG",
        "-c",
        "2",
    ]
    api = dry_run("api", PORT="9000", GUNICORN_WORKERS="5").stdout
    assert "--bind 0.0.0.0:9000 --workers 5" in api


@pytest.mark.parametrize("args", [(), ("shell",)])
def test_entrypoint_refuses_unknown_roles(args: tuple[str, ...]) -> None:
    done = dry_run(*args)
    assert done.returncode == 64 and "usage" in done.stderr and not done.stdout
