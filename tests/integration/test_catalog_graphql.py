"""GraphQL over catalog content: the inferred schema, filters and pages from the index, introspection,
ETags, and a clear 400 for every kind of bad input and every limit.

Queries run on the directory store; the two that read documents run on S3 as well."""

from __future__ import annotations

import gzip
import json
import os
import subprocess
import sys
from datetime import UTC, datetime
from typing import Any

import pytest
from django.test import Client
from graphql import get_introspection_query

from catalogs import store
from catalogs.models import Catalog
from tests.fixtures.registry import expected_lines, stored_content
from tests.paths import PROJECT_ROOT

pytestmark = [pytest.mark.integration, pytest.mark.django_db]

URL = "/catalogs/ops/api/v1/graphql"
DOCUMENTS = [json.loads(line) for line in expected_lines("v1").splitlines()]
BUNDLES = [d for d in DOCUMENTS if d["schema"] == "olm.bundle"]


def make_catalog() -> str:
    digest = stored_content("v1")
    Catalog.objects.create(
        name="ops", image_ref="r.io/ops:v1", content_digest=digest, last_unpacked=datetime(2026, 3, 4, tzinfo=UTC)
    )
    return digest


@pytest.fixture
def digest(catalog_store: object) -> str:
    return make_catalog()


@pytest.fixture
def either_store(content_store: str) -> str:
    return make_catalog()


def post(body: Any, **headers: str) -> Any:
    raw = body if isinstance(body, (bytes, str)) else json.dumps(body)
    return Client().post(URL, data=raw, content_type="application/json", headers=headers)


def data_of(query: str, **variables: Any) -> dict[str, Any]:
    response = post({"query": query, "variables": variables})
    assert response.status_code == 200, response.content
    answer = response.json()
    assert "errors" not in answer
    return answer["data"]


def test_bundles_by_package(either_store: str) -> None:
    data = data_of('{ olmbundles(package: "etcd") { name package image properties(type: "olm.package") { value } } }')
    bundle = BUNDLES[0]
    assert data == {
        "olmbundles": [
            {
                "name": bundle["name"],
                "package": "etcd",
                "image": bundle["image"],
                "properties": [{"value": {"packageName": "etcd", "version": "0.9.4"}}],
            }
        ]
    }
    by_name = data_of("query($n: String) { olmbundles(name: $n) { package } }", n=BUNDLES[1]["name"])
    assert by_name == {"olmbundles": [{"package": "prometheus"}]}
    assert data_of('{ olmbundles(package: "etcd", name: "nothing") { name } }') == {"olmbundles": []}


def test_every_schema_is_a_root_field_with_inferred_types(digest: str) -> None:
    data = data_of("""{
      olmpackages { name defaultChannel description }
      olmchannels(package: "prometheus") { name entries { name } }
      examplecomnotes { text }
      summary { totalSchemas schemas { name field totalObjects totalFields } }
    }""")
    assert data["olmpackages"] == [
        {"name": "etcd", "defaultChannel": "stable", "description": "A distributed key-value store.\n"},
        {"name": "prometheus", "defaultChannel": "beta", "description": None},
    ]
    assert data["olmchannels"] == [{"name": "beta", "entries": [{"name": "prometheusoperator.0.47.0"}]}]
    assert data["examplecomnotes"] == [{"text": "passes through untouched"}]
    assert data["summary"] == {
        "totalSchemas": 4,
        "schemas": [
            {"name": "example.com/note", "field": "examplecomnotes", "totalObjects": 1, "totalFields": 3},
            {"name": "olm.bundle", "field": "olmbundles", "totalObjects": 2, "totalFields": 5},
            {"name": "olm.channel", "field": "olmchannels", "totalObjects": 2, "totalFields": 4},
            {"name": "olm.package", "field": "olmpackages", "totalObjects": 2, "totalFields": 4},
        ],
    }


