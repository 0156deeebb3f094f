"""Benchmark: one steady-state resync of a fleet of Running gateways, against the per-gateway helm path.

    .venv/bin/python bench/fleet.py [--gateways 10000] [--clusters 20] [--baseline-sample 200] [--smoke]

In one run:
  1. It starts the devclusters and seeds the fleet (bench/fleet_seed.py): one gateway is installed for real by
     control-plane passes until Running, and every other gateway gets a copy of all it left on its cluster.
  2. It starts a Celery worker and the cluster watcher, with `helm` wrapped to log every process it spawns. The
     watcher's first lists start a resync of every cluster (which writes the fleet's status once). Each worker
     process keeps its own memo (records decoded, drift verdicts), so a cluster's first resync in a process
     judges every release anew: the bench resyncs until every process has met every cluster (the warm-up,
     printed apart), then sends --resyncs more (3): the steady state. For each it prints the helm processes
     spawned and the passes asked for and run (targets: 0), the worker and watcher CPU-seconds and the wall time
     (target: 30 s or less); then their medians, and the peak RSS of the worker and of the watcher (target:
     1 GiB or less each).
  3. Baseline, in the same run: the per-gateway path, `helm status` plus `helm get values` for a sample of the
     first cluster's gateways, scaled to the fleet. It prints the CPU ratio (target: at least 100x less CPU).
  4. A spec change to one gateway: the time until its release revision moves, and which releases got a helm
     call meanwhile (only that one may).
It exits non-zero when the steady state is not reached (a gateway not Running, a helm process or a pass in the
steady resync, or another release touched by the spec change); it never judges a time. `--smoke` is the size CI
runs. It needs PostgreSQL and Redis on loopback (as `make test` does).
"""

from __future__ import annotations

import argparse
import os
import re
import resource
import signal
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from contextlib import ExitStack
from dataclasses import dataclass
from pathlib import Path

import psycopg
import redis

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from bench.fleet_seed import seed_fleet  # noqa: E402
from controlplane.tasks import TaskName  # noqa: E402
from tests.fixtures.devcluster import DevCluster  # noqa: E402

DB_NAME = os.environ.get("BENCH_DB_NAME", "bench_fleet")
BROKER = f"redis://127.0.0.1:6379/{os.environ.get('BENCH_REDIS_DB', '12')}"
HELM = ROOT / ".tools" / "helm"
ENV = {
    "SECRET_KEY": "bench-only-secret-key-0123456789-abcdefghijklmnopqrstuvwxyz",
    "FIELD_ENCRYPTION_KEY": "YmVuY2gtb25seS1maWVsZC1lbmNyeXB0aW9uLWtleTA=",
    "DATABASE_URL": f"postgres://postgres@127.0.0.1:5432/{DB_NAME}",
    "CELERY_BROKER_URL": BROKER,
    "CACHE_URL": "redis://127.0.0.1:6379/11",
    "GATEWAY_CHART": str(ROOT / "tests" / "charts" / "gateway"),
    "GATEWAY_CHART_VERSION": "",
    "RESYNC_INTERVAL_SECONDS": "3600",  # the bench triggers every resync itself
    "GATEWAY_READY_GRACE_SECONDS": "600",
    "PYTHONUNBUFFERED": "1",
}
# Celery's log format names the pool process ("ForkPoolWorker-1") that ran the task.
RESYNC_LINE = re.compile(
    r"/(\S+)\] resync of cluster (\S+): \d+ gateways, (\d+) written, (\d+) passes, (\d+) judged anew"
)
POOL = 2  # the worker's pool processes
MAX_WARMUPS = 12  # each resync sends a cluster to either pool process: 20 clusters meet both in about 6
PASS_LINE = " pass: phase="  # what the worker logs for every gateway pass
SKIPPED_LINE = "skipped: its share of this worker is taken"  # a resync dropped by the cluster's pool share
SMOKE = {"gateways": 40, "clusters": 2, "baseline_sample": 5}


def helm_wrapper(workdir: Path) -> tuple[Path, Path]:
    """A `helm` that appends its argv to a log, then runs the real binary."""
    log = workdir / "helm-calls.log"
    log.touch()
    wrapper = workdir / "helm"
    wrapper.write_text(f'#!/bin/sh\necho "$*" >> {log}\nexec {HELM} "$@"\n')
    wrapper.chmod(0o755)
    return wrapper, log


def reset_database(db_name: str = DB_NAME, broker: str = BROKER) -> None:
    with psycopg.connect("postgres://postgres@127.0.0.1:5432/postgres", autocommit=True) as conn:
        conn.execute(f"DROP DATABASE IF EXISTS {db_name} WITH (FORCE)")
        conn.execute(f"CREATE DATABASE {db_name}")
    redis.Redis.from_url(broker).flushdb()
    subprocess.run(
        [sys.executable, "manage.py", "migrate", "--noinput"], cwd=ROOT, env=os.environ, check=True, capture_output=True
    )


