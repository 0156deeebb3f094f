"""List pagination on PostgreSQL: keyset (cursor) pages, deep offsets, and counts estimated above a limit."""

from __future__ import annotations

from typing import Any

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from controlplane.api import counting, pagination
from gateways.choices import Phase
from gateways.models import Gateway

pytestmark = pytest.mark.django_db


def seed(owner: Any, cluster: Any, count: int, phase: str = Phase.PENDING, prefix: str = "gw") -> None:
    gateways = []
    for n in range(count):
        gateway = Gateway(
            owner=owner,
            cluster=cluster,
            name=f"{prefix}{n:05d}",
            image="ghcr.io/o/gw:1",
            supervisor_image="ghcr.io/o/sv:1",
            phase=phase,
        )
        gateway.assign_namespace()
        gateways.append(gateway)
    Gateway.objects.bulk_create(gateways)


def names(page: dict) -> list[str]:
    return [gateway["name"] for gateway in page["results"]]


def follow(client: Any, url: str | None) -> dict:
    assert url, "expected another page"
    return client.get(url).json()


def test_cursor_pages_walk_the_whole_list_in_order_and_back(alice_api, alice, cluster) -> None:
    seed(alice, cluster, 5)
    first = alice_api.get("/api/v1/gateways/?cursor=&limit=2").json()
    assert names(first) == ["gw00000", "gw00001"] and first["previous"] is None
    assert "cursor=" in first["next"] and "offset" not in first["next"]
    second = follow(alice_api, first["next"])
    third = follow(alice_api, second["next"])
    assert names(second) == ["gw00002", "gw00003"] and names(third) == ["gw00004"] and third["next"] is None
    assert names(follow(alice_api, third["previous"])) == ["gw00002", "gw00003"]
    assert (first["count"], first["count_is_estimate"]) == (5, False)


def test_cursor_follows_the_requested_ordering_and_filters(alice_api, alice, cluster) -> None:
    seed(alice, cluster, 4)
    seed(alice, cluster, 2, phase=Phase.FAILED, prefix="bad")
    first = alice_api.get("/api/v1/gateways/?cursor=&limit=3&ordering=-name").json()
    assert names(first) == ["gw00003", "gw00002", "gw00001"]
    assert names(follow(alice_api, first["next"])) == ["gw00000", "bad00001", "bad00000"]
    failed = alice_api.get("/api/v1/gateways/?cursor=&limit=1&phase=Failed").json()
    assert names(failed) == ["bad00000"] and failed["count"] == 2
    assert names(follow(alice_api, failed["next"])) == ["bad00001"]


def test_large_counts_are_the_planner_estimate(admin_api, alice, cluster, settings) -> None:
    settings.API_EXACT_COUNT_LIMIT = 20
    seed(alice, cluster, 40)
    seed(alice, cluster, 3, phase=Phase.FAILED, prefix="bad")
    with connection.cursor() as cursor:
        cursor.execute("ANALYZE gateways_gateway")
    with CaptureQueriesContext(connection) as queries:
        page = admin_api.get("/api/v1/gateways/?limit=5").json()
    assert page["count_is_estimate"] is True and 30 <= page["count"] <= 60 and len(page["results"]) == 5
    assert not [q["sql"] for q in queries.captured_queries if "COUNT(" in q["sql"]], "a large list must not count"
    with CaptureQueriesContext(connection) as queries:
        failed = admin_api.get("/api/v1/gateways/?limit=1&phase=Failed").json()
    assert (failed["count"], failed["count_is_estimate"]) == (3, False)
    assert [q for q in queries.captured_queries if "COUNT(" in q["sql"]], "a small list is counted exactly"
    last = admin_api.get("/api/v1/gateways/?limit=10&offset=40").json()
    assert (last["count"], last["count_is_estimate"]) == (43, False), "the last page knows the exact count"


