"""Benchmark: one steady-state resync of a fleet of Running gateways, against the per-gateway helm path.

    .venv/bin/python bench/fleet.py [--gateways 2000] [--clusters 4] [--baseline-sample 0]

In one run:
  1. It starts the devclusters and seeds the fleet. One gateway per cluster is installed for real
     by a control-plane pass (the real helm binary); every other gateway gets a clone of that
     release: its Helm storage Secret (name and namespace rewritten, so `helm list` and `helm status`
     read it back as deployed) and every object of its manifest.
  2. It starts a Celery worker and the cluster watcher, with `helm` wrapped to log every process it
     spawns, and runs the first resync (which writes the fleet's status once), then a second one: the
     steady state. For that one it prints the helm processes spawned (the target is 0), the worker
     and watcher CPU-seconds, and the wall time (target: 30 s or less).
  3. Baseline, in the same run: the per-gateway path, `helm status` plus `helm get values` for every
     gateway of one cluster (or of a sample, with --baseline-sample), scaled to the fleet. It prints
     the CPU ratio (target: at least 20x less CPU than the baseline).
  4. A spec change to one gateway: the time until its release revision moves, and which releases got
     a helm call meanwhile (only that one may).
It needs PostgreSQL and Redis on loopback (as `make test` does).
"""

from __future__ import annotations

import argparse
import base64
import gzip
import json
import os
import re
import resource
import signal
import subprocess
import sys
import tempfile
import time
from concurrent.futures import ThreadPoolExecutor
from contextlib import ExitStack
from pathlib import Path
from typing import Any

import psycopg
import redis
import requests
import yaml

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from controlplane.tasks import TaskName  # noqa: E402
from tests.fixtures.devcluster import DevCluster, start_devcluster  # noqa: E402

DB_NAME = "bench_fleet"
BROKER = "redis://127.0.0.1:6379/12"
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
    subprocess.run([sys.executable, "manage.py", "migrate", "--noinput"], cwd=ROOT, env=os.environ, check=True,
                   capture_output=True)


class Kube:
    """Plain HTTP to one devcluster, authenticated as its kubeconfig says."""

    def __init__(self, dc: DevCluster) -> None:
        config = yaml.safe_load(dc.kubeconfig.read_text())
        self.url = config["clusters"][0]["cluster"]["server"]
        self.session = requests.Session()
        token = (config["users"][0]["user"] or {}).get("token")
        if token:
            self.session.headers["Authorization"] = f"Bearer {token}"

    def create(self, obj: dict[str, Any]) -> None:
        api, kind = obj["apiVersion"], obj["kind"]
        plural = kind.lower()[:-1] + "ies" if kind.endswith("y") else kind.lower() + "s"
        base = "/api/v1" if api == "v1" else f"/apis/{api}"
        namespace = obj["metadata"].get("namespace")
        path = f"{base}/namespaces/{namespace}/{plural}" if namespace and kind != "Namespace" else f"{base}/{plural}"
        response = self.session.post(self.url + path, json=obj, timeout=60)
        if response.status_code not in (200, 201, 409):
            raise RuntimeError(f"POST {path}: {response.status_code} {response.text[:300]}")

    def get(self, path: str) -> dict[str, Any]:
        return self.session.get(self.url + path, timeout=60).json()


def encode_release(document: dict[str, Any]) -> str:
    return base64.b64encode(base64.b64encode(gzip.compress(json.dumps(document).encode()))).decode()


def clone_objects(template_secret: dict[str, Any], old: tuple[str, str], new: tuple[str, str],
                  labels: dict[str, str]) -> list[dict[str, Any]]:
    """The namespace, the release's storage Secret and every manifest object, for another gateway."""
    from workers.drivers.helm_storage import _release_bytes

    (old_ns, old_name), (new_ns, new_name) = old, new
    text = _release_bytes(template_secret).decode().replace(old_ns, new_ns).replace(old_name, new_name)
    document = json.loads(text)
    secret = json.loads(json.dumps(template_secret).replace(old_ns, new_ns).replace(old_name, new_name))
    secret["data"] = {"release": encode_release(document)}
    for key in ("uid", "resourceVersion", "creationTimestamp", "managedFields"):
        secret["metadata"].pop(key, None)
    objects = [{"apiVersion": "v1", "kind": "Namespace", "metadata": {"name": new_ns, "labels": labels}}, secret]
    for manifest in yaml.safe_load_all(document["manifest"]):
        if manifest:
            manifest.setdefault("metadata", {})["namespace"] = new_ns
            objects.append(manifest)
    return objects


