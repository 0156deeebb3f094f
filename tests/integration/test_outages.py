"""Outages: with Redis (cache and broker) dead the API still reads and writes; with PostgreSQL
unreachable it answers a JSON 503 with Retry-After, and recovers by itself."""

from __future__ import annotations

from pathlib import Path

import pytest
import requests
from django.conf import settings
from rest_framework.authtoken.models import Token

from gateways.models import Gateway
from tests.fixtures.outage import TcpProxy, api_process
from tests.helpers import clear_of_a_rate_window_edge

pytestmark = [pytest.mark.integration, pytest.mark.django_db(transaction=True)]

DEAD_REDIS = "redis://127.0.0.1:1/0"
BODY = {"name": "edge", "cluster": "east", "image": "r.example.com/gw:1", "supervisor_image": "r.example.com/sv:1"}


def database_url(host: str, port: int) -> str:
    db = settings.DATABASES["default"]
    return f"postgres://{db['USER']}@{host}:{port}/{db['NAME']}"


def test_redis_down_reads_and_writes_work_and_limits_go_per_process(alice, cluster, tmp_path: Path) -> None:
    headers = {"Authorization": f"Token {Token.objects.create(user=alice).key}"}
    db = settings.DATABASES["default"]
    env = {
        "DATABASE_URL": database_url(db["HOST"], int(db["PORT"])),
        "CACHE_URL": DEAD_REDIS,
        "CELERY_BROKER_URL": DEAD_REDIS,
        "API_THROTTLE_USER_RATE": "6/day",
    }
    with api_process(tmp_path, **env) as api:
        clear_of_a_rate_window_edge(86400, margin=120)
        assert requests.get(f"{api}/api/v1/gateways/", headers=headers, timeout=10).status_code == 200
        created = requests.post(f"{api}/api/v1/gateways/", json=BODY, headers=headers, timeout=15)
        assert created.status_code == 201, created.text
        patched = requests.patch(
            f"{api}/api/v1/gateways/{created.json()['id']}/", json={"suspended": True}, headers=headers, timeout=15
        )
        assert patched.status_code == 200, patched.text
        codes = [requests.get(f"{api}/api/v1/gateways/", headers=headers, timeout=10).status_code for _ in range(4)]
        assert codes == [200, 200, 200, 429]  # 6 a day, counted in the process
        ready = requests.get(f"{api}/readyz", timeout=15)
    assert ready.status_code == 503
    assert ready.json()["checks"]["broker"].startswith("broker unreachable")
    assert ready.json()["checks"]["cache"].startswith("cache unreachable")
    assert ready.json()["checks"]["database"] == "ok"
    log = next(tmp_path.glob("api-*.log")).read_text()
    assert log.count("rate limits are per process: the shared cache is unreachable") == 1
    gateway = Gateway.objects.get(pk=created.json()["id"])
    assert gateway.suspended and gateway.generation == 2


def test_database_down_is_json_503_and_recovers(alice, cluster, tmp_path: Path) -> None:
    headers = {"Authorization": f"Token {Token.objects.create(user=alice).key}"}
    db = settings.DATABASES["default"]
    proxy = TcpProxy((db["HOST"], int(db["PORT"])))
    proxy.up()
    try:
        with api_process(tmp_path, DATABASE_URL=database_url("127.0.0.1", proxy.port)) as api:
            assert requests.get(f"{api}/api/v1/gateways/", headers=headers, timeout=10).status_code == 200
            proxy.down()
            for method, path in (
                ("get", "/api/v1/gateways/"),
                ("post", "/api/v1/gateways/"),
                ("get", "/catalogs/ops/api/v1/all"),
            ):
                response = requests.request(
                    method, f"{api}{path}", json=BODY, headers=headers, timeout=15, allow_redirects=False
                )
                assert response.status_code == 503, (path, response.text[:300])
                assert response.json()["error"]["code"] == "database_unavailable"
                assert int(response.headers["Retry-After"]) > 0
            proxy.up()
            listed = requests.get(f"{api}/api/v1/gateways/", headers=headers, timeout=10)
            assert listed.status_code == 200 and listed.json()["count"] == 0
    finally:
        proxy.down()
    assert not Gateway.objects.exists()
