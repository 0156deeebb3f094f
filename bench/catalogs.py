"""Catalog benchmark: unpack and write vs ``tar -x``, /all through gunicorn vs nginx, metas via the index vs a
full scan, and the memory of the API and of the slim content server serving the same catalog.

Run: ``.venv/bin/python bench/catalogs.py [--packages 500 --bundles-per-package 40 --write-runs 5]``. Needs curl
and nginx (``scripts/ensure_services.sh nginx``). Everything lives in a temp directory (SQLite, store,
logs) and is removed at the end. Prints each figure, the ratios, and the load average (the machine may be shared).
"""

from __future__ import annotations

import argparse
import io
import json
import os
import random
import resource
import shutil
import statistics
import subprocess
import sys
import tarfile
import tempfile
import time
from collections.abc import Callable
from datetime import UTC, datetime
from functools import partial
from pathlib import Path

import requests
from cryptography.fernet import Fernet

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from bench.smoke import parse_with_smoke  # noqa: E402
from tests.ports import free_port  # noqa: E402

NGINX = shutil.which("nginx") or "/usr/sbin/nginx"


# catalogd serving the same 20,000-bundle catalog (500 packages x 40 bundles), as measured for issue 25 on this
# kind of machine: a reference, not measured here (building catalogd needs Go modules this machine cannot fetch).
CATALOGD_RSS_MIB = 41


def timed(action: Callable[[], object]) -> float:
    started = time.perf_counter()
    action()
    return time.perf_counter() - started


# -- a synthetic catalog --------------------------------------------------------------------------


def package_documents(package: str, bundles: int, rng: random.Random) -> list[dict]:
    names = [f"{package}.v1.{n}.0" for n in range(bundles)]
    documents: list[dict] = [
        {"schema": "olm.package", "name": package, "defaultChannel": "stable", "description": f"{package} operator"},
        {
            "schema": "olm.channel",
            "package": package,
            "name": "stable",
            "entries": [{"name": name, **({"replaces": names[i - 1]} if i else {})} for i, name in enumerate(names)],
        },
    ]
    for name in names:
        documents.append(
            {
                "schema": "olm.bundle",
                "package": package,
                "name": name,
                "image": f"quay.io/bench/{package}-bundle@sha256:{rng.getrandbits(256):064x}",
                "properties": [
                    {"type": "olm.package", "value": {"packageName": package, "version": name.split(".v", 1)[1]}},
                    {"type": "olm.gvk", "value": {"group": f"{package}.example.com", "kind": "Thing", "version": "v1"}},
                    {
                        "type": "olm.csv.metadata",
                        "value": {
                            "description": " ".join(
                                rng.choice(
                                    ("deploy", "manage", "scale", "observe", "operate", "upgrade", "backup", "restore")
                                )
                                for _ in range(320)
                            ),
                        },
                    },
                ],
                "relatedImages": [
                    {"name": "operator", "image": f"quay.io/bench/{package}@sha256:{rng.getrandbits(256):064x}"}
                ],
            }
        )
    return documents


def build_layer(workdir: Path, packages: int, bundles_per_package: int) -> Path:
    """A tar.gz layer with /configs/<package>/catalog.json for every package."""
    rng = random.Random(7)
    layer = workdir / "layer.tar.gz"
    with tarfile.open(layer, "w:gz", compresslevel=6) as tar:
        configs = tarfile.TarInfo("configs")
        configs.type, configs.mode = tarfile.DIRTYPE, 0o755
        tar.addfile(configs)
        for number in range(packages):
            package = f"operator-{number:04d}"
            body = "\n".join(json.dumps(d, indent=1) for d in package_documents(package, bundles_per_package, rng))
            info = tarfile.TarInfo(f"configs/{package}/catalog.json")
            data = body.encode()
            info.size, info.mode = len(data), 0o644
            tar.addfile(info, io.BytesIO(data))
    return layer


# -- measurements ---------------------------------------------------------------------------------


