"""Run the whole stack locally on embedded defaults: a devcluster with its PKI player (certgen hooks and
cert-manager), the API, a Celery worker, beat and the cluster watcher.

Started by ``make run``. State lives in ``.run/`` (git-ignored): generated keys, the SQLite
database, the devcluster kubeconfig and the logs. Ctrl-C stops everything.
"""

from __future__ import annotations

import os
import secrets
import shutil
import signal
import subprocess
import sys
import time
import urllib.request
from pathlib import Path

from cryptography.fernet import Fernet

ROOT = Path(__file__).resolve().parent.parent
# RUN_DIR: where state and logs go (the e2e burst test runs `make run` in a directory of its own).
RUN = Path(os.environ.get("RUN_DIR") or ROOT / ".run")
PY = sys.executable
API_PORT = int(os.environ.get("API_PORT", "8000"))
API_URL = f"http://127.0.0.1:{API_PORT}"
UPSTREAM_CHART = Path(os.environ.get("UPSTREAM_CHART_DIR") or ROOT.parent / "shared" / "charts" / "openshell")
MIRROR_CHART = ROOT / "tests" / "charts" / "gateway"


def local_chart() -> tuple[str, str]:
    """The gateway chart for a local run and what it is: the upstream chart beside the repo, else our mirror."""
    if (UPSTREAM_CHART / "Chart.yaml").is_file():
        return str(UPSTREAM_CHART), "the upstream OpenShell chart"
    return str(MIRROR_CHART), "the test mirror chart (the upstream one is not at ../shared/charts/openshell)"


def local_env() -> dict[str, str]:
    """Keys are generated once and kept in .run/env, so restarts can decrypt what they stored."""
    env_file = RUN / "env"
    if not env_file.exists():
        env_file.write_text(
            f"SECRET_KEY={secrets.token_urlsafe(48)}\nFIELD_ENCRYPTION_KEY={Fernet.generate_key().decode()}\n"
        )
        env_file.chmod(0o600)
    values = dict(line.split("=", 1) for line in env_file.read_text().splitlines() if "=" in line)
    defaults = {
        "GATEWAY_CHART": local_chart()[0],
        "GATEWAY_CHART_VERSION": "",
        "DATABASE_URL": f"sqlite:///{RUN / 'db.sqlite3'}",
        "CELERY_BROKER_URL": "redis://127.0.0.1:6379/0",
        "DJANGO_SETTINGS_MODULE": "controlplane.settings",
        "PYTHONUNBUFFERED": "1",
    }
    return {**defaults, **values, **os.environ}


def manage(env: dict[str, str], *args: str) -> str:
    result = subprocess.run([PY, "manage.py", *args], cwd=ROOT, env=env, capture_output=True, text=True)
    if result.returncode != 0:
        sys.exit(f"manage.py {' '.join(args)} failed:\n{result.stderr}")
    return result.stdout


def start(name: str, argv: list[str], env: dict[str, str]) -> subprocess.Popen:
    log = (RUN / f"{name}.log").open("ab")
    print(f"  starting {name} (log: {RUN / name}.log)")
    return subprocess.Popen(argv, cwd=ROOT, env=env, stdout=log, stderr=subprocess.STDOUT, start_new_session=True)


def wait_until(check: object, what: str, timeout: float = 60.0) -> None:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if check():
            return
        time.sleep(0.25)
    sys.exit(f"timed out waiting for {what}; see the logs in .run/")


def answers(url: str) -> bool:
    try:
        with urllib.request.urlopen(url, timeout=2) as response:
            return response.status == 200
    except OSError:
        return False


def stop(processes: list[subprocess.Popen]) -> None:
    for process in processes:
        if process.poll() is None:
            os.killpg(process.pid, signal.SIGTERM)
    for process in processes:
        try:
            process.wait(timeout=15)
        except subprocess.TimeoutExpired:
            os.killpg(process.pid, signal.SIGKILL)


def main() -> None:
    RUN.mkdir(exist_ok=True)
    # Every process writes its metrics to .run/metrics; a previous run's figures must not be summed in.
    metrics = RUN / "metrics"
    shutil.rmtree(metrics, ignore_errors=True)
    metrics.mkdir()
    env = {**local_env(), "PROMETHEUS_MULTIPROC_DIR": str(metrics)}
    print("preparing the database and the local admin")
    manage(env, "migrate", "--noinput")
    manage(env, "collectstatic", "--noinput")
    credentials = manage(env, "bootstrap_local")

    kubeconfig = RUN / "devcluster.kubeconfig"
    kubeconfig.unlink(missing_ok=True)
    devcluster = [PY, "-m", "devcluster", "serve", "--kubeconfig", str(kubeconfig), "--with", "agent-sandbox"]
    processes = [start("devcluster", devcluster, env)]
    signal.signal(signal.SIGTERM, lambda *_: sys.exit(0))
    try:
        wait_until(kubeconfig.exists, "the devcluster kubeconfig")
        web = os.environ.get("WEB_CONCURRENCY", "2")
        processes += [
            start("pki-player", [PY, "-m", "devcluster", "play-pki", "--kubeconfig", str(kubeconfig)], env),
            start("api", [PY, "-m", "gunicorn", "controlplane.wsgi", "-b", f"127.0.0.1:{API_PORT}", "-w", web], env),
            start("worker", [PY, "-m", "celery", "-A", "controlplane", "worker", "-l", "INFO", "-c", "2"], env),
            start(
                "beat",
                [
                    PY,
                    "-m",
                    "celery",
                    "-A",
                    "controlplane",
                    "beat",
                    "-l",
                    "INFO",
                    "-s",
                    str(RUN / "celerybeat-schedule"),
                ],
                env,
            ),
            start("watcher", [PY, "manage.py", "watch_clusters"], env),
        ]
        manage(env, "addcluster", "local", "--kubeconfig", str(kubeconfig), "--base-domain", "apps.local.test")
        wait_until(lambda: answers(f"{API_URL}/readyz"), "the API to become ready")
        print(f"\nThe control plane is up.\n{credentials}")
        print(f"  API:      {API_URL}/api/v1/\n  Docs:     {API_URL}/api/v1/schema/swagger-ui/")
        print(f"  Admin:    {API_URL}/admin/\n  Ready:    {API_URL}/readyz")
        print(f"  Cluster:  'local' (devcluster, kubeconfig {kubeconfig})")
        chart = env["GATEWAY_CHART"]
        what = dict([local_chart()]).get(chart, "set by GATEWAY_CHART")
        print(f"  Chart:    {chart} ({what})\nPress Ctrl-C to stop.")
        while all(process.poll() is None for process in processes):
            time.sleep(1)
        failed = next(p for p in processes if p.poll() is not None)
        sys.exit(f"a component exited (pid {failed.pid}, code {failed.returncode}); see the logs in .run/")
    except KeyboardInterrupt:
        print("\nstopping")
    finally:
        stop(processes)


if __name__ == "__main__":
    main()