def type_ref(ref: dict[str, Any]) -> str:
    if ref["kind"] == "NON_NULL":
        return type_ref(ref["ofType"]) + "!"
    if ref["kind"] == "LIST":
        return f"[{type_ref(ref['ofType'])}]"
    return ref["name"]


def test_introspection(digest: str) -> None:
    schema = data_of(get_introspection_query(descriptions=True))["__schema"]
    types = {t["name"]: t for t in schema["types"]}
    root = {f["name"]: f for f in types[schema["queryType"]["name"]]["fields"]}
    assert sorted(root) == ["examplecomnotes", "olmbundles", "olmchannels", "olmpackages", "summary"]
    assert {a["name"]: type_ref(a["type"]) for a in root["olmbundles"]["args"]} == {
        "limit": "Int!",
        "offset": "Int!",
        "package": "String",
        "name": "String",
    }
    assert type_ref(root["olmbundles"]["type"]) == "[OlmBundle!]!"
    fields = {f["name"]: type_ref(f["type"]) for f in types["OlmPackage"]["fields"]}
    assert fields == {"defaultChannel": "String!", "description": "String", "name": "String!", "schema": "String!"}
    assert {f["name"]: type_ref(f["type"]) for f in types["OlmBundleProperties"]["fields"]} == {
        "type": "String!",
        "value": "JSON",
    }


@pytest.mark.parametrize(
    ("arguments", "names"),
    [
        ("limit: 1", [0]),
        ("limit: 1, offset: 1", [1]),
        ("offset: 1", [1]),
        ("offset: 2", []),
        ("limit: 0", []),
        ('package: "prometheus", offset: 0, limit: 5', [1]),
        ('package: "prometheus", offset: 1', []),
    ],
)
def test_pagination(digest: str, arguments: str, names: list[int]) -> None:
    data = data_of(f"{{ olmbundles({arguments}) {{ name }} }}")
    assert data["olmbundles"] == [{"name": BUNDLES[n]["name"]} for n in names]


BIG_FRAGMENTS = (
    "query { ...A }"
    + "".join(
        f" fragment {name} on Query {{ a: summary {{ totalSchemas }} ...{child} ...{child} }}"
        for name, child in zip("ABCDEFGHIJ", "BCDEFGHIJK", strict=True)
    )
    + " fragment K on Query { summary { totalSchemas } }"
)  # 2**10 spreads of K: each one counts


@pytest.mark.parametrize(
    ("setting", "value", "body", "code"),
    [
        (
            "CATALOG_GRAPHQL_MAX_BODY_BYTES",
            1024,
            {"query": "{ summary { totalSchemas } }" + " " * 1100},
            "request_too_large",
        ),
        (
            "CATALOG_GRAPHQL_MAX_QUERY_BYTES",
            256,
            {"query": "{ summary { totalSchemas } }" + " " * 300},
            "query_too_large",
        ),
        ("CATALOG_GRAPHQL_MAX_DEPTH", 2, {"query": "{ olmchannels { entries { name } } }"}, "query_too_deep"),
        ("CATALOG_GRAPHQL_MAX_COST", 500, {"query": "{ olmbundles(limit: 1000) { name } }"}, "query_too_complex"),
        ("CATALOG_GRAPHQL_MAX_COST", 1000, {"query": BIG_FRAGMENTS}, "query_too_complex"),
        ("CATALOG_GRAPHQL_MAX_PAGE", 10, {"query": "{ olmbundles(limit: 11) { name } }"}, "invalid_argument"),
        (
            "CATALOG_GRAPHQL_MAX_OFFSET",
            10,
            {"query": "query($o: Int!) { olmbundles(offset: $o) { name } }", "variables": {"o": 11}},
            "invalid_argument",
        ),
    ],
)
def test_each_limit_is_a_400(digest: str, settings: Any, setting: str, value: int, body: Any, code: str) -> None:
    response = post(body)
    assert response.status_code == 200, (setting, response.content)  # within the default limits
    setattr(settings, setting, value)
    response = post(body)
    assert response.status_code == 400
    assert response.json()["error"]["status"] == 400 and response.json()["error"]["code"] == code