def unpack_figures(layer: Path, workdir: Path, runs: int) -> dict:
    """Medians over ``runs``, each timing ``tar -x`` of the layer and then our write of the same catalog."""
    from workers.fbc.jsonl import write_catalog
    from workers.fbc.parse import find_configs_dir, iter_metas
    from workers.fbc.untar import UnpackLimits, apply_layers

    ours = workdir / "ours"
    ours.mkdir()
    untar_seconds = timed(lambda: apply_layers([layer], ours, UnpackLimits(max_bytes=4 * 1024**3)))
    configs = find_configs_dir(ours, {"operators.operatorframework.io.index.configs.v1": "/configs"})
    tar_runs, write_runs, cpu_runs, written = [], [], [], []
    for run in range(runs):
        plain, out = workdir / f"tar-x-{run}", workdir / ("out" if run == 0 else f"out-{run}")
        plain.mkdir()
        out.mkdir()
        tar_runs.append(timed(partial(subprocess.run, ["tar", "-xzf", str(layer), "-C", str(plain)], check=True)))
        shutil.rmtree(plain)
        started, cpu = time.perf_counter(), cpu_seconds()
        written.append(
            write_catalog(iter_metas(configs, ours), out / "all.jsonl", out / "all.jsonl.gz", out / "index.json")
        )
        write_runs.append(time.perf_counter() - started)
        cpu_runs.append(cpu_seconds() - cpu)
        if run:
            shutil.rmtree(out)
    assert len({w.digest for w in written}) == 1
    return {
        "tar": statistics.median(tar_runs),
        "untar": untar_seconds,
        "parse_write": statistics.median(write_runs),
        "write_runs": write_runs,
        "write_cpu": statistics.median(cpu_runs),
        "digest": written[0].digest,
        "size": written[0].size,
        "documents": written[0].documents,
        "out": workdir / "out",
    }


def cpu_seconds() -> float:
    """User and system CPU of this process, every thread included (wall time alone misleads on a shared host)."""
    usage = resource.getrusage(resource.RUSAGE_SELF)
    return usage.ru_utime + usage.ru_stime


def load_average() -> str:
    return " ".join(f"{figure:.2f}" for figure in os.getloadavg())


def memory_mib(pid: int, field: str) -> float:
    """A process's ``Rss`` or ``Pss`` (shared pages divided among the processes that map them), in MiB."""
    for line in Path(f"/proc/{pid}/smaps_rollup").read_text().splitlines():
        if line.startswith(f"{field}:"):
            return int(line.split()[1]) / 1024
    raise RuntimeError(f"no {field} for {pid}")


def gunicorn_memory(master: int, field: str = "Rss") -> list[float]:
    """``field`` in MiB of a gunicorn master and then each of its workers."""
    children = Path(f"/proc/{master}/task/{master}/children").read_text().split()
    return [memory_mib(master, field), *(memory_mib(int(child), field) for child in children)]


def warm_up(base: str, packages: list[str], rounds: int = 20) -> None:
    """Enough /all (plain and gzip) and metas requests that every worker has served each kind."""
    for number in range(rounds):
        for encoding in ("identity", "gzip"):
            requests.get(f"{base}/all", headers={"Accept-Encoding": encoding}, timeout=30).raise_for_status()
            requests.get(
                f"{base}/metas",
                params={"package": packages[number % len(packages)]},
                headers={"Accept-Encoding": encoding},
                timeout=30,
            ).raise_for_status()


def throughput(url: str, clients: int, rounds: int) -> float:
    """MB/s fetching ``url`` with ``clients`` concurrent curl processes, ``rounds`` fetches each."""
    command = f"for i in $(seq {rounds}); do curl -sf -o /dev/null '{url}' || exit 1; done"
    started = time.perf_counter()
    workers = [subprocess.Popen(["bash", "-c", command]) for _ in range(clients)]
    if any(worker.wait() != 0 for worker in workers):
        raise RuntimeError(f"fetching {url} failed")
    elapsed = time.perf_counter() - started
    size = int(requests.head(url, headers={"Accept-Encoding": "identity"}, timeout=10).headers["Content-Length"])
    return size * clients * rounds / elapsed / 1e6


def latencies(fetch: Callable[[], object], count: int) -> tuple[float, float]:
    samples = sorted(timed(fetch) * 1000 for _ in range(count))
    return statistics.median(samples), samples[min(len(samples) - 1, int(len(samples) * 0.99))]


def full_scan(path: Path, package: str) -> bytes:
    """The baseline a server without an index would run: read and parse every line, keep the matches."""
    kept = []
    with path.open("rb") as handle:
        for line in handle:
            if json.loads(line).get("package") == package:
                kept.append(line)
    return b"".join(kept)


