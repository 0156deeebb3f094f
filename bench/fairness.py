"""Benchmark: tenant B's new gateway, and a platform admin's delete, during tenant A's burst and on an idle system.

    .venv/bin/python bench/fairness.py [--count 1000] [--smoke]

In one run, against one devcluster shared by both tenants, with one worker process (2 slots), beat and the API:
  1. idle, IDLE_SAMPLES times each (the median is the baseline): tenant B creates one gateway, timed until
     Running; a platform admin deletes one of tenant A's Running gateways, timed until the record is gone;
  2. burst: tenant A creates --count gateways through the API as fast as it can; right after, B creates one
     gateway and the admin deletes another of A's, both timed the same way while A's backlog drains.
It prints both pairs of times, their ratios (burst / idle; the goal is 2x or less), how many of A's gateways were
not yet Running when B's was, and the load average. It needs PostgreSQL and Redis on loopback (as `make test`);
BENCH_DB_NAME, BENCH_REDIS_DB and BENCH_CACHE_REDIS_DB pick the database and the Redis databases it may wipe.
"""

from __future__ import annotations

import argparse
import os
import signal
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

import requests

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from bench.gateways import ENV, manage, migrated_database  # noqa: E402
from tests.fixtures.devcluster import start_devcluster  # noqa: E402
from tests.ports import free_port  # noqa: E402

SMOKE_COUNT = 30
IDLE_SAMPLES = 3  # one idle time is too noisy a baseline on 2 cores (0.2 to 1.5 s for the same delete)
FAIRNESS_GOAL = 2.0
POLL_SECONDS = 0.2
# Tenants name their images only where the policy allows it; the benchmark's tenants do.
BENCH_ENV = {**ENV, "GATEWAY_IMAGE_OVERRIDES": "allow", "GATEWAY_IMAGE_REPOSITORIES": "*"}
USERS = {"admin": True, "tenant-a": False, "tenant-b": False}  # name: platform admin?
# In one Django process (each costs a start-up): the cluster, and the users with their tokens.
SETUP = (
    "from django.contrib.auth import get_user_model\n"
    "from django.core.management import call_command\n"
    "from rest_framework.authtoken.models import Token\n"
    "call_command('addcluster', 'bench', '--kubeconfig', {kubeconfig!r}, '--base-domain', 'bench.test')\n"
    "for name, admin in {users!r}.items():\n"
    "    user = get_user_model().objects.create_user(name, is_staff=admin, is_superuser=admin)\n"
    "    print('token', name, Token.objects.create(user=user).key)\n"
)


class BenchFailure(Exception):
    """The run could not measure what it set out to."""


@dataclass
class Api:
    """One user's session on the API."""

    base: str
    session: requests.Session

    @classmethod
    def for_token(cls, base: str, token: str) -> Api:
        session = requests.Session()
        session.headers["Authorization"] = f"Token {token}"
        return cls(base, session)

    def create(self, name: str) -> str:
        body = {"name": name, "cluster": "bench", "image": "ghcr.io/o/gw:1", "supervisor_image": "ghcr.io/o/sv:1"}
        answer = self.session.post(f"{self.base}/gateways/", json=body, timeout=60)
        if answer.status_code != 201:
            raise BenchFailure(f"creating {name}: {answer.status_code} {answer.text[:300]}")
        return answer.json()["id"]

    def delete(self, gateway_id: str) -> None:
        answer = self.session.delete(f"{self.base}/gateways/{gateway_id}/", timeout=60)
        if answer.status_code != 202:
            raise BenchFailure(f"deleting {gateway_id}: {answer.status_code} {answer.text[:300]}")

    def running(self, gateway_id: str) -> bool:
        answer = self.session.get(f"{self.base}/gateways/{gateway_id}/", timeout=60)
        answer.raise_for_status()
        return answer.json()["status"]["phase"] == "Running"

    def gone(self, gateway_id: str) -> bool:
        return self.session.get(f"{self.base}/gateways/{gateway_id}/", timeout=60).status_code == 404

    def not_running(self, name_prefix: str) -> int:
        query = {"search": name_prefix, "limit": 1}
        total = self.session.get(f"{self.base}/gateways/", params=query, timeout=60).json()["count"]
        running = self.session.get(f"{self.base}/gateways/", params={**query, "phase": "Running"}, timeout=60)
        return total - running.json()["count"]


def wait_all(checks: dict[str, Callable[[], bool]], timeout: float) -> dict[str, float]:
    """Poll every check until each has held once; the seconds each took, from now."""
    started, took = time.monotonic(), {}
    while len(took) < len(checks):
        for label, check in checks.items():
            if label not in took and check():
                took[label] = time.monotonic() - started
        if time.monotonic() - started > timeout:
            raise BenchFailure(f"timed out after {timeout:.0f}s waiting for {sorted(set(checks) - set(took))}")
        time.sleep(POLL_SECONDS)
    return took


def start_stack(logdir: Path) -> tuple[str, list[subprocess.Popen]]:
    """A fresh database, and the API, one worker and beat on it; the API's base URL and the processes."""
    migrated_database()
    port = free_port()
    argv = {
        "api": [sys.executable, "-m", "gunicorn", "controlplane.wsgi", "-b", f"127.0.0.1:{port}", "-w", "2"],
        "beat": [sys.executable, "-m", "celery", "-A", "controlplane", "beat", "-s", str(logdir / "beat")],
        "worker": [
            sys.executable,
            "-m",
            "celery",
            "-A",
            "controlplane",
            "worker",
            "-c",
            "2",
            "-n",
            "fair@%h",
            "--without-mingle",
            "--without-gossip",
        ],
    }
    processes = [
        subprocess.Popen(
            cmd,
            cwd=ROOT,
            env=BENCH_ENV,
            stdout=(logdir / f"{name}.log").open("w"),
            stderr=subprocess.STDOUT,
            start_new_session=True,
        )
        for name, cmd in argv.items()
    ]
    return f"http://127.0.0.1:{port}/api/v1", processes


