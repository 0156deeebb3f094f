"""Benchmark: gateway list latency at 100,000 gateways, with the list indexes against a database without them.

    .venv/bin/python bench/api.py [--gateways 100000] [--requests 200] [--smoke]

Seeds 100,000 gateways over 10 clusters and 100 tenants into one PostgreSQL database, clones it
(`CREATE DATABASE ... TEMPLATE`) and drops the list indexes (`Gateway.Meta.indexes`) from the clone: the
baseline, the schema before `gateways.0006_list_indexes`. Both are vacuumed and analysed. For each, the API
runs in gunicorn with 2 workers and every request below is timed sequentially; it prints p50 and p99 in ms
and the baseline/new p99 ratio, and the gunicorn workers' CPU time per request (from /proc), which a busy
host disturbs far less than latency. It also prints each request's database time on both: the SQL the API
ran for it (captured once), timed with EXPLAIN ANALYZE (median of 5). Both runs use the same code, so the
figures isolate the indexes. Last, per request on the indexed database, the ratio of the server's CPU to the
database's time (the goal: 3x or less). Needs PostgreSQL and Redis on loopback.

``--smoke`` runs 500 gateways and 20 requests of each kind (for CI: it checks the script, not the figures).
BENCH_DB_NAME (databases <name>_indexed and <name>_baseline, dropped and created), BENCH_REDIS_DB (broker)
and BENCH_CACHE_REDIS_DB (cache and rate limits) pick what it may wipe.
"""

from __future__ import annotations

import argparse
import os
import signal
import statistics
import subprocess
import sys
import time
from pathlib import Path

import psycopg
import requests

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from tests.helpers import KUBECONFIG  # noqa: E402
from tests.ports import free_port  # noqa: E402

DB_NAME = os.environ.get("BENCH_DB_NAME", "bench_api")  # the databases it drops and creates: <name>_indexed, _baseline
NEW_DB, BASE_DB = f"{DB_NAME}_indexed", f"{DB_NAME}_baseline"
SERVER = "postgres://postgres@127.0.0.1:5432"
CLUSTERS, TENANTS, BATCH = 10, 100, 5000
# Phase mix of a large fleet: mostly Running, a few of every other phase.
PHASES = ["Running"] * 90 + ["Pending"] * 3 + ["Provisioning"] * 2 + ["Degraded"] * 2 + ["Failed"] * 2 + ["Deleting"]
ENV = {
    **os.environ,
    "SECRET_KEY": "bench-only-secret-key-0123456789-abcdefghijklmnopqrstuvwxyz",
    "FIELD_ENCRYPTION_KEY": "YmVuY2gtb25seS1maWVsZC1lbmNyeXB0aW9uLWtleTA=",
    "DATABASE_URL": f"{SERVER}/{NEW_DB}",
    "CELERY_BROKER_URL": f"redis://127.0.0.1:6379/{os.environ.get('BENCH_REDIS_DB', '12')}",
    "CACHE_URL": f"redis://127.0.0.1:6379/{os.environ.get('BENCH_CACHE_REDIS_DB', '11')}",
    "API_THROTTLE_USER_RATE": "1000000/min",
    "PYTHONUNBUFFERED": "1",
}
REQUESTS = {
    "limit=50": ("admin", "/api/v1/gateways/?limit=50"),
    "limit=50&offset=99000": ("admin", "/api/v1/gateways/?limit=50&offset=99000"),
    "phase=Failed": ("admin", "/api/v1/gateways/?phase=Failed"),
    "search=gw9999": ("admin", "/api/v1/gateways/?search=gw9999"),
    "ordering=name": ("admin", "/api/v1/gateways/?ordering=name"),
    "cluster=bench3": ("admin", "/api/v1/gateways/?cluster=bench3"),
    "tenant's own list": ("tenant7", "/api/v1/gateways/"),
}


def admin_sql(*statements: str) -> None:
    with psycopg.connect(f"{SERVER}/postgres", autocommit=True) as conn:
        for statement in statements:
            conn.execute(statement)


def manage(database: str, *args: str) -> None:
    env = {**ENV, "DATABASE_URL": f"{SERVER}/{database}"}
    done = subprocess.run([sys.executable, "manage.py", *args], cwd=ROOT, env=env, capture_output=True, text=True)
    if done.returncode:
        sys.exit(f"manage.py {' '.join(args)} failed:\n{done.stderr}")


