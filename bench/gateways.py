"""Benchmark: time for N gateways to reach Running through the control plane, against plain helm.

    .venv/bin/python bench/gateways.py [--count 50]

In one run, against one devcluster with the same chart and the same values:
  1. baseline: a loop of `helm install --wait`, one release per namespace;
  2. the control plane with one worker process: N gateways created through the API, timed until
     every one reports Running;
  3. the same with two worker processes.
It prints the figures, the control plane's overhead ratio against the baseline, and the speedup
of two workers over one. It needs PostgreSQL and Redis on loopback (as `make test` does).
"""

from __future__ import annotations

import argparse
import json
import os
import signal
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import psycopg
import redis
import requests

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from tests.fixtures.devcluster import start_devcluster  # noqa: E402
from tests.fixtures.stack import free_port  # noqa: E402

DB_NAME = os.environ.get("BENCH_DB_NAME", "bench_controlplane")
BROKER = f"redis://127.0.0.1:6379/{os.environ.get('BENCH_REDIS_DB', '12')}"
CACHE = f"redis://127.0.0.1:6379/{os.environ.get('BENCH_CACHE_REDIS_DB', '11')}"
CHART = ROOT / "tests" / "charts" / "gateway"
HELM = ROOT / ".tools" / "helm"
ENV = {
    **os.environ,
    "SECRET_KEY": "bench-only-secret-key-0123456789-abcdefghijklmnopqrstuvwxyz",
    "FIELD_ENCRYPTION_KEY": "YmVuY2gtb25seS1maWVsZC1lbmNyeXB0aW9uLWtleTA=",
    "DATABASE_URL": f"postgres://postgres@127.0.0.1:5432/{DB_NAME}",
    "CELERY_BROKER_URL": BROKER,
    "CACHE_URL": CACHE,
    "API_THROTTLE_USER_RATE": "100000/min",
    "GATEWAY_POLL_SECONDS": "1",
    "RESYNC_INTERVAL_SECONDS": "5",
    "PYTHONUNBUFFERED": "1",
    "GATEWAY_CHART": str(CHART),
    "GATEWAY_CHART_VERSION": "",
}


def reset_database() -> None:
    with psycopg.connect("postgres://postgres@127.0.0.1:5432/postgres", autocommit=True) as conn:
        conn.execute(f"DROP DATABASE IF EXISTS {DB_NAME} WITH (FORCE)")
        conn.execute(f"CREATE DATABASE {DB_NAME}")
    redis.Redis.from_url(BROKER).flushdb()
    manage("migrate", "--noinput")


def manage(*args: str) -> str:
    done = subprocess.run([sys.executable, "manage.py", *args], cwd=ROOT, env=ENV, capture_output=True, text=True)
    if done.returncode:
        sys.exit(f"manage.py {args[0]} failed:\n{done.stderr}")
    return done.stdout.strip()


def values_for(namespace: str, release: str) -> dict:
    """The values the control plane computes for the benchmark's gateways, via its own mapping."""
    from gateways.values import ClusterFacts, GatewaySpec, RoutingConfig, gateway_values

    spec = GatewaySpec(namespace=namespace, release=release, image="ghcr.io/o/gw:1", supervisor_image="ghcr.io/o/sv:1")
    facts = ClusterFacts(flavour="kubernetes", base_domain="bench.test", gateway_api=True)
    return gateway_values(spec, facts, RoutingConfig(gateway_name="shared-gateway", gateway_namespace="gateway-system"))


def baseline(kubeconfig: Path, count: int, workdir: Path) -> float:
    """Plain helm: create the namespace and `helm install --wait`, one after another."""
    env = {**os.environ, "HELM_DRIVER": "secret", "KUBECONFIG": str(kubeconfig), "HOME": str(workdir)}
    started = time.monotonic()
    for n in range(count):
        namespace, release = f"base-{n}", f"gw{n}"
        subprocess.run([HELM.parent / "kubectl", "create", "namespace", namespace], env=env, check=True,
                       capture_output=True)
        values = workdir / f"values-{n}.json"
        values.write_text(json.dumps(values_for(namespace, release)))
        subprocess.run([HELM, "install", release, str(CHART), "-n", namespace, "-f", str(values), "--wait",
                        "--timeout=120s"], env=env, check=True, capture_output=True)
    return time.monotonic() - started


