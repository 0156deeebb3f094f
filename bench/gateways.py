"""Benchmark: cold installs. Time and CPU for N gateways to reach Running through the control plane, against helm.

    .venv/bin/python bench/gateways.py [--count 50] [--sample 0] [--smoke]

In one run, against one devcluster with the same chart and the same values:
  1. baseline: a loop of `helm install --wait`, one release per namespace;
  2. the control plane (API server, beat, the cluster watcher) with one worker process: N gateways created
     through the API, timed from the first create until every one reports Running;
  3. the same with two worker processes.
With `--sample S` the baseline and the one-worker run install S gateways and are scaled to N (the two-worker
run, the control plane's own figure, is always the full N). For each control-plane run it prints the wall time,
the CPU-seconds per install of the control plane's processes (worker processes with their helm children, API
server, beat, watcher; not devcluster) measured over the same window, helm processes and passes per install,
and, when devcluster's request log held them all, the kube API requests per install. Then the ratios: the
control plane's time over the helm loop's (goal: 1.2x or less) and two workers' speedup over one (goal: 1.8x).
It needs PostgreSQL and Redis on loopback (as `make test` does). BENCH_DB_NAME, BENCH_REDIS_DB (the broker) and
BENCH_CACHE_REDIS_DB choose where it writes.
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import signal
import subprocess
import sys
import tempfile
import time
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path

import psycopg
import redis
import requests

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from devcluster.pki_player import USER_AGENT as PKI_PLAYER_AGENT  # noqa: E402
from tests.fixtures.devcluster import DevCluster, start_devcluster  # noqa: E402
from tests.ports import free_port  # noqa: E402

DB_NAME = os.environ.get("BENCH_DB_NAME", "bench_controlplane")
TEMPLATE_DB = f"{DB_NAME}_template"
BROKER = f"redis://127.0.0.1:6379/{os.environ.get('BENCH_REDIS_DB', '12')}"
CACHE = f"redis://127.0.0.1:6379/{os.environ.get('BENCH_CACHE_REDIS_DB', '11')}"
ADMIN_DSN = "postgres://postgres@127.0.0.1:5432/postgres"
CHART = ROOT / "tests" / "charts" / "gateway"
HELM = ROOT / ".tools" / "helm"
CLOCK_TICKS = os.sysconf("SC_CLK_TCK")
# Flux's published figure: 1,000 HelmReleases installed in 8 min 12 s by a controller on 2 CPUs.
FLUX_CPU_PER_RELEASE = (8 * 60 + 12) * 2 / 1000
SMOKE_COUNT = 2
ENV = {
    **os.environ,
    "SECRET_KEY": "bench-only-secret-key-0123456789-abcdefghijklmnopqrstuvwxyz",
    "FIELD_ENCRYPTION_KEY": "YmVuY2gtb25seS1maWVsZC1lbmNyeXB0aW9uLWtleTA=",
    "DATABASE_URL": f"postgres://postgres@127.0.0.1:5432/{DB_NAME}",
    "CELERY_BROKER_URL": BROKER,
    "CACHE_URL": CACHE,
    "API_THROTTLE_USER_RATE": "100000/min",
    "GATEWAY_POLL_SECONDS": "1",
    "PYTHONUNBUFFERED": "1",
    "GATEWAY_CHART": str(CHART),
    "GATEWAY_CHART_VERSION": "",
}


@dataclass
class Run:
    """One timed run: wall seconds, CPU-seconds by process, and what it cost per install."""

    label: str
    count: int
    wall: float
    cpu: dict[str, float] = field(default_factory=dict)
    helm_calls: Counter[str] = field(default_factory=Counter)
    passes: int = 0
    kube_requests: Counter[str] | None = None
    devcluster_cpu: float = 0.0  # the simulated API server's own CPU-seconds (not the control plane's)

    @property
    def cpu_total(self) -> float:
        return sum(self.cpu.values())


def manage(*args: str, database: str = DB_NAME) -> str:
    env = {**ENV, "DATABASE_URL": f"postgres://postgres@127.0.0.1:5432/{database}"}
    done = subprocess.run([sys.executable, "manage.py", *args], cwd=ROOT, env=env, capture_output=True, text=True)
    if done.returncode:
        sys.exit(f"manage.py {args[0]} failed:\n{done.stderr}")
    return done.stdout.strip()


def prepare_template(kubeconfig: Path) -> str:
    """Migrate once, with the user and the cluster, into a template database; returns the API token."""
    with psycopg.connect(ADMIN_DSN, autocommit=True) as conn:
        conn.execute(f"DROP DATABASE IF EXISTS {DB_NAME} WITH (FORCE)")
        conn.execute(f"DROP DATABASE IF EXISTS {TEMPLATE_DB} WITH (FORCE)")
        conn.execute(f"CREATE DATABASE {TEMPLATE_DB}")
    manage("migrate", "--noinput", database=TEMPLATE_DB)
    token = manage("bootstrap_local", "--username", "bench", database=TEMPLATE_DB).rsplit("API token: ", 1)[1]
    manage("addcluster", "bench", "--kubeconfig", str(kubeconfig), "--base-domain", "bench.test", database=TEMPLATE_DB)
    return token


def reset_database() -> None:
    """A fresh copy of the template (fast: no migrations), and an empty broker."""
    with psycopg.connect(ADMIN_DSN, autocommit=True) as conn:
        conn.execute(f"DROP DATABASE IF EXISTS {DB_NAME} WITH (FORCE)")
        conn.execute(f"CREATE DATABASE {DB_NAME} TEMPLATE {TEMPLATE_DB}")
    redis.Redis.from_url(BROKER).flushdb()


def migrated_database() -> None:
    """A fresh database, migrated (for a bench that sets it up its own way), and an empty broker."""
    with psycopg.connect(ADMIN_DSN, autocommit=True) as conn:
        conn.execute(f"DROP DATABASE IF EXISTS {DB_NAME} WITH (FORCE)")
        conn.execute(f"CREATE DATABASE {DB_NAME}")
    redis.Redis.from_url(BROKER).flushdb()
    manage("migrate", "--noinput")


def drop_databases() -> None:
    with psycopg.connect(ADMIN_DSN, autocommit=True) as conn:
        conn.execute(f"DROP DATABASE IF EXISTS {DB_NAME} WITH (FORCE)")
        conn.execute(f"DROP DATABASE IF EXISTS {TEMPLATE_DB} WITH (FORCE)")


def values_for(namespace: str, release: str) -> dict:
    """The values the control plane computes for the benchmark's gateways, via its own mapping."""
    from gateways.values import ClusterFacts, GatewaySpec, RoutingConfig, gateway_values

    spec = GatewaySpec(namespace=namespace, release=release, image="ghcr.io/o/gw:1", supervisor_image="ghcr.io/o/sv:1")
    facts = ClusterFacts(flavour="kubernetes", base_domain="bench.test", gateway_api=True)
    return gateway_values(spec, facts, RoutingConfig(gateway_name="shared-gateway", gateway_namespace="gateway-system"))


