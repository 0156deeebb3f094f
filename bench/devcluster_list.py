"""devcluster list benchmark: a cluster-wide, label-selected list of many Secrets, paged vs unpaged.

Run: ``.venv/bin/python bench/devcluster_list.py [--objects 5000 --limit 500 --repeat 5]``. Starts a devcluster
subprocess, creates the Secrets over HTTP (half labelled ``owner=helm``, ~4 KiB of data each, spread over a
few namespaces), then times a full paged list (following continue tokens) against an unpaged list of the same
selection and prints the medians and their ratio. Not part of the test suite.
"""

from __future__ import annotations

import argparse
import base64
import http.client
import json
import statistics
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any
from urllib.parse import urlencode, urlsplit

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from bench.smoke import parse_with_smoke  # noqa: E402
from tests.fixtures.devcluster import start_devcluster  # noqa: E402

SELECTOR = "owner=helm"
NAMESPACES = 10


class Client:
    """One keep-alive HTTP connection to the devcluster."""

    def __init__(self, url: str) -> None:
        parts = urlsplit(url)
        self._connection = http.client.HTTPConnection(parts.hostname, parts.port, timeout=120)

    def request(self, method: str, path: str, body: Any = None) -> dict[str, Any]:
        data = None if body is None else json.dumps(body).encode()
        headers = {"Content-Type": "application/json"} if data else {}
        self._connection.request(method, path, body=data, headers=headers)
        response = self._connection.getresponse()
        payload = json.loads(response.read())
        if response.status >= 300:
            raise RuntimeError(f"{method} {path} -> {response.status}: {payload.get('message')}")
        return payload

    def close(self) -> None:
        self._connection.close()


def create_secrets(api: Client, count: int) -> None:
    namespaces = [f"bench-{index}" for index in range(NAMESPACES)]
    for name in namespaces:
        api.request("POST", "/api/v1/namespaces", {"metadata": {"name": name}})
    value = base64.b64encode(b"x" * 3000).decode()  # ~4 KiB encoded
    for index in range(count):
        labels = {"owner": "helm" if index % 2 else "app"}
        body = {
            "metadata": {"name": f"sh.helm.release.v1.r{index}.v1", "labels": labels},
            "type": "helm.sh/release.v1",
            "data": {"release": value},
        }
        api.request("POST", f"/api/v1/namespaces/{namespaces[index % NAMESPACES]}/secrets", body)


def list_all(api: Client, limit: int) -> int:
    """Items in the selected list, following continue tokens when `limit` is set."""
    query: dict[str, Any] = {"labelSelector": SELECTOR}
    if limit:
        query["limit"] = limit
    items = 0
    while True:
        page = api.request("GET", f"/api/v1/secrets?{urlencode(query)}")
        items += len(page["items"])
        token = page["metadata"].get("continue")
        if not token:
            return items
        query["continue"] = token


def median_seconds(action: Callable[[], object], repeat: int) -> float:
    timings = []
    for _ in range(repeat):
        started = time.perf_counter()
        action()
        timings.append(time.perf_counter() - started)
    return statistics.median(timings)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--objects", type=int, default=5000)
    parser.add_argument("--limit", type=int, default=500)
    parser.add_argument("--repeat", type=int, default=5)
    args = parse_with_smoke(parser, {"objects": 200, "limit": 50, "repeat": 2})
    with tempfile.TemporaryDirectory() as workdir, start_devcluster(Path(workdir)) as cluster:
        api = Client(cluster.url)
        started = time.perf_counter()
        create_secrets(api, args.objects)
        print(f"created {args.objects} secrets in {time.perf_counter() - started:.1f}s")
        expected = args.objects // 2
        assert list_all(api, 0) == expected and list_all(api, args.limit) == expected
        unpaged = median_seconds(lambda: list_all(api, 0), args.repeat)
        paged = median_seconds(lambda: list_all(api, args.limit), args.repeat)
        api.close()
    print(f"unpaged list ({expected} of {args.objects} selected by {SELECTOR}): {unpaged * 1000:.0f} ms (median)")
    print(f"paged list (limit {args.limit}, {-(-expected // args.limit)} requests): {paged * 1000:.0f} ms (median)")
    print(f"paged / unpaged: {paged / unpaged:.2f}x")
    return 0


if __name__ == "__main__":
    sys.exit(main())