def start(argv: list[str], env: dict[str, str], log: Path) -> subprocess.Popen:
    return subprocess.Popen(argv, cwd=ROOT, env=env, stdout=log.open("wb"), stderr=subprocess.STDOUT)


def wait_up(url: str) -> None:
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline:
        try:
            requests.get(url, timeout=1)
            return
        except requests.RequestException:
            time.sleep(0.1)
    raise RuntimeError(f"{url} did not come up")


def nginx_config(workdir: Path, port: int, docroot: Path) -> Path:
    config = workdir / "nginx.conf"
    config.write_text(f"""
user root; daemon off; worker_processes 2; pid {workdir}/nginx.pid; error_log {workdir}/nginx-error.log;
events {{ worker_connections 256; }}
http {{
  access_log off; sendfile on; tcp_nopush on;
  client_body_temp_path {workdir}/nginx-body; proxy_temp_path {workdir}/nginx-proxy;
  fastcgi_temp_path {workdir}/nginx-fcgi; uwsgi_temp_path {workdir}/nginx-uwsgi; scgi_temp_path {workdir}/nginx-scgi;
  server {{ listen 127.0.0.1:{port}; root {docroot}; }}
}}
""")
    return config


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--packages", type=int, default=500)
    parser.add_argument("--bundles-per-package", type=int, default=40)
    parser.add_argument("--clients", type=int, default=2)
    parser.add_argument("--rounds", type=int, default=10)
    parser.add_argument("--queries", type=int, default=200)
    parser.add_argument("--write-runs", type=int, default=5)
    parser.add_argument("--workers", type=int, default=2, help="gunicorn workers of the API")
    args = parse_with_smoke(
        parser,
        {
            "packages": 20,
            "bundles_per_package": 5,
            "clients": 1,
            "rounds": 2,
            "queries": 10,
            "write_runs": 1,
            "workers": 1,
        },
    )
    workdir = Path(tempfile.mkdtemp(prefix="catalog-bench-"))
    env = {
        **os.environ,
        "SECRET_KEY": "bench-" + "x" * 40,
        "FIELD_ENCRYPTION_KEY": Fernet.generate_key().decode(),
        "DATABASE_URL": f"sqlite:///{workdir / 'db.sqlite3'}",
        "CATALOG_STORE_DIR": str(workdir / "store"),
        "DJANGO_SETTINGS_MODULE": "controlplane.settings",
    }
    os.environ.update(env)
    processes: list[subprocess.Popen] = []
    try:
        layer = build_layer(workdir, args.packages, args.bundles_per_package)
        print(f"load average before: {load_average()} ({os.cpu_count()} CPUs)")
        unpack = unpack_figures(layer, workdir, args.write_runs)
        bundles = args.packages * args.bundles_per_package
        print(
            f"catalog: {bundles} bundles, {unpack['documents']} documents, {unpack['size'] / 1e6:.1f} MB JSONL, "
            f"layer {layer.stat().st_size / 1e6:.1f} MB gzip"
        )
        print(
            f"unpack: tar -x {unpack['tar']:.2f}s | safe untar {unpack['untar']:.2f}s "
            f"(x{unpack['untar'] / unpack['tar']:.2f})"
        )
        runs = ", ".join(f"{seconds:.2f}" for seconds in unpack["write_runs"])
        print(
            f"write (parse+JSONL+gzip+index), median of {args.write_runs}: {unpack['parse_write']:.2f}s ({runs}) "
            f"CPU {unpack['write_cpu']:.2f}s | "
            f"tar -x of the same layer {unpack['tar']:.2f}s | ratio x{unpack['parse_write'] / unpack['tar']:.2f} "
            f"| load average {load_average()}"
        )

        import django

        django.setup()
        from django.core.management import call_command

        from catalogs import store
        from catalogs.models import Catalog

        call_command("migrate", verbosity=0)
        out: Path = unpack["out"]
        content = store.get()
        with content.staging_dir() as staged:
            for name in store.ENTRY_FILES:
                shutil.copy(out / name, staged / name)
            content.write_entry(staged, unpack["digest"])
        Catalog.objects.create(
            name="bench",
            image_ref="quay.io/bench/catalog:v1",
            content_digest=unpack["digest"],
            last_unpacked=datetime.now(UTC),
        )
        api_port, nginx_port, content_port = free_port(), free_port(), free_port()
        processes.append(
            start(
                [
                    sys.executable,
                    "-m",
                    "gunicorn",
                    "controlplane.wsgi",
                    "-b",
                    f"127.0.0.1:{api_port}",
                    "-w",
                    str(args.workers),
                ],
                env,
                workdir / "gunicorn.log",
            )
        )
        docroot = content.content_dir(unpack["digest"])  # the directory store (nginx serves it too)
        nginx_conf = nginx_config(workdir, nginx_port, docroot)
        processes.append(start([NGINX, "-c", str(nginx_conf)], env, workdir / "nginx.log"))
        api = f"http://127.0.0.1:{api_port}/catalogs/bench/api/v1"
        wait_up(f"{api}/all")
        wait_up(f"http://127.0.0.1:{nginx_port}/all.jsonl")
        for _ in range(20):  # warm every gunicorn worker (URLconf import, first DB connection)
            requests.get(f"{api}/metas", params={"name": "none"}, timeout=10)

        ours = throughput(f"{api}/all", args.clients, args.rounds)
        static = throughput(f"http://127.0.0.1:{nginx_port}/all.jsonl", args.clients, args.rounds)
        print(
            f"/all throughput ({args.clients} clients): gunicorn {ours:.0f} MB/s | nginx {static:.0f} MB/s "
            f"| ratio {ours / static:.2f}"
        )

        session = requests.Session()
        packages = [f"operator-{n:04d}" for n in random.Random(3).sample(range(args.packages), 20)]
        picks = iter(packages * (args.queries // len(packages) + 1))
        p50, p99 = latencies(lambda: session.get(f"{api}/metas", params={"package": next(picks)}).content, args.queries)
        scan_picks = iter(packages * 2)
        all_file = docroot / store.ALL_FILE
        s50, s99 = latencies(lambda: full_scan(all_file, next(scan_picks)), min(20, args.queries))
        assert session.get(f"{api}/metas", params={"package": packages[0]}).content == full_scan(all_file, packages[0])
        print(
            f"metas?package= over HTTP: p50 {p50:.1f} ms, p99 {p99:.1f} ms | full scan in-process: "
            f"p50 {s50:.0f} ms, p99 {s99:.0f} ms | speed-up p50 x{s50 / p50:.0f}, p99 x{s99 / p99:.0f}"
        )

        # As the image runs it (scripts/entrypoint.sh content: one process, threads).
        slim = start(
            ["sh", str(ROOT / "scripts" / "entrypoint.sh"), "content"],
            {**env, "PORT": str(content_port), "PATH": f"{Path(sys.executable).parent}:{env['PATH']}"},
            workdir / "gunicorn-content.log",
        )
        processes.append(slim)
        content_api = f"http://127.0.0.1:{content_port}/catalogs/bench/api/v1"
        wait_up(f"{content_api}/all")
        for base in (api, content_api):
            warm_up(base, packages)
        for label, master in (
            ("full API (controlplane.wsgi)", processes[0]),
            ("slim content (entrypoint.sh content)", slim),
        ):
            sizes = gunicorn_memory(master.pid)
            print(
                f"RSS after warm-up, {label}: master {sizes[0]:.0f} MiB, workers "
                f"{', '.join(f'{size:.0f}' for size in sizes[1:])} MiB | largest {max(sizes):.0f} MiB, "
                f"total {sum(sizes):.0f} MiB in {len(sizes)} processes"
            )
        rss, pss = (sum(gunicorn_memory(slim.pid, field)) for field in ("Rss", "Pss"))
        print(
            f"slim content server against catalogd: RSS {rss:.0f} MiB (all its processes; pages the master and "
            f"the worker share are counted twice), PSS {pss:.0f} MiB, against {CATALOGD_RSS_MIB} MiB | ratio "
            f"{rss / CATALOGD_RSS_MIB:.2f}x by RSS, {pss / CATALOGD_RSS_MIB:.2f}x by PSS (catalogd's figure is not "
            "measured in this run: see CATALOGD_RSS_MIB)"
        )
    finally:
        for process in processes:
            process.terminate()
            process.wait(timeout=20)
        shutil.rmtree(workdir, ignore_errors=True)


if __name__ == "__main__":
    main()
