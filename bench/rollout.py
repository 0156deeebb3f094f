"""Benchmark: a rollout of a fleet to a new chart release, against the same upgrades as a serial helm loop.

    .venv/bin/python bench/rollout.py [--gateways 200] [--clusters 4] [--concurrency 8] [--per-cluster 2] [--smoke]

In one run:
  1. It starts the devclusters and seeds the fleet on release v1 (the mirror chart) as bench/fleet.py
     does (bench/fleet_seed.py): one real install, cloned to every other gateway.
  2. It starts a Celery worker (``-c --concurrency``, helm bounded per cluster by
     GATEWAY_CLUSTER_CONCURRENCY=--per-cluster), beat (the rollout tick) and the cluster watcher, and
     creates a rollout of every gateway to v2 (a copy of the chart at 0.2.0): a 5% canary, then the
     rest, no bake. It prints the wall time from create until the rollout is Completed (every gateway
     upgraded, converged and Ready) and checks that each gateway was upgraded exactly once.
  3. Baseline, in the same run, with the control plane stopped: a plain serial loop of
     ``helm upgrade --reuse-values`` of every gateway to v3 (0.3.0). It prints both times and the ratio
     (target: the rollout at least 2x faster, from per-cluster parallelism).
`--smoke` is the size CI runs. It needs PostgreSQL and Redis on loopback (as `make test` does).
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

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from bench.fleet import ENV, HELM, reset_database  # noqa: E402
from bench.fleet_seed import seed_fleet  # noqa: E402
from tests.fixtures.charts import MIRROR_CHART, copy_chart  # noqa: E402

DB_NAME = os.environ.get("BENCH_DB_NAME", "bench_rollout")
BROKER = f"redis://127.0.0.1:6379/{os.environ.get('BENCH_REDIS_DB', '10')}"
SMOKE = {"gateways": 4, "clusters": 2, "concurrency": 2, "per_cluster": 2}
TIMEOUT_SECONDS = 1800


def start_control_plane(work: Path, concurrency: int) -> dict[str, subprocess.Popen]:
    argv = {
        "worker": [
            sys.executable,
            "-m",
            "celery",
            "-A",
            "controlplane",
            "worker",
            "-l",
            "INFO",
            "-c",
            str(concurrency),
            "--without-mingle",
            "--without-gossip",
        ],
        "beat": [
            sys.executable,
            "-m",
            "celery",
            "-A",
            "controlplane",
            "beat",
            "-l",
            "INFO",
            "-s",
            str(work / "beat-schedule"),
        ],
        "watcher": [sys.executable, "manage.py", "watch_clusters", "--identity", "bench"],
    }
    processes = {
        name: subprocess.Popen(
            cmd,
            cwd=ROOT,
            env=os.environ,
            stdout=(work / f"{name}.log").open("w"),
            stderr=subprocess.STDOUT,
            start_new_session=True,
        )
        for name, cmd in argv.items()
    }
    while " ready." not in (work / "worker.log").read_text():
        time.sleep(0.2)
    return processes


def stop(processes: dict[str, subprocess.Popen]) -> None:
    for process in processes.values():
        os.killpg(process.pid, signal.SIGTERM)
    for process in processes.values():
        process.wait(timeout=60)


def run_rollout(v2: Path) -> tuple[float, int, int]:
    """Create the rollout; wait until Completed. Returns (wall s, gateways, gateways not upgraded exactly once)."""
    from django.contrib.auth import get_user_model
    from django.db.models import Count, Q

    from gateways.models import Gateway, GatewayRelease
    from rollouts.models import Rollout
    from rollouts.operations import create_rollout

    target = GatewayRelease.objects.create(name="v2", chart=str(v2))
    admin = get_user_model().objects.create_superuser("bench-admin")
    started = time.monotonic()
    rollout = create_rollout(
        Rollout(
            name="to-v2",
            target_release=target,
            created_by=admin,
            wave_percentages=[5, 100],
            max_parallel=10_000,
            bake_seconds=0,
            gate_timeout_seconds=TIMEOUT_SECONDS,
        )
    )
    last = ""
    while (phase := Rollout.objects.values_list("phase", flat=True).get(pk=rollout.pk)) != "Completed":
        healthy = rollout.targets.filter(state="healthy").count()
        line = f"  {phase}: {healthy}/{rollout.targets.count()} healthy"
        if line != last:
            print(line, flush=True)
            last = line
        if phase == "Halted" or time.monotonic() - started > TIMEOUT_SECONDS:
            sys.exit(f"the rollout did not complete: {phase}")
        time.sleep(0.5)
    elapsed = time.monotonic() - started
    upgrades = Gateway.objects.annotate(n=Count("events", filter=Q(events__reason="UpgradeSucceeded")))
    return elapsed, upgrades.count(), upgrades.exclude(n=1).count()


def serial_helm_loop(clusters: dict[str, Path], v3: Path) -> float:
    """`helm upgrade --reuse-values` of every gateway to v3, one after the other; returns the wall time."""
    from gateways.models import Gateway

    rows = list(Gateway.objects.values_list("cluster__name", "helm_release_name", "namespace"))
    started = time.monotonic()
    for cluster, release, namespace in rows:
        env = {"PATH": os.environ["PATH"], "HOME": os.environ.get("HOME", "/tmp"), "KUBECONFIG": str(clusters[cluster])}
        subprocess.run(
            [str(HELM), "upgrade", release, str(v3), "-n", namespace, "--reuse-values"],
            env=env,
            check=True,
            capture_output=True,
        )
    return time.monotonic() - started


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--gateways", type=int, default=200)
    parser.add_argument("--clusters", type=int, default=4)
    parser.add_argument("--concurrency", type=int, default=8, help="Celery worker processes")
    parser.add_argument("--per-cluster", type=int, default=2, help="GATEWAY_CLUSTER_CONCURRENCY")
    parser.add_argument("--smoke", action="store_true", help=f"the size CI runs: {SMOKE}")
    args = parser.parse_args()
    if args.smoke:
        vars(args).update(SMOKE)
    per_cluster = args.gateways // args.clusters
    with tempfile.TemporaryDirectory() as tmp, ExitStack() as stack:
        work = Path(tmp)
        os.environ.update(
            ENV,
            DATABASE_URL=f"postgres://postgres@127.0.0.1:5432/{DB_NAME}",
            CELERY_BROKER_URL=BROKER,
            CACHE_URL="redis://127.0.0.1:6379/9",
            HELM_HOME=str(work / "helm-home"),
            HELM_BINARY=str(HELM),
            GATEWAY_CLUSTER_CONCURRENCY=str(args.per_cluster),
            GATEWAY_POLL_SECONDS="1",
            ROLLOUT_INTERVAL_SECONDS="1",
            DJANGO_SETTINGS_MODULE="controlplane.settings",
        )
        reset_database(DB_NAME, BROKER)
        import django

        django.setup()
        from gateways.models import Gateway, GatewayRelease

        v1 = GatewayRelease.objects.create(name="v1", chart=str(MIRROR_CHART), default=True)
        print(f"seeding {per_cluster * args.clusters} gateways over {args.clusters} devclusters", flush=True)
        seeded = seed_fleet(stack, work, args.clusters, per_cluster)
        Gateway.objects.update(release=v1)
        v2, v3 = copy_chart(work / "v2", "0.2.0"), copy_chart(work / "v3", "0.3.0")
        processes = start_control_plane(work, args.concurrency)
        try:
            rollout_wall, gateways, not_once = run_rollout(v2)
        finally:
            stop(processes)
        kubeconfigs = {f"fleet{c}": dc.kubeconfig for c, dc in enumerate(seeded.devclusters)}
        serial_wall = serial_helm_loop(kubeconfigs, v3)
    print(
        f"\n{gateways} gateways over {args.clusters} clusters; worker -c {args.concurrency}, "
        f"GATEWAY_CLUSTER_CONCURRENCY={args.per_cluster}"
    )
    print(
        f"rollout to v2 (canary 5%, then the rest; upgraded, converged and Ready): {rollout_wall:6.1f} s wall; "
        f"gateways not upgraded exactly once: {not_once}"
    )
    print(f"serial helm upgrade loop to v3:                                         {serial_wall:6.1f} s wall")
    print(f"ratio (serial loop / rollout): {serial_wall / max(rollout_wall, 0.01):.2f}x (target: at least 2x)")
    print(f"load average at the end: {os.getloadavg()[0]:.2f} ({os.cpu_count()} cores)")
    if not_once:
        sys.exit(f"{not_once} gateways were not upgraded exactly once")


if __name__ == "__main__":
    main()