def children_cpu() -> float:
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


def session_cpu(session: int) -> float:
    """CPU-seconds of every live process of a session, with the children each has reaped (helm, say)."""
    total = 0
    for stat in Path("/proc").glob("[0-9]*/stat"):
        try:
            fields = stat.read_text().rsplit(")", 1)[1].split()
        except (OSError, IndexError):
            continue
        if int(fields[3]) == session:  # fields[0] is the state: the session id is stat's 6th field
            total += sum(int(value) for value in fields[11:15])  # utime stime cutime cstime
    return total / CLOCK_TICKS


def process_cpu(pid: int) -> float:
    """CPU-seconds of one process, with the children it has reaped."""
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return sum(int(value) for value in fields[11:15]) / CLOCK_TICKS


def baseline(dc: DevCluster, count: int, workdir: Path) -> Run:
    """Plain helm: create the namespace and `helm install --wait`, one after another."""
    env = {**os.environ, "HELM_DRIVER": "secret", "KUBECONFIG": str(dc.kubeconfig), "HOME": str(workdir)}
    cpu_before, devcluster_before, started = children_cpu(), process_cpu(dc.process.pid), time.monotonic()
    for n in range(count):
        namespace, release = f"base-{n}", f"gw{n}"
        subprocess.run(
            [HELM.parent / "kubectl", "create", "namespace", namespace], env=env, check=True, capture_output=True
        )
        values = workdir / f"values-{n}.json"
        values.write_text(json.dumps(values_for(namespace, release)))
        subprocess.run(
            [HELM, "install", release, str(CHART), "-n", namespace, "-f", str(values), "--wait", "--timeout=120s"],
            env=env,
            check=True,
            capture_output=True,
        )
    wall = time.monotonic() - started
    cpu = {"helm and kubectl": children_cpu() - cpu_before}
    devcluster = process_cpu(dc.process.pid) - devcluster_before
    return Run("helm install --wait loop", count, wall, cpu, devcluster_cpu=devcluster)