def test_deep_offsets_read_ids_first_and_return_the_same_page(admin_api, alice, cluster, monkeypatch) -> None:
    monkeypatch.setattr(pagination, "DEEP_OFFSET", 4)
    seed(alice, cluster, 20)
    with connection.cursor() as cursor:
        cursor.execute("ANALYZE gateways_gateway")  # the planner's estimate decides which end to read from
    with CaptureQueriesContext(connection) as queries:
        page = admin_api.get("/api/v1/gateways/?limit=5&offset=6").json()
    assert names(page) == [f"gw{n:05d}" for n in range(6, 11)] and page["count"] == 20
    id_queries = [q["sql"] for q in queries.captured_queries if q["sql"].startswith('SELECT "gateways_gateway"."id"')]
    assert id_queries and "OFFSET 6" in id_queries[0]
    shallow = admin_api.get("/api/v1/gateways/?limit=5&offset=2").json()
    assert names(shallow) == [f"gw{n:05d}" for n in range(2, 7)]
    with CaptureQueriesContext(connection) as queries:
        back = admin_api.get("/api/v1/gateways/?limit=5&offset=13").json()
    assert names(back) == [f"gw{n:05d}" for n in range(13, 18)] and back["count"] == 20
    assert any("DESC" in q["sql"] and "OFFSET 2" in q["sql"] for q in queries.captured_queries), "read from the end"


def test_the_estimate_and_back_half_count_are_reused_for_their_ttl_and_per_query(
    admin_api, alice, cluster, monkeypatch, settings
) -> None:
    monkeypatch.setattr(pagination, "DEEP_OFFSET", 4)
    clock = [100.0]
    monkeypatch.setattr(counting, "clock", lambda: clock[0])
    settings.API_COUNT_CACHE_SECONDS = 5
    seed(alice, cluster, 20)
    with connection.cursor() as cursor:
        cursor.execute("ANALYZE gateways_gateway")

    def back_page(url: str = "/api/v1/gateways/?limit=5&offset=13", asked: str = "COUNT(") -> tuple[dict, int]:
        with CaptureQueriesContext(connection) as queries:
            page = admin_api.get(url).json()
        return page, sum(asked in q["sql"] for q in queries.captured_queries)

    assert back_page(asked="EXPLAIN")[1] == 1 and back_page(asked="EXPLAIN")[1] == 0, "the estimate is reused too"
    counting.counts.clear()
    assert back_page()[1] == 1
    seed(alice, cluster, 1, prefix="zz")  # written meanwhile, at the end: the reused count does not see it yet,
    page, counted = back_page()  # so the page, read from the end, shifts by that row (as the README says)
    assert counted == 0 and page["count"] == 20 and names(page) == [f"gw{n:05d}" for n in range(14, 19)]
    assert back_page("/api/v1/gateways/?limit=5&offset=13&ordering=-name")[1] == 0, "the ordering is the same set"
    assert back_page("/api/v1/gateways/?limit=5&offset=13&owner=alice")[1] == 1, "another filter, another count"
    clock[0] += 5.1
    page, counted = back_page()
    assert counted == 1 and page["count"] == 21
    settings.API_COUNT_CACHE_SECONDS = 0
    assert [back_page()[1] for _ in range(2)] == [1, 1]


def test_schema_documents_cursor_and_count_is_estimate(alice_api) -> None:
    schema = alice_api.get("/api/v1/schema/?format=json").json()
    parameters = {p["name"]: p for p in schema["paths"]["/api/v1/gateways/"]["get"]["parameters"]}
    assert {"limit", "offset", "cursor"} <= set(parameters) and "keyset" in parameters["cursor"]["description"].lower()
    page = schema["components"]["schemas"]["PaginatedGatewayList"]
    assert page["properties"]["count_is_estimate"]["type"] == "boolean"
    assert "count_is_estimate" in page["required"]


def test_a_list_page_never_loads_cluster_secrets(admin_api, alice, cluster) -> None:
    seed(alice, cluster, 3)
    with CaptureQueriesContext(connection) as queries:
        page = admin_api.get("/api/v1/gateways/").json()
    assert {g["cluster"] for g in page["results"]} == {cluster.name}
    selected = " ".join(q["sql"] for q in queries.captured_queries)
    assert '"controlplane_managedcluster"."name"' in selected
    assert '"controlplane_managedcluster"."kubeconfig"' not in selected


def test_a_bad_cursor_or_a_huge_offset_is_a_400_naming_it(admin_api) -> None:
    bad_cursor = admin_api.get("/api/v1/gateways/?cursor=not-a-cursor")
    assert bad_cursor.status_code == 400 and "cursor" in bad_cursor.json()["error"]["fields"]
    huge = admin_api.get("/api/v1/clusters/?offset=801271454680754639863808")
    assert huge.status_code == 400 and "offset" in huge.json()["error"]["fields"]