FRAGMENT_CHAIN = (
    "{ ...F0 } "
    + "".join(f"fragment F{n} on Query {{ ...F{n + 1} }} " for n in range(250))
    + ("fragment F250 on Query { __typename }")
)


@pytest.mark.parametrize(
    ("body", "code"),
    [
        (b"{not json", "invalid_json"),
        (b"\xff\xfe", "invalid_json"),
        ("[" * 100_000 + "]" * 100_000, "invalid_json"),
        ([{"query": "{ summary { totalSchemas } }"}], "invalid_request"),
        ({}, "invalid_request"),
        ({"query": 7}, "invalid_request"),
        ({"query": "  "}, "invalid_request"),
        ({"query": "{ summary { totalSchemas } }", "variables": [1]}, "invalid_request"),
        ({"query": "{ summary { totalSchemas } }", "operationName": 1}, "invalid_request"),
        ({"query": "{ summary { totalSchemas } }", "extensions": "x"}, "invalid_request"),
        ({"query": "{ summary { totalSchemas } }", "mutation": "x"}, "invalid_request"),
        ({"query": "{ summary { totalSchemas }"}, "invalid_graphql"),
        ({"query": "{ olmbundles { nosuchfield } }"}, "invalid_graphql"),
        ({"query": "{ olmbundles(limit: null) { name } }"}, "invalid_graphql"),
        ({"query": 'mutation { olmbundles(name: "x") { name } }'}, "invalid_graphql"),
        ({"query": "query A { summary { totalSchemas } } query B { summary { totalSchemas } }"}, "invalid_graphql"),
        ({"query": "query A { summary { totalSchemas } }", "operationName": "B"}, "invalid_graphql"),
        ({"query": "query($n: Int!) { olmbundles(limit: $n) { name } }", "variables": {"n": "x"}}, "invalid_variables"),
        ({"query": "query($n: Int!) { olmbundles(limit: $n) { name } }"}, "invalid_variables"),
        ({"query": "{ summary " * 300 + "}" * 300}, "invalid_graphql"),  # graphql-core parses 200 levels at most
        ({"query": FRAGMENT_CHAIN}, "invalid_graphql"),  # and validates chains of fewer than 200 fragments
    ],
)
def test_malformed_requests_are_400(digest: str, body: Any, code: str) -> None:
    response = post(body)
    assert response.status_code == 400, response.content
    error = response.json()["error"]
    assert error["status"] == 400 and error["code"] == code and error["message"]
    assert all(isinstance(message, str) and message for message in error.get("fields", {}).get("query", []))


def test_graphql_messages_say_what_and_where(digest: str) -> None:
    error = post({"query": "{\n  olmbundles { nosuchfield }\n}"}).json()["error"]
    assert error["fields"]["query"] == ["Cannot query field 'nosuchfield' on type 'OlmBundle'. (line 2, column 16)"]


def test_etag_names_the_content_and_the_normalised_query(digest: str) -> None:
    query = "query($p: String) { olmbundles(package: $p) { name } }"
    first = post({"query": query, "variables": {"p": "etcd"}})
    etag = first["ETag"]
    spaced = post({"query": query.replace(" ", "\n  ") + " # a comment", "variables": {"p": "etcd"}})
    assert spaced["ETag"] == etag and spaced.content == first.content
    assert post({"query": query, "variables": {"p": "prometheus"}})["ETag"] != etag
    params = {"query": query, "variables": json.dumps({"p": "etcd"})}
    got = Client().get(URL, params)
    assert got.status_code == 200 and got["ETag"] == etag and got.content == first.content
    again = Client().get(URL, params, headers={"If-None-Match": etag})
    assert again.status_code == 304 and again.content == b"" and again["ETag"] == etag
    # RFC 9110: a POST whose If-None-Match matches is not performed, and the answer to that is a 412
    assert post({"query": query, "variables": {"p": "etcd"}}, **{"If-None-Match": etag}).status_code == 412
    assert post({"query": query, "variables": {"p": "etcd"}}, **{"If-None-Match": '"other"'}).status_code == 200