def helm_wrapper(workdir: Path) -> tuple[Path, Path]:
    """A `helm` that appends its subcommand to a log, then runs the real binary."""
    log = workdir / "helm-calls.log"
    wrapper = workdir / "helm"
    wrapper.write_text(f'#!/bin/sh\necho "$1" >> {log}\nexec {HELM} "$@"\n')
    wrapper.chmod(0o755)
    return wrapper, log


def wait_for_api(api: requests.Session, base: str, processes: list[subprocess.Popen]) -> None:
    deadline = time.monotonic() + 120
    while time.monotonic() < deadline:
        if any(process.poll() is not None for process in processes):
            sys.exit("a control-plane process exited while starting; see its log")
        try:
            if api.get(f"{base}/gateways/", timeout=2).ok:
                return
        except requests.RequestException:
            pass
        time.sleep(0.2)
    sys.exit("the API server did not answer within 120 s")


def control_plane(
    dc: DevCluster, token: str, count: int, workers: int, workdir: Path, label: str, smoke: bool = False
) -> Run:
    """N gateways through the API until all are Running. A smoke run starts one web process and no beat (the
    resync is a minute away), to start faster."""
    reset_database()
    (workdir / label).mkdir()
    wrapper, helm_log = helm_wrapper(workdir / label)
    env = {**ENV, "HELM_BINARY": str(wrapper), "HELM_HOME": str(workdir / label / "helm-home")}
    port = free_port()
    argv = {
        "api": [
            sys.executable,
            "-m",
            "gunicorn",
            "controlplane.wsgi",
            "-b",
            f"127.0.0.1:{port}",
            "-w",
            "1" if smoke else "2",
        ],
        **(
            {}
            if smoke
            else {
                "beat": [
                    sys.executable,
                    "-m",
                    "celery",
                    "-A",
                    "controlplane",
                    "beat",
                    "-s",
                    str(workdir / f"{label}-beat"),
                ],
            }
        ),
        "watcher": [sys.executable, "manage.py", "watch_clusters", "--identity", f"bench-{label}"],
        **{
            f"worker{i}": [
                sys.executable,
                "-m",
                "celery",
                "-A",
                "controlplane",
                "worker",
                "-c",
                "1",
                "-l",
                "INFO",
                "-n",
                f"bench{i}@%h",
                "--without-mingle",
                "--without-gossip",
            ]
            for i in range(workers)
        },
    }
    logs = {name: workdir / f"{label}-{name}.log" for name in argv}
    processes = {
        name: subprocess.Popen(
            cmd, cwd=ROOT, env=env, stdout=logs[name].open("w"), stderr=subprocess.STDOUT, start_new_session=True
        )
        for name, cmd in argv.items()
    }
    # Also on a SIGTERM to the benchmark, each process (in its own session) is stopped in `finally` below.
    signal.signal(signal.SIGTERM, lambda *_: sys.exit(143))
    api = requests.Session()
    api.headers["Authorization"] = f"Token {token}"
    base = f"http://127.0.0.1:{port}/api/v1"
    try:
        wait_for_api(api, base, list(processes.values()))
        helm_log.write_text("")  # the chart is loaded at the first pass; any helm run before the first create
        dc.clear_requests()
        cpu_before = {name: session_cpu(process.pid) for name, process in processes.items()}
        devcluster_before = process_cpu(dc.process.pid)
        started = time.monotonic()
        for n in range(count):
            body = {
                "name": f"{label}{n}",
                "cluster": "bench",
                "image": "ghcr.io/o/gw:1",
                "supervisor_image": "ghcr.io/o/sv:1",
            }
            api.post(f"{base}/gateways/", json=body, timeout=30).raise_for_status()
        while True:
            listed = api.get(f"{base}/gateways/?phase=Running&limit=1", timeout=30).json()["count"]
            if listed == count:
                wall = time.monotonic() - started
                break
            exited = [name for name, process in processes.items() if process.poll() is not None]
            if exited:
                sys.exit(f"{label}: {', '.join(exited)} exited; see {logs[exited[0]]}")
            if time.monotonic() - started > 60 * 60:
                sys.exit(f"{label}: only {listed}/{count} gateways reached Running")
            time.sleep(0.5)
        cpu = {name: session_cpu(process.pid) - cpu_before[name] for name, process in processes.items()}
        devcluster = process_cpu(dc.process.pid) - devcluster_before
        seen = dc.requests(include_player=True)
    finally:
        for process in processes.values():
            os.killpg(process.pid, signal.SIGTERM)
        for process in processes.values():
            process.wait(timeout=60)
    helm_calls = Counter(helm_log.read_text().split())
    passes = sum(logs[f"worker{i}"].read_text().count(" pass: phase=") for i in range(workers))
    # devcluster keeps its latest 2,000 requests: count them only when they are all there.
    ours = [r for r in seen if r["user_agent"] != PKI_PLAYER_AGENT]  # the player plays in-cluster controllers
    kube = Counter(r["user_agent"].split("/", 1)[0] or "?" for r in ours) if len(seen) < 2000 else None
    title = f"control plane, {workers} worker{'s' if workers > 1 else ''}"
    return Run(title, count, wall, cpu, helm_calls, passes, kube, devcluster)