def control_plane(kubeconfig: Path, count: int, workers: int, logdir: Path, label: str) -> float:
    reset_database()
    port = free_port()
    token = manage("bootstrap_local", "--username", "bench").rsplit("API token: ", 1)[1]
    manage("addcluster", "bench", "--kubeconfig", str(kubeconfig), "--base-domain", "bench.test")
    argv = {
        "api": [sys.executable, "-m", "gunicorn", "controlplane.wsgi", "-b", f"127.0.0.1:{port}", "-w", "2"],
        "beat": [sys.executable, "-m", "celery", "-A", "controlplane", "beat", "-s", str(logdir / f"{label}-beat")],
        **{
            f"worker{i}": [sys.executable, "-m", "celery", "-A", "controlplane", "worker", "-c", "1", "-n",
                           f"bench{i}@%h", "--without-mingle", "--without-gossip"]
            for i in range(workers)
        },
    }
    processes = [
        subprocess.Popen(cmd, cwd=ROOT, env=ENV, stdout=(logdir / f"{label}-{name}.log").open("w"),
                         stderr=subprocess.STDOUT, start_new_session=True)
        for name, cmd in argv.items()
    ]
    api = requests.Session()
    api.headers["Authorization"] = f"Token {token}"
    base = f"http://127.0.0.1:{port}/api/v1"
    try:
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline:
            try:
                if api.get(f"{base}/gateways/", timeout=2).ok:
                    break
            except requests.RequestException:
                time.sleep(0.2)
        started = time.monotonic()
        for n in range(count):
            body = {"name": f"{label}{n}", "cluster": "bench", "image": "ghcr.io/o/gw:1",
                    "supervisor_image": "ghcr.io/o/sv:1"}
            api.post(f"{base}/gateways/", json=body, timeout=30).raise_for_status()
        while True:
            listed = api.get(f"{base}/gateways/?phase=Running&limit=1", timeout=30).json()["count"]
            if listed == count:
                return time.monotonic() - started
            if time.monotonic() - started > 60 * 30:
                sys.exit(f"{label}: only {listed}/{count} gateways reached Running")
            time.sleep(0.5)
    finally:
        for process in processes:
            os.killpg(process.pid, signal.SIGTERM)
        for process in processes:
            process.wait(timeout=30)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--count", type=int, default=50)
    args = parser.parse_args()
    os.environ.update({k: v for k, v in ENV.items() if k in ("SECRET_KEY", "FIELD_ENCRYPTION_KEY")})
    with tempfile.TemporaryDirectory() as tmp:
        work = Path(tmp)
        with start_devcluster(work / "dc", ready_delay=0.2, extra_presets=("agent-sandbox",)) as dc:
            base = baseline(dc.kubeconfig, args.count, work)
            one = control_plane(dc.kubeconfig, args.count, 1, work, "one")
            two = control_plane(dc.kubeconfig, args.count, 2, work, "two")
    n = args.count
    print(f"gateways: {n}")
    print(f"baseline  helm install --wait loop: {base:7.1f} s  ({base / n:.2f} s per gateway)")
    print(f"control plane, 1 worker:            {one:7.1f} s  ({one / n:.2f} s per gateway)")
    print(f"control plane, 2 workers:           {two:7.1f} s  ({two / n:.2f} s per gateway)")
    print(f"overhead ratio (1 worker / baseline): {one / base:.2f}")
    print(f"speedup (1 worker / 2 workers):       {one / two:.2f}")


if __name__ == "__main__":
    main()