def clone_gateway(kube: Kube, secret: dict[str, Any], template: Any, gateway: Any, labels: dict[str, str]) -> None:
    objects = clone_objects(secret, (template.namespace, template.name), (gateway.namespace, gateway.name),
                            {**labels, "controlplane/gateway-id": str(gateway.pk)})
    for obj in objects:
        kube.create(obj)


def seed(clusters: list[DevCluster], per_cluster: int) -> dict[str, list[str]]:
    """Gateway rows for the whole fleet; one real install per cluster, cloned to the rest."""
    import django

    django.setup()
    from django.contrib.auth import get_user_model

    from controlplane.models import ManagedCluster
    from gateways.models import Gateway
    from workers.drivers.helm_storage import HELM_OWNER_SELECTOR
    from workers.reconcile.gateway.request_from_rows import build_request
    from workers.reconcile.gateway.run import run_pass
    from workers.singletons import gateway_chart

    owner = get_user_model().objects.create_user("fleet")
    names: dict[str, list[str]] = {}
    for c, dc in enumerate(clusters):
        cluster = ManagedCluster.objects.create(name=f"fleet{c}", kubeconfig=dc.kubeconfig.read_text(),
                                                base_domain=f"c{c}.bench.test", reachable=True)
        rows = []
        for n in range(per_cluster):
            gateway = Gateway(owner=owner, cluster=cluster, name=f"f{c}g{n:05d}", image="ghcr.io/o/gw:1",
                              supervisor_image="ghcr.io/o/sv:1")
            gateway.assign_namespace()
            rows.append(gateway)
        Gateway.objects.bulk_create(rows)
        names[cluster.name] = [g.name for g in rows]
        template = rows[0]
        run_pass(str(template.pk))
        kube = Kube(dc)
        path = f"/api/v1/namespaces/{template.namespace}/secrets?labelSelector={HELM_OWNER_SELECTOR}"
        (secret,) = kube.get(path)["items"]
        labels = build_request(template, gateway_chart(), template.created_at).namespace_labels
        started = time.monotonic()
        with ThreadPoolExecutor(8) as pool:
            list(pool.map(lambda g, k=kube, s=secret, t=template, la=labels: clone_gateway(k, s, t, g, la), rows[1:]))
        print(f"  cluster {cluster.name}: {per_cluster} gateways seeded in {time.monotonic() - started:.0f} s",
              flush=True)
    return names


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


def resync_fleet(worker_log: Path, clusters: int) -> float:
    """Send the periodic resync and wait until every cluster reports it; returns the wall time."""
    from controlplane.dispatch import send

    before = worker_log.read_text().count("resync of cluster")
    started = time.monotonic()
    send(TaskName.RESYNC_GATEWAYS)
    while worker_log.read_text().count("resync of cluster") < before + clusters:
        if time.monotonic() - started > 600:
            sys.exit("the resync did not finish in 10 minutes; see " + str(worker_log))
        time.sleep(0.1)
    return time.monotonic() - started


def queue_drained() -> bool:
    return redis.Redis.from_url(BROKER).llen("celery") == 0


def baseline(cluster: DevCluster, names: list[str], sample: int) -> tuple[float, float, int]:
    """`helm status` and `helm get values` per gateway of one cluster: (CPU s, wall s, gateways)."""
    from gateways.models import Gateway

    chosen = names[:sample] if sample else names
    namespaces = dict(Gateway.objects.filter(name__in=chosen).values_list("name", "namespace"))
    env = {"PATH": os.environ["PATH"], "HOME": os.environ.get("HOME", "/tmp"), "HELM_DRIVER": "secret",
           "KUBECONFIG": str(cluster.kubeconfig)}
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    started = time.monotonic()
    for name in chosen:
        for command in (["status", name], ["get", "values", name, "-o", "json"]):
            subprocess.run([str(HELM), *command, "-n", namespaces[name]], env=env, check=True, capture_output=True)
    wall = time.monotonic() - started
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    return cpu, wall, len(chosen)