def cpu_seconds(pid: int) -> float:
    """User + system CPU of a process and of its reaped children (helm runs as a child of the worker)."""
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return sum(int(value) for value in fields[11:15]) / os.sysconf("SC_CLK_TCK")


def tree_cpu(root: int) -> float:
    """CPU of a process tree (the Celery parent and its pool children)."""
    total, stack = 0.0, [root]
    while stack:
        pid = stack.pop()
        try:
            total += cpu_seconds(pid)
            stack += [int(child) for child in Path(f"/proc/{pid}/task/{pid}/children").read_text().split()]
        except (FileNotFoundError, ProcessLookupError):
            continue
    return total


def peak_rss_mib(root: int) -> float:
    """The peak resident memory (VmHWM) of a process tree, summed over its processes, in MiB."""
    total, stack = 0, [root]
    while stack:
        pid = stack.pop()
        try:
            status = Path(f"/proc/{pid}/status").read_text()
            total += int(re.search(r"VmHWM:\s+(\d+) kB", status).group(1))
            stack += [int(child) for child in Path(f"/proc/{pid}/task/{pid}/children").read_text().split()]
        except (FileNotFoundError, ProcessLookupError):
            continue
    return total / 1024


def wait_for(condition: Callable[[], bool], what: str, timeout: float = 600.0) -> None:
    """Poll ``condition`` until it holds; exit with ``what`` when it does not within ``timeout``."""
    deadline = time.monotonic() + timeout
    while not condition():
        if time.monotonic() > deadline:
            sys.exit(f"timed out waiting for {what}")
        time.sleep(0.1)


@dataclass(frozen=True)
class ClusterResync:
    """One cluster's resync as the worker logged it."""

    process: str  # the pool process that ran it
    cluster: str
    written: int
    passes: int
    rejudged: int


def resync_reports(worker_log: Path) -> list[ClusterResync]:
    """Every cluster resync the worker has logged."""
    return [
        ClusterResync(process, cluster, int(written), int(passes), int(rejudged))
        for process, cluster, written, passes, rejudged in RESYNC_LINE.findall(worker_log.read_text())
    ]


def settled() -> bool:
    """Nothing queued and no pass holding a lease."""
    from django.utils import timezone

    from gateways.models import Gateway

    return queue_drained() and not Gateway.objects.filter(lease_expires_at__gt=timezone.now()).exists()


def resync_fleet(worker_log: Path, clusters: int) -> tuple[float, list[ClusterResync]]:
    """Send the periodic resync and wait until every cluster reports it: (wall s, the clusters' reports)."""
    from controlplane.dispatch import send

    before = len(resync_reports(worker_log))
    skipped = worker_log.read_text().count(SKIPPED_LINE)
    started = time.monotonic()
    send(TaskName.RESYNC_GATEWAYS)

    def reported() -> bool:
        if worker_log.read_text().count(SKIPPED_LINE) > skipped:
            sys.exit(f"a cluster's resync was skipped (its share of the worker was taken); see {worker_log}")
        return len(resync_reports(worker_log)) >= before + clusters

    wait_for(reported, f"the resync; see {worker_log}")
    return time.monotonic() - started, resync_reports(worker_log)[before:]


def queue_drained() -> bool:
    """No message waits in any queue the workers consume."""
    from django.conf import settings

    from controlplane.queues import queue_names

    broker = redis.Redis.from_url(BROKER)
    return not any(broker.llen(queue) for queue in queue_names(settings.GATEWAY_TENANT_QUEUES))


def baseline(cluster: DevCluster, names: list[str], sample: int) -> tuple[float, float, int]:
    """`helm status` and `helm get values` per gateway of one cluster: (CPU s, wall s, gateways)."""
    from gateways.models import Gateway

    chosen = names[:sample] if sample else names
    releases = Gateway.objects.filter(name__in=chosen).values_list("helm_release_name", "namespace")
    env = {
        "PATH": os.environ["PATH"],
        "HOME": os.environ.get("HOME", "/tmp"),
        "HELM_DRIVER": "secret",
        "KUBECONFIG": str(cluster.kubeconfig),
    }
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    started = time.monotonic()
    for release, namespace in releases:
        for command in (["status", release], ["get", "values", release, "-o", "json"]):
            subprocess.run([str(HELM), *command, "-n", namespace], env=env, check=True, capture_output=True)
    wall = time.monotonic() - started
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    return cpu, wall, len(chosen)