def set_up(kubeconfig: Path) -> dict[str, str]:
    """The cluster, the admin and the two tenants (while the stack starts); each user's API token."""
    made = manage("shell", "-c", SETUP.format(kubeconfig=str(kubeconfig), users=USERS)).splitlines()
    return dict(line.split()[1:] for line in made if line.startswith("token "))


def wait_for_api(api: Api) -> None:
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        try:
            if api.session.get(f"{api.base}/gateways/", timeout=2).ok:
                return
        except requests.RequestException:
            pass
        time.sleep(POLL_SECONDS)
    raise BenchFailure("the API did not answer within 60 s")


@dataclass
class Figures:
    count: int
    b_idle: float
    admin_idle: float
    b_burst: float
    admin_burst: float
    burst_post: float
    a_waiting: int


def measure(tenant_a: Api, tenant_b: Api, admin: Api, count: int, timeout: float) -> Figures:
    # Idle: B's gateway alone, then an admin's delete of one of A's Running gateways; each a few times.
    victims = [tenant_a.create(f"avictim{n}") for n in range(IDLE_SAMPLES + 1)]
    wait_all({v: lambda v=v: tenant_a.running(v) for v in victims}, timeout)
    b_idle, admin_idle = [], []
    for n, victim in enumerate(victims[:IDLE_SAMPLES]):
        b_gateway = tenant_b.create(f"bidle{n}")
        b_idle.append(wait_all({"b": lambda b_gateway=b_gateway: tenant_b.running(b_gateway)}, timeout)["b"])
        admin.delete(victim)
        admin_idle.append(wait_all({"admin": lambda victim=victim: admin.gone(victim)}, timeout)["admin"])

    # Burst: A's gateways, then at once B's one new gateway and the admin's delete.
    started = time.monotonic()
    for n in range(count):
        tenant_a.create(f"aburst{n}")
    burst_post = time.monotonic() - started
    b_burst = tenant_b.create("bburst")
    admin.delete(victims[-1])
    a_waiting: list[int] = []

    def b_running() -> bool:
        done = tenant_b.running(b_burst)
        if done:
            a_waiting.append(tenant_a.not_running("aburst"))
        return done

    burst = wait_all({"b": b_running, "admin": lambda: admin.gone(victims[-1])}, timeout)
    return Figures(
        count,
        statistics.median(b_idle),
        statistics.median(admin_idle),
        burst["b"],
        burst["admin"],
        burst_post,
        a_waiting[0],
    )


def report(figures: Figures) -> None:
    n = figures.count
    b_ratio, admin_ratio = figures.b_burst / figures.b_idle, figures.admin_burst / figures.admin_idle
    print(f"tenant A's burst: {n} gateways created through the API in {figures.burst_post:.1f} s")
    print(f"tenant B's gateway to Running, idle:           {figures.b_idle:7.2f} s  (median of {IDLE_SAMPLES})")
    print(
        f"tenant B's gateway to Running, during A's burst: {figures.b_burst:7.2f} s"
        f"  (A's gateways not yet Running then: {figures.a_waiting}/{n})"
    )
    print(f"admin's delete to gone, idle:                  {figures.admin_idle:7.2f} s  (median of {IDLE_SAMPLES})")
    print(f"admin's delete to gone, during A's burst:      {figures.admin_burst:7.2f} s")
    print(f"tenant B ratio (burst / idle): {b_ratio:.2f}x  (goal: {FAIRNESS_GOAL:.0f}x or less)")
    print(f"admin ratio (burst / idle): {admin_ratio:.2f}x  (goal: {FAIRNESS_GOAL:.0f}x or less)")
    print("load average (1, 5, 15 min): {:.2f} {:.2f} {:.2f}".format(*os.getloadavg()))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--count", type=int, default=1000, help="tenant A's burst (default 1000)")
    parser.add_argument("--smoke", action="store_true", help=f"a burst of {SMOKE_COUNT}, for CI")
    args = parser.parse_args()
    count = SMOKE_COUNT if args.smoke else args.count
    timeout = 300.0 if args.smoke else 3600.0
    print("load average at start (1, 5, 15 min): {:.2f} {:.2f} {:.2f}".format(*os.getloadavg()))
    with tempfile.TemporaryDirectory() as tmp:
        work = Path(tmp)
        with start_devcluster(work / "dc", ready_delay=0.2, extra_presets=("agent-sandbox",)) as dc:
            base, processes = start_stack(work)
            try:
                tokens = set_up(dc.kubeconfig)
                admin = Api.for_token(base, tokens["admin"])
                wait_for_api(admin)
                figures = measure(
                    Api.for_token(base, tokens["tenant-a"]),
                    Api.for_token(base, tokens["tenant-b"]),
                    admin,
                    count,
                    timeout,
                )
            except BenchFailure as exc:
                for log in sorted(work.glob("*.log")):
                    print(f"--- {log.name} (last lines)\n" + "\n".join(log.read_text().splitlines()[-15:]))
                sys.exit(f"fairness benchmark failed: {exc}")
            finally:
                for process in processes:
                    os.killpg(process.pid, signal.SIGTERM)
                for process in processes:
                    process.wait(timeout=30)
    report(figures)


if __name__ == "__main__":
    main()