def spec_change(gateway_name: str, helm_log: Path) -> tuple[float, set[str]]:
    """Change one gateway's image as the API would; time until its revision moves, and who got helm."""
    from controlplane.dispatch import send
    from gateways.models import Gateway

    gateway = Gateway.objects.get(name=gateway_name)
    revision = gateway.release_revision
    calls_before = len(helm_log.read_text().splitlines())
    gateway.image = "ghcr.io/o/gw:2"
    gateway.save()
    started = time.monotonic()
    send(TaskName.RECONCILE_GATEWAY, gateway.pk)
    while Gateway.objects.get(pk=gateway.pk).release_revision == revision:
        if time.monotonic() - started > 120:
            sys.exit("the spec change was not applied within 120 s")
        time.sleep(0.05)
    elapsed = time.monotonic() - started
    time.sleep(2)  # let anything the change set off (watch events) run
    calls = helm_log.read_text().splitlines()[calls_before:]
    releases = {word for line in calls for word in line.split() if re.fullmatch(r"f\d+g\d{5}", word)}
    return elapsed, releases


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--gateways", type=int, default=2000)
    parser.add_argument("--clusters", type=int, default=4)
    parser.add_argument("--baseline-sample", type=int, default=0,
                        help="run the baseline on this many gateways of one cluster (0: all of them)")
    args = parser.parse_args()
    per_cluster = args.gateways // args.clusters
    with tempfile.TemporaryDirectory() as tmp, ExitStack() as stack:
        work = Path(tmp)
        wrapper, helm_log = helm_wrapper(work)
        os.environ.update(ENV, HELM_BINARY=str(wrapper), HELM_HOME=str(work / "helm-home"),
                          DJANGO_SETTINGS_MODULE="controlplane.settings")
        reset_database()
        clusters = [
            stack.enter_context(start_devcluster(work / f"dc{c}", ready_delay=0.0, extra_presets=("agent-sandbox",)))
            for c in range(args.clusters)
        ]
        print(f"seeding {per_cluster * args.clusters} gateways over {args.clusters} devclusters", flush=True)
        names = seed(clusters, per_cluster)
        logs = {name: (work / f"{name}.log") for name in ("worker", "watcher")}
        argv = {
            "worker": [sys.executable, "-m", "celery", "-A", "controlplane", "worker", "-l", "INFO", "-c", "2",
                       "--without-mingle", "--without-gossip"],
            "watcher": [sys.executable, "manage.py", "watch_clusters", "--identity", "bench"],
        }
        processes = {
            name: subprocess.Popen(cmd, cwd=ROOT, env=os.environ, stdout=logs[name].open("w"),
                                   stderr=subprocess.STDOUT, start_new_session=True)
            for name, cmd in argv.items()
        }
        try:
            while " ready." not in logs["worker"].read_text():
                time.sleep(0.2)
            time.sleep(3)  # the watcher's initial lists
            first = resync_fleet(logs["worker"], args.clusters)
            while not queue_drained():
                time.sleep(0.2)
            time.sleep(1)
            from gateways.models import Gateway

            running = Gateway.objects.filter(phase="Running").count()
            cpu_before = {name: tree_cpu(p.pid) for name, p in processes.items()}
            helm_before = len(helm_log.read_text().splitlines())
            steady = resync_fleet(logs["worker"], args.clusters)
            while not queue_drained():
                time.sleep(0.2)
            cpu = {name: tree_cpu(p.pid) - cpu_before[name] for name, p in processes.items()}
            helm_spawned = len(helm_log.read_text().splitlines()) - helm_before
            changed_after, helm_releases = spec_change(names["fleet1"][7], helm_log)
        finally:
            for process in processes.values():
                os.killpg(process.pid, signal.SIGTERM)
            for process in processes.values():
                process.wait(timeout=30)
        base_cpu, base_wall, sampled = baseline(clusters[0], names["fleet0"], args.baseline_sample)
    fleet = per_cluster * args.clusters
    scale = fleet / sampled
    ours = cpu["worker"] + cpu["watcher"]
    print(f"\nfleet: {fleet} gateways over {args.clusters} clusters; {running} Running after the first resync")
    print(f"first resync (writes every status once): {first:6.1f} s wall")
    print(f"steady-state resync:                     {steady:6.1f} s wall, {helm_spawned} helm processes, "
          f"CPU {cpu['worker']:.1f} s worker + {cpu['watcher']:.1f} s watcher")
    print(f"baseline, helm status + get values:      {base_wall:6.1f} s wall and {base_cpu:.1f} CPU-s for "
          f"{sampled} gateways; scaled to the fleet: {base_wall * scale:.0f} s wall, {base_cpu * scale:.0f} CPU-s")
    print(f"CPU ratio (baseline / steady resync):    {base_cpu * scale / max(ours, 0.01):.0f}x")
    print(f"wall ratio (baseline / steady resync):   {base_wall * scale / max(steady, 0.01):.0f}x")
    print(f"spec change of 1 gateway applied in:     {changed_after:6.1f} s; releases that got helm: "
          f"{sorted(helm_releases)}")
    print(f"load average at the end: {os.getloadavg()[0]:.2f} (2 cores)")


if __name__ == "__main__":
    main()