def spec_change(gateway_name: str, helm_log: Path) -> tuple[float, set[str]]:
    """Change one gateway's image as the API would; time until its revision moves, and which releases got helm."""
    from controlplane.dispatch import send
    from gateways.models import Gateway

    gateway = Gateway.objects.get(name=gateway_name)
    revision = gateway.release_revision
    calls_before = len(helm_log.read_text().splitlines())
    gateway.image = "ghcr.io/o/gw:2"
    gateway.save()
    started = time.monotonic()
    send(TaskName.RECONCILE_GATEWAY, gateway.pk)
    wait_for(lambda: Gateway.objects.get(pk=gateway.pk).release_revision != revision, "the spec change", 120)
    elapsed = time.monotonic() - started
    wait_for(settled, "the passes the change set off (watch events)", 120)
    calls = helm_log.read_text().splitlines()[calls_before:]
    releases = {word for line in calls for word in line.split() if re.fullmatch(r"f\d+g\d{5}-[0-9a-f]{8}", word)}
    return elapsed, releases


@dataclass(frozen=True)
class Resync:
    """One steady resync of the whole fleet, as measured from outside."""

    wall: float
    worker_cpu: float
    watcher_cpu: float
    helm: int  # helm processes spawned
    asked: int  # passes the resync asked for
    run: int  # passes run meanwhile, whatever asked for them
    written: int  # status rows written
    rejudged: int  # releases judged anew (by a process meeting their cluster for the first time, or changed)

    @property
    def cpu(self) -> float:
        return self.worker_cpu + self.watcher_cpu

    def problem(self) -> str:
        """What makes this resync not a steady one ("" when nothing does)."""
        if not (self.helm or self.asked or self.run):
            return ""
        return f"a steady resync had {self.helm} helm processes, {self.asked} passes asked, {self.run} passes run"


def steady_resync(processes: dict[str, subprocess.Popen], worker_log: Path, helm_log: Path, clusters: int) -> Resync:
    """Resync the whole fleet once more and wait until nothing is left to do; what it cost."""
    cpu_before = {name: tree_cpu(p.pid) for name, p in processes.items()}
    helm_before = len(helm_log.read_text().splitlines())
    passes_before = worker_log.read_text().count(PASS_LINE)
    wall, reports = resync_fleet(worker_log, clusters)
    wait_for(settled, "the steady resync's passes")
    cpu = {name: tree_cpu(p.pid) - cpu_before[name] for name, p in processes.items()}
    return Resync(
        wall=wall,
        worker_cpu=cpu["worker"],
        watcher_cpu=cpu["watcher"],
        helm=len(helm_log.read_text().splitlines()) - helm_before,
        asked=sum(r.passes for r in reports),
        run=worker_log.read_text().count(PASS_LINE) - passes_before,
        written=sum(r.written for r in reports),
        rejudged=sum(r.rejudged for r in reports),
    )


def warm_up(processes: dict[str, subprocess.Popen], worker_log: Path, helm_log: Path, clusters: int) -> list[Resync]:
    """Resync until every pool process has resynced every cluster once, so that each holds its memo of it."""
    every = {(f"ForkPoolWorker-{n}", f"fleet{c}") for n in range(1, POOL + 1) for c in range(clusters)}
    resyncs: list[Resync] = []
    while not every <= {(r.process, r.cluster) for r in resync_reports(worker_log)}:
        if len(resyncs) == MAX_WARMUPS:
            sys.exit(f"the warm-up took more than {MAX_WARMUPS} resyncs; see {worker_log}")
        resyncs.append(steady_resync(processes, worker_log, helm_log, clusters))
    return resyncs


def parse_args() -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--gateways", type=int, default=10_000)
    parser.add_argument("--clusters", type=int, default=20)
    parser.add_argument(
        "--baseline-sample",
        type=int,
        default=200,
        help="run the baseline on this many gateways of one cluster (0: all of them)",
    )
    parser.add_argument("--resyncs", type=int, default=3, help="steady resyncs measured (the median is the figure)")
    parser.add_argument("--smoke", action="store_true", help=f"the size CI runs: {SMOKE}")
    args = parser.parse_args()
    if args.smoke:
        vars(args).update(SMOKE)
    return args