def test_a_client_that_accepts_gzip_gets_every_answer_gzipped_with_its_own_etag(digest: str) -> None:
    query = {"query": "{ summary { totalSchemas } }"}
    plain = post(query)
    packed = post(query, **{"Accept-Encoding": "br;q=1, gzip;q=0.5"})
    assert "Content-Encoding" not in plain and packed["Content-Encoding"] == "gzip"
    assert gzip.decompress(packed.content) == plain.content and len(plain.content) < 100  # small ones too
    assert packed["ETag"] == plain["ETag"][:-1] + '-gzip"'
    assert "Accept-Encoding" in packed["Vary"] and "Accept-Encoding" in plain["Vary"]
    assert post(query, **{"Accept-Encoding": "gzip"}).content == packed.content, "the same bytes every time"
    params = {"query": query["query"]}
    again = Client().get(URL, params, headers={"If-None-Match": packed["ETag"], "Accept-Encoding": "gzip"})
    assert again.status_code == 304 and again["ETag"] == packed["ETag"] and "Accept-Encoding" in again["Vary"]
    other = Client().get(URL, params, headers={"If-None-Match": plain["ETag"], "Accept-Encoding": "gzip"})
    assert other.status_code == 200 and other["Content-Encoding"] == "gzip", "another representation"
    refused = Client().get(URL, params, headers={"Accept-Encoding": "gzip;q=0"})
    assert refused.content == plain.content and "Content-Encoding" not in refused


@pytest.mark.parametrize(
    ("method", "url", "status"),
    [
        ("put", URL, 405),
        ("head", URL, 405),
        ("delete", URL, 405),
        ("get", URL + "?query=%7B%7D&other=1", 400),
        ("get", URL + "?query=a&query=b", 400),
        ("get", URL, 400),
        ("get", URL + "?query=%7Bsummary%7BtotalSchemas%7D%7D&variables=%5B%5D", 400),
        ("post", "/catalogs/Not_DNS/api/v1/graphql", 400),
        ("post", "/catalogs/unknown/api/v1/graphql", 404),
        ("post", "/catalogs/pending/api/v1/graphql", 503),
    ],
)
def test_error_statuses(digest: str, method: str, url: str, status: int) -> None:
    Catalog.objects.create(name="pending", image_ref="r.io/p:v1")
    response = getattr(Client(), method)(
        url, **({"data": "{}", "content_type": "application/json"} if method == "post" else {})
    )
    assert response.status_code == status
    if method != "head":
        assert response.json()["error"]["status"] == status


def test_a_corrupt_index_is_a_503_and_discarded_for_a_fresh_unpack(digest: str) -> None:
    (store.get().content_dir(digest) / store.INDEX_FILE).write_bytes(b'{"version": 1, "entries": [[1, 2]')  # type: ignore[attr-defined]
    response = post({"query": "{ olmbundles { name } }"})
    assert response.status_code == 503 and response.json()["error"]["code"] == "unavailable"
    assert not store.get().has(digest)


def test_graphql_core_is_loaded_with_the_first_query_not_at_start() -> None:
    """It costs about 15 MiB a process; a content server that is never asked a query does without."""
    probe = (
        "import sys, django; django.setup(); from django.urls import resolve; "
        "resolve('/catalogs/a/api/v1/graphql'); import controlplane.wsgi; print('graphql' in sys.modules)"
    )
    env = {**os.environ, "DJANGO_SETTINGS_MODULE": "controlplane.settings"}
    loaded = subprocess.run(
        [sys.executable, "-c", probe], cwd=PROJECT_ROOT, env=env, capture_output=True, text=True, timeout=60
    )
    assert loaded.stdout.strip() == "False", loaded.stderr
