"""Benchmark: a slow cluster beside fast ones; the fast clusters' gateways must reach Running at their normal pace.

    .venv/bin/python bench/slow_cluster.py [--per-cluster 30] [--latency-ms 500] [--concurrency 4] [--smoke]

In one run, with the same devclusters, chart and worker (one Celery worker of `--concurrency` pool slots):
  1. baseline: two fast clusters only; M gateways created on each, timed until all of them are Running;
  2. the same two fast clusters beside a third whose API answers every request `--latency-ms` late
     (devcluster's fault injection, so helm's requests are slow too); M gateways on each of the three,
     created interleaved, timed until the fast clusters' gateways are all Running.
It prints both times, the ratio (goal: about 1x) and the load average. It needs PostgreSQL and Redis on
loopback; BENCH_DB_NAME and BENCH_REDIS_DB pick the database and the first of two Redis DBs (7 and 8 by
default: the broker, then the cache, both flushed).
"""

from __future__ import annotations

import argparse
import os
import signal
import subprocess
import sys
import tempfile
import time
from contextlib import ExitStack
from pathlib import Path

import psycopg
import redis
import requests

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from bench.gateways import CHART, wait_for_api  # noqa: E402
from tests.fixtures.devcluster import DevCluster, start_devcluster  # noqa: E402
from tests.ports import free_port  # noqa: E402

DB_NAME = os.environ.get("BENCH_DB_NAME", "bench_slow_cluster")
REDIS_DB = int(os.environ.get("BENCH_REDIS_DB", "7"))
BROKER = f"redis://127.0.0.1:6379/{REDIS_DB}"
ENV = {
    **os.environ,
    "SECRET_KEY": "bench-only-secret-key-0123456789-abcdefghijklmnopqrstuvwxyz",
    "FIELD_ENCRYPTION_KEY": "YmVuY2gtb25seS1maWVsZC1lbmNyeXB0aW9uLWtleTA=",
    "DATABASE_URL": f"postgres://postgres@127.0.0.1:5432/{DB_NAME}",
    "CELERY_BROKER_URL": BROKER,
    "CACHE_URL": f"redis://127.0.0.1:6379/{REDIS_DB + 1}",
    "API_THROTTLE_USER_RATE": "100000/min",
    "GATEWAY_POLL_SECONDS": "1",
    "RESYNC_INTERVAL_SECONDS": "5",
    "PYTHONUNBUFFERED": "1",
    "GATEWAY_CHART": str(CHART),
    "GATEWAY_CHART_VERSION": "",
}
FAST = ("fast0", "fast1")
SLOW = "slow"
TIMEOUT_SECONDS = 60 * 20


def manage(*args: str) -> str:
    done = subprocess.run([sys.executable, "manage.py", *args], cwd=ROOT, env=ENV, capture_output=True, text=True)
    if done.returncode:
        sys.exit(f"manage.py {args[0]} failed:\n{done.stderr}")
    return done.stdout.strip()


def reset_database() -> None:
    with psycopg.connect("postgres://postgres@127.0.0.1:5432/postgres", autocommit=True) as conn:
        conn.execute(f"DROP DATABASE IF EXISTS {DB_NAME} WITH (FORCE)")
        conn.execute(f"CREATE DATABASE {DB_NAME}")
    for db in (REDIS_DB, REDIS_DB + 1):
        redis.Redis(db=db).flushdb()
    manage("migrate", "--noinput")