def start_control_plane(work: Path) -> dict[str, subprocess.Popen]:
    """A Celery worker (``POOL`` processes) and the cluster watcher, logging to ``work``."""
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
            str(POOL),
            "--without-mingle",
            "--without-gossip",
        ],
        "watcher": [sys.executable, "manage.py", "watch_clusters", "--identity", "bench"],
    }
    return {
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


def main() -> None:
    args = parse_args()
    per_cluster = args.gateways // args.clusters
    fleet = per_cluster * args.clusters
    with tempfile.TemporaryDirectory() as tmp, ExitStack() as stack:
        work = Path(tmp)
        wrapper, helm_log = helm_wrapper(work)
        os.environ.update(
            ENV,
            HELM_BINARY=str(wrapper),
            HELM_HOME=str(work / "helm-home"),
            DJANGO_SETTINGS_MODULE="controlplane.settings",
        )
        reset_database()
        print(f"seeding {fleet} gateways over {args.clusters} devclusters", flush=True)
        started = time.monotonic()
        seeded = seed_fleet(stack, work, args.clusters, per_cluster)
        seeding = time.monotonic() - started
        worker_log = work / "worker.log"
        processes = start_control_plane(work)
        try:
            wait_for(lambda: " ready." in worker_log.read_text(), "the worker to start")
            # The watcher's first lists ask for a resync of every cluster: the first resync, writing every status.
            started = time.monotonic()
            wait_for(lambda: len(resync_reports(worker_log)) >= args.clusters, "the watcher's first resync")
            wait_for(settled, "the first resync's passes")
            first = time.monotonic() - started
            from gateways.models import Gateway

            running = Gateway.objects.filter(phase="Running").count()
            for name, phase, conditions in Gateway.objects.exclude(phase="Running").values_list(
                "name", "phase", "conditions"
            )[:5]:
                falses = [
                    f"{c.get('type')} {c.get('reason')}: {c.get('message')}"
                    for c in conditions or []
                    if c.get("status") != "True"
                ]
                print(f"  not Running after the first resync: {name} {phase}; {falses}")
            warm = warm_up(processes, worker_log, helm_log, args.clusters)
            steady = [steady_resync(processes, worker_log, helm_log, args.clusters) for _ in range(args.resyncs)]
            rss = {name: peak_rss_mib(p.pid) for name, p in processes.items()}
            changed = seeded.names[f"fleet{args.clusters - 1}"][-1]
            changed_after, helm_releases = spec_change(changed, helm_log)
            expected = {Gateway.objects.get(name=changed).helm_release_name}
        finally:
            for process in processes.values():
                os.killpg(process.pid, signal.SIGTERM)
            for process in processes.values():
                process.wait(timeout=60)
        base_cpu, base_wall, sampled = baseline(seeded.devclusters[0], seeded.names["fleet0"], args.baseline_sample)
    scale = fleet / sampled
    wall = statistics.median(r.wall for r in steady)
    ours = statistics.median(r.cpu for r in steady)
    print(
        f"\nfleet: {fleet} gateways over {args.clusters} clusters, seeded in {seeding:.0f} s; "
        f"{running} Running after the first resync"
    )
    print(f"first resync (writes every status once): {first:6.1f} s wall")
    for label, resyncs in (("warm-up resync", warm), ("steady resync", steady)):
        for n, r in enumerate(resyncs, 1):
            print(
                f"{label} {n}: {r.wall:6.1f} s wall, {r.helm} helm processes, {r.asked} passes asked, "
                f"{r.run} passes run (from any source), {r.written} status writes, {r.rejudged} releases judged "
                f"anew; CPU {r.worker_cpu:.2f} s worker + {r.watcher_cpu:.2f} s watcher"
            )
    print(
        f"steady resync, median of {len(steady)}:       {wall:6.1f} s wall, {ours:.2f} CPU-s = "
        f"{ours * 1e6 / fleet:.0f} CPU-us per gateway"
    )
    print(f"peak RSS: worker {rss['worker']:.0f} MiB (all its processes), watcher {rss['watcher']:.0f} MiB")
    print(
        f"baseline, helm status + get values:      {base_wall:6.1f} s wall and {base_cpu:.1f} CPU-s for "
        f"{sampled} gateways; scaled to the fleet: {base_wall * scale:.0f} s wall, {base_cpu * scale:.0f} CPU-s"
    )
    print(f"CPU ratio (baseline / steady resync):    {base_cpu * scale / max(ours, 0.01):.0f}x")
    print(f"wall ratio (baseline / steady resync):   {base_wall * scale / max(wall, 0.01):.0f}x")
    print(
        f"spec change of 1 gateway applied in:     {changed_after:6.1f} s; releases that got helm: "
        f"{sorted(helm_releases)}"
    )
    print(f"load average at the end: {os.getloadavg()[0]:.2f} ({os.cpu_count()} cores)")
    problems = [
        f"{fleet - running} gateways not Running" if running != fleet else "",
        *(r.problem() for r in steady),
        f"releases other than {sorted(expected)} got helm" if helm_releases - expected else "",
    ]
    if any(problems):
        sys.exit("steady state not reached: " + "; ".join(filter(None, problems)))


if __name__ == "__main__":
    main()