def scaled(run: Run, count: int) -> float:
    return run.wall * count / run.count


def report(run: Run, count: int) -> None:
    n = run.count
    sampled = f" (sampled: {n} gateways, scaled to {count})" if n != count else ""
    print(f"{run.label + ':':26} {scaled(run, count):7.1f} s  ({run.wall / n:.2f} s per gateway){sampled}")
    by_process = ", ".join(f"{name} {seconds:.1f}" for name, seconds in run.cpu.items())
    print(f"{'':26} CPU-seconds per install: {run.cpu_total / n:.2f}  ({by_process} CPU-s)")
    if run.passes:
        helm = ", ".join(f"{cmd} {calls / n:.2f}" for cmd, calls in sorted(run.helm_calls.items()))
        print(
            f"{'':26} per install: {run.passes / n:.2f} passes, helm processes {sum(run.helm_calls.values()) / n:.2f}"
            f" ({helm})"
        )
    if run.devcluster_cpu:
        print(f"{'':26} devcluster's own CPU-seconds per install (not counted above): {run.devcluster_cpu / n:.2f}")
    if run.kube_requests is not None:
        kube = ", ".join(f"{agent} {calls / n:.1f}" for agent, calls in run.kube_requests.most_common())
        print(f"{'':26} kube API requests per install, by user agent: {kube}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--count", type=int, default=50, help="gateways in the control plane's own run")
    parser.add_argument(
        "--sample",
        type=int,
        default=0,
        help="install this many in the helm loop and the one-worker run, scaled to --count",
    )
    parser.add_argument("--smoke", action="store_true", help=f"{SMOKE_COUNT} gateways, to check the script runs")
    args = parser.parse_args()
    count = SMOKE_COUNT if args.smoke else args.count
    sample = min(args.sample or count, count)
    os.environ.update({k: v for k, v in ENV.items() if k in ("SECRET_KEY", "FIELD_ENCRYPTION_KEY")})
    load_before = os.getloadavg()
    with tempfile.TemporaryDirectory() as tmp:
        work = Path(tmp)
        try:
            with start_devcluster(work / "dc", ready_delay=0.2, extra_presets=("agent-sandbox",)) as dc:
                token = prepare_template(dc.kubeconfig)
                base = baseline(dc, sample, work)
                one = control_plane(dc, token, sample, 1, work, "one", args.smoke)
                two = control_plane(dc, token, count, 2, work, "two", args.smoke)
        finally:
            drop_databases()
    print(
        f"cold installs: {count} gateways"
        + (f"; sampled at {sample}: the helm loop and 1 worker" if sample != count else "; nothing sampled")
    )
    report(base, count)
    report(one, count)
    report(two, count)
    print(
        f"Flux's published figure (not measured here): 1,000 HelmReleases in 8 min 12 s on 2 CPUs, "
        f"at most {FLUX_CPU_PER_RELEASE:.2f} CPU-seconds per release"
    )
    ours = two.cpu_total / count
    print(f"CPU ratio (Flux's published figure / ours, 2 workers): {FLUX_CPU_PER_RELEASE / ours:.2f}x")
    print(f"time ratio (control plane 1 worker / helm loop): {scaled(one, count) / scaled(base, count):.2f}x")
    print(
        f"time ratio (control plane 2 workers / helm loop): {two.wall / scaled(base, count):.2f}x  (goal: 1.2x or less)"
    )
    print(f"speedup ratio (1 worker / 2 workers): {scaled(one, count) / two.wall:.2f}x  (goal: 1.8x or more)")
    load_after = os.getloadavg()
    print(
        f"load average: {load_before[0]:.2f} before, {load_after[0]:.2f} {load_after[1]:.2f} {load_after[2]:.2f}"
        f" after (1, 5, 15 min; {os.cpu_count()} cores)"
    )


if __name__ == "__main__":
    main()