def seed(count: int) -> dict[str, str]:
    """Clusters, tenants (with tokens) and ``count`` gateways, in batches; returns the tokens by username."""
    import django

    os.environ.update(
        {
            k: ENV[k]
            for k in ("SECRET_KEY", "FIELD_ENCRYPTION_KEY", "DATABASE_URL", "CACHE_URL", "API_THROTTLE_USER_RATE")
        }
    )
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "controlplane.settings")
    django.setup()
    from django.contrib.auth import get_user_model
    from django.db import connection
    from rest_framework.authtoken.models import Token

    from controlplane.models import ManagedCluster
    from gateways.models import Gateway

    users = get_user_model()
    admin = users.objects.create_user("admin", is_staff=True, is_superuser=True)
    tenants = users.objects.bulk_create([users(username=f"tenant{n}") for n in range(TENANTS)])
    clusters = ManagedCluster.objects.bulk_create(
        [
            ManagedCluster(name=f"bench{n}", kubeconfig=KUBECONFIG, base_domain=f"bench{n}.example.com")
            for n in range(CLUSTERS)
        ]
    )
    for start in range(0, count, BATCH):
        batch = []
        for n in range(start, min(start + BATCH, count)):
            gateway = Gateway(
                owner=tenants[n % TENANTS],
                cluster=clusters[n % CLUSTERS],
                name=f"gw{n}",
                image="ghcr.io/nvidia/openshell/gateway:1.0.0",
                supervisor_image="ghcr.io/nvidia/openshell/sv:1.0.0",
                phase=PHASES[n % len(PHASES)],
            )
            gateway.assign_namespace()
            batch.append(gateway)
        Gateway.objects.bulk_create(batch)
    tokens = {user.username: Token.objects.create(user=user).key for user in (admin, tenants[7])}
    connection.close()
    return tokens


def group_cpu_seconds(group: int) -> float:
    """User and system CPU time of every live process in process group ``group`` (from /proc)."""
    total = 0
    for stat in Path("/proc").glob("[0-9]*/stat"):
        try:
            fields = stat.read_text().rsplit(")", 1)[1].split()
        except OSError:
            continue
        if int(fields[2]) == group:  # pgrp; utime and stime follow at 11 and 12
            total += int(fields[11]) + int(fields[12])
    return total / os.sysconf("SC_CLK_TCK")


def measure(database: str, tokens: dict[str, str], samples: int, warm: int) -> dict[str, tuple[float, float, float]]:
    """p50 and p99 (ms) of each request against gunicorn (2 workers) on ``database``, and its server CPU ms."""
    port = free_port()
    env = {**ENV, "DATABASE_URL": f"{SERVER}/{database}"}
    argv = [sys.executable, "-m", "gunicorn", "controlplane.wsgi", "-b", f"127.0.0.1:{port}", "-w", "2"]
    server = subprocess.Popen(
        argv, cwd=ROOT, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, start_new_session=True
    )
    sessions = {name: requests.Session() for name in tokens}
    for name, session in sessions.items():
        session.headers["Authorization"] = f"Token {tokens[name]}"
    try:
        base = f"http://127.0.0.1:{port}"
        deadline = time.monotonic() + 60
        while not _answers(base):
            if time.monotonic() > deadline:
                sys.exit("gunicorn did not start")
            time.sleep(0.2)
        figures = {}
        for label, (user, path) in REQUESTS.items():
            timings = []
            for _ in range(warm):  # warm both workers and their connections
                sessions[user].get(base + path, timeout=60).raise_for_status()
            cpu = group_cpu_seconds(server.pid)
            for _ in range(samples):
                started = time.perf_counter()
                sessions[user].get(base + path, timeout=60).raise_for_status()
                timings.append((time.perf_counter() - started) * 1000)
            cpu_ms = (group_cpu_seconds(server.pid) - cpu) * 1000 / samples
            cuts = statistics.quantiles(timings, n=100)
            figures[label] = (cuts[49], cuts[98], cpu_ms)
        return figures
    finally:
        os.killpg(server.pid, signal.SIGTERM)
        server.wait(timeout=30)


