"""devcluster controller benchmark: the cost of a controller tick with many StatefulSets on one cluster.

Run: ``.venv/bin/python bench/devcluster_controllers.py [--workloads 300 --namespaces 100]``. Builds a cluster
in this process, creates the StatefulSets (one replica, a claim template, a Secret volume each; spread over
the namespaces), then drives `StatusController.reconcile()` by hand: it reports how long the cluster takes to
settle (every set ready), the busiest tick, and the median cost of an idle tick, and of a tick after one
unrelated change. The baseline, measured in the same run, is a tick that rescans the whole store (what the
controller does at start, or when its change history was outgrown); the ratios say what the change history saves.
Not part of the test suite.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from bench.smoke import parse_with_smoke  # noqa: E402
from devcluster.controllers import StatusController  # noqa: E402
from devcluster.server import build_cluster  # noqa: E402


def statefulset(name: str) -> dict:
    return {
        "metadata": {"name": name},
        "spec": {
            "replicas": 1,
            "serviceName": name,
            "selector": {"matchLabels": {"app": name}},
            "template": {
                "metadata": {"labels": {"app": name}},
                "spec": {
                    "containers": [{"name": "app", "image": "registry.example/app:1"}],
                    "volumes": [{"name": "tls", "secret": {"secretName": f"{name}-tls"}}],
                },
            },
            "volumeClaimTemplates": [{"metadata": {"name": "data"}, "spec": {"accessModes": ["ReadWriteOnce"]}}],
        },
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--workloads", type=int, default=300)
    parser.add_argument("--namespaces", type=int, default=100)
    parser.add_argument("--ready-delay", type=float, default=0.2)
    args = parse_with_smoke(parser, {"workloads": 20, "namespaces": 5})

    cluster = build_cluster("kubernetes")
    registry = cluster.registry
    namespaces_rt = registry.lookup("", "v1", "namespaces")
    secrets_rt = registry.lookup("", "v1", "secrets")
    sts_rt = registry.lookup("apps", "v1", "statefulsets")
    controller = StatusController(cluster, args.ready_delay)
    names = [f"bench-{i}" for i in range(args.namespaces)]
    for name in names:
        cluster.create(namespaces_rt, "", {"metadata": {"name": name}})
    controller.reconcile()  # the default ServiceAccounts
    for i in range(args.workloads):
        namespace = names[i % len(names)]
        cluster.create(secrets_rt, namespace, {"metadata": {"name": f"sts-{i}-tls"}, "data": {"tls.crt": "eA=="}})
        cluster.create(sts_rt, namespace, statefulset(f"sts-{i}"))

    def settled() -> bool:
        return all(
            (s.get("status") or {}).get("readyReplicas") == 1
            for s in cluster.store.snapshot(sts_rt.storage_key).objects
        )

    ticks: list[float] = []
    start = time.perf_counter()
    while not settled():
        began = time.perf_counter()
        controller.reconcile()
        ticks.append(time.perf_counter() - began)
        time.sleep(0.05)
    settle = time.perf_counter() - start

    def timed(change: bool) -> float:
        if change:
            cluster.create(secrets_rt, "default", {"metadata": {"generateName": "noise-"}})
        began = time.perf_counter()
        controller.reconcile()
        return time.perf_counter() - began

    def rescan() -> float:
        controller._seen_rv = None  # forget the history: the next tick reads every object, as at start
        began = time.perf_counter()
        controller.reconcile()
        return time.perf_counter() - began

    idle = statistics.median(timed(False) for _ in range(50))
    one_change = statistics.median(timed(True) for _ in range(50))
    full = statistics.median(rescan() for _ in range(20))
    print(
        f"{args.workloads} StatefulSets in {args.namespaces} namespaces ({len(cluster.store.dump()['resources'])} "
        f"resources): settled in {settle:.2f}s over {len(ticks)} ticks; busiest tick {max(ticks) * 1000:.1f} ms, "
        f"median tick while settling {statistics.median(ticks) * 1000:.2f} ms; idle tick {idle * 1e6:.0f} us; "
        f"tick after one unrelated change {one_change * 1e6:.0f} us"
    )
    print(
        f"baseline, a tick rescanning the store: {full * 1000:.1f} ms; it costs {full / one_change:.0f}x a tick "
        f"after one change and {full / idle:.0f}x an idle tick"
    )


if __name__ == "__main__":
    main()