def time_to_running(
    clusters: dict[str, DevCluster], per_cluster: int, concurrency: int, logdir: Path, label: str
) -> tuple[float, dict[str, int]]:
    """Create `per_cluster` gateways on each cluster (interleaved); seconds until every fast cluster's are
    Running, and how many of each cluster's were Running then."""
    reset_database()
    token = manage("bootstrap_local", "--username", "bench").rsplit("API token: ", 1)[1]
    for name, cluster in clusters.items():
        manage("addcluster", name, "--kubeconfig", str(cluster.kubeconfig), "--base-domain", "bench.test")
    port = free_port()
    argv = {
        "api": [sys.executable, "-m", "gunicorn", "controlplane.wsgi", "-b", f"127.0.0.1:{port}", "-w", "1"],
        "beat": [sys.executable, "-m", "celery", "-A", "controlplane", "beat", "-s", str(logdir / f"{label}-beat")],
        "worker": [
            sys.executable,
            "-m",
            "celery",
            "-A",
            "controlplane",
            "worker",
            "-c",
            str(concurrency),
            "-n",
            f"{label}@%h",
            "--without-mingle",
            "--without-gossip",
        ],
    }
    processes = [
        subprocess.Popen(
            cmd,
            cwd=ROOT,
            env=ENV,
            stdout=(logdir / f"{label}-{name}.log").open("w"),
            stderr=subprocess.STDOUT,
            start_new_session=True,
        )
        for name, cmd in argv.items()
    ]
    api = requests.Session()
    api.headers["Authorization"] = f"Token {token}"
    base = f"http://127.0.0.1:{port}/api/v1"
    try:
        wait_for_api(api, base, processes)
        started = time.monotonic()
        for n in range(per_cluster):
            for name in clusters:
                body = {
                    "name": f"{label}-{name}-{n}",
                    "cluster": name,
                    "image": "ghcr.io/o/gw:1",
                    "supervisor_image": "ghcr.io/o/sv:1",
                }
                api.post(f"{base}/gateways/", json=body, timeout=30).raise_for_status()
        while True:
            running = {name: _running(api, base, name) for name in clusters}
            if all(running[name] == per_cluster for name in FAST):
                return time.monotonic() - started, running
            if time.monotonic() - started > TIMEOUT_SECONDS:
                sys.exit(f"{label}: the fast clusters' gateways did not all reach Running: {running}")
            time.sleep(0.5)
    finally:
        for process in processes:
            os.killpg(process.pid, signal.SIGTERM)
        for process in processes:
            process.wait(timeout=30)


def _running(api: requests.Session, base: str, cluster: str) -> int:
    response = api.get(f"{base}/gateways/", params={"cluster": cluster, "phase": "Running", "limit": 1}, timeout=30)
    response.raise_for_status()
    return int(response.json()["count"])


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--per-cluster", type=int, default=30, help="gateways created on each cluster")
    parser.add_argument("--latency-ms", type=int, default=500, help="added to every API request of the slow cluster")
    parser.add_argument("--concurrency", type=int, default=4, help="the worker's pool slots (celery -c)")
    parser.add_argument("--smoke", action="store_true", help="small sizes, for CI")
    args = parser.parse_args()
    per_cluster = 2 if args.smoke else args.per_cluster
    os.environ.update({k: v for k, v in ENV.items() if k in ("SECRET_KEY", "FIELD_ENCRYPTION_KEY")})
    with tempfile.TemporaryDirectory() as tmp, ExitStack() as stack:
        work = Path(tmp)
        clusters = {
            name: stack.enter_context(start_devcluster(work / name, ready_delay=0.2, extra_presets=("agent-sandbox",)))
            for name in (*FAST, SLOW)
        }
        fast = {name: clusters[name] for name in FAST}
        alone, _ = time_to_running(fast, per_cluster, args.concurrency, work, "alone")
        clusters[SLOW].add_fault(r"^/(api|apis|version)(/|$)", status=None, latency_ms=args.latency_ms)
        beside, running = time_to_running(clusters, per_cluster, args.concurrency, work, "beside")
    load = " ".join(f"{value:.2f}" for value in os.getloadavg())
    print(
        f"gateways per cluster: {per_cluster}; worker pool slots: {args.concurrency}; "
        f"slow cluster: +{args.latency_ms} ms per API request"
    )
    print(f"fast clusters alone, all Running:           {alone:7.1f} s")
    print(
        f"fast clusters beside the slow, all Running: {beside:7.1f} s  "
        f"(slow cluster then: {running[SLOW]}/{per_cluster} Running)"
    )
    print(f"slowdown ratio (beside / alone): {beside / alone:.2f}x  (goal: about 1x)")
    print(f"load average: {load}")


if __name__ == "__main__":
    main()