def captured_sql(tokens: dict[str, str]) -> dict[str, list[str]]:
    """The SELECTs each request runs (after authentication), captured in-process on the indexed database."""
    from django.db import connection
    from django.test.utils import CaptureQueriesContext
    from rest_framework.test import APIClient

    statements = {}
    for label, (user, path) in REQUESTS.items():
        client = APIClient()
        client.credentials(HTTP_AUTHORIZATION=f"Token {tokens[user]}")
        with CaptureQueriesContext(connection) as queries:
            assert client.get(path).status_code == 200, path
        statements[label] = [
            q["sql"]
            for q in queries.captured_queries
            if q["sql"].startswith("SELECT") and "authtoken_token" not in q["sql"]
        ]
    connection.close()
    return statements


def database_ms(database: str, statements: dict[str, list[str]]) -> dict[str, float]:
    """Per request: the summed planning and execution time (ms) of its statements, median of 5 runs."""
    times = {}
    with psycopg.connect(f"{SERVER}/{database}", autocommit=True) as conn:
        for label, sqls in statements.items():
            runs = []
            for _ in range(5):
                total = 0.0
                for sql in sqls:
                    ((plan,),) = conn.execute(f"EXPLAIN (ANALYZE, FORMAT JSON) {sql}").fetchall()
                    total += plan[0]["Planning Time"] + plan[0]["Execution Time"]
                runs.append(total)
            times[label] = statistics.median(runs)
    return times


def _answers(base: str) -> bool:
    try:
        return requests.get(f"{base}/healthz", timeout=2).ok
    except requests.RequestException:
        return False


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--gateways", type=int, default=100_000)
    parser.add_argument("--requests", type=int, default=200)
    parser.add_argument("--smoke", action="store_true", help="500 gateways, 20 requests of each kind")
    args = parser.parse_args()
    if args.smoke:
        args.gateways, args.requests = 500, 20
    warm = 4 if args.smoke else 10
    admin_sql(*(f"DROP DATABASE IF EXISTS {db} WITH (FORCE)" for db in (NEW_DB, BASE_DB)), f"CREATE DATABASE {NEW_DB}")
    manage(NEW_DB, "migrate", "--noinput")
    started = time.monotonic()
    tokens = seed(args.gateways)
    print(f"seeded {args.gateways} gateways in {time.monotonic() - started:.0f} s")
    admin_sql(f"CREATE DATABASE {BASE_DB} TEMPLATE {NEW_DB}")
    from gateways.models import Gateway

    with psycopg.connect(f"{SERVER}/{BASE_DB}", autocommit=True) as conn:
        for index in Gateway._meta.indexes:
            conn.execute(f'DROP INDEX "{index.name}"')
    for database in (NEW_DB, BASE_DB):
        with psycopg.connect(f"{SERVER}/{database}", autocommit=True) as conn:
            conn.execute("VACUUM ANALYZE")
    baseline, indexed = measure(BASE_DB, tokens, args.requests, warm), measure(NEW_DB, tokens, args.requests, warm)
    statements = captured_sql(tokens)
    base_db, new_db = database_ms(BASE_DB, statements), database_ms(NEW_DB, statements)
    print(f"load average {' '.join(f'{n:.1f}' for n in os.getloadavg())}")
    print(
        f"{'GET /api/v1/gateways/?':24} {'baseline p50/p99 ms':>20} {'indexed p50/p99 ms':>20} {'p99 ratio':>10}"
        f" {'server CPU ms: baseline / indexed':>34} {'database ms: baseline / indexed':>32}"
    )
    for label in REQUESTS:
        (b50, b99, bcpu), (n50, n99, ncpu) = baseline[label], indexed[label]
        print(
            f"{label:24} {b50:9.1f} /{b99:7.1f}  {n50:9.1f} /{n99:7.1f}  {b99 / n99:9.1f}x"
            f" {bcpu:23.1f} / {ncpu:7.1f} {base_db[label]:21.1f} / {new_db[label]:7.1f}"
        )
    print(f"indexed, per request: server CPU / database time (goal: 3x or less), at {args.gateways} gateways")
    for label in REQUESTS:
        cpu, database = indexed[label][2], new_db[label]
        ratio = f"{cpu / database:4.1f}x" if database else "n/a (no database time)"
        print(f"{label:24} server CPU {cpu:5.2f} ms / database {database:5.2f} ms: ratio {ratio}")


if __name__ == "__main__":
    main()
