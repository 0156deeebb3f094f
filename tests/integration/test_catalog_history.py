"""Catalog history and diffs: three versions of the FBC fixture pushed to the real registry under one tag and
reconciled in turn; the recorded history, the switch events, the diff API, retention and the GC."""

from __future__ import annotations

import os
import time
from collections.abc import Callable
from contextlib import AbstractContextManager
from dataclasses import dataclass
from pathlib import Path

import pytest
from django.test import Client
from django.utils import timezone

from catalogs import cleanup, history, store
from catalogs.models import Catalog
from catalogs.stored_diff import EntryMissing, diff_entries
from tests.fixtures.registry import Registry, fbc_layer, stored_content
from workers.reconcile.catalog import loop
from workers.reconcile.catalog.outcome import CatalogOutcome

pytestmark = [pytest.mark.integration, pytest.mark.django_db]

VERSIONS = ("v1", "v2", "v3")
SUMMARIES = {
    "v1": "initial content: 2 packages, 2 channels, 2 bundles",
    "v2": "+1 bundle, -1 package, -1 channel, -1 bundle, channel entries +0/-1",
    "v3": "+1 channel, 1 package changed, 1 channel changed, 1 bundle changed, upgrade edges +3/-0",
}
PROMETHEUS = "prometheus"
OLD, NEW = "prometheusoperator.0.47.0", "prometheusoperator.0.56.0"


@dataclass(frozen=True)
class Pushed:
    catalog: Catalog
    content: dict[str, str]  # version -> content digest
    manifest: dict[str, str]  # version -> image manifest digest


CaptureCommits = Callable[..., AbstractContextManager[object]]


def push_versions(registry: Registry, repository: str, capture: CaptureCommits, versions: tuple[str, ...]) -> Pushed:
    """Push each version under one tag and reconcile after each, running on-commit work (content release)."""
    catalog = Catalog.objects.create(name="history", image_ref=f"{registry.host}/{repository}:latest")
    content, manifest = {}, {}
    for version in versions:
        manifest[version] = registry.push_image(repository, "latest", [fbc_layer(version)])
        with capture(execute=True):
            assert loop.reconcile(str(catalog.pk), now=timezone.now()) == CatalogOutcome()
        catalog.refresh_from_db()
        content[version] = catalog.content_digest
    return Pushed(catalog, content, manifest)


@pytest.fixture
def pushed(registry: Registry, repository: str, catalog_store: Path, django_capture_on_commit_callbacks) -> Pushed:
    return push_versions(registry, repository, django_capture_on_commit_callbacks, VERSIONS)


def diff_url(pushed: Pushed, **query: str) -> str:
    params = "&".join(f"{key}={value}" for key, value in query.items())
    return f"/api/v1/catalogs/{pushed.catalog.pk}/diff/" + (f"?{params}" if params else "")


def test_every_switch_is_recorded_with_its_summary(pushed: Pushed, alice_api) -> None:
    revisions = list(history.revisions(pushed.catalog))
    assert [r.content_digest for r in revisions] == [pushed.content[v] for v in reversed(VERSIONS)]
    assert [r.resolved_ref.rpartition("@")[2] for r in revisions] == [pushed.manifest[v] for v in reversed(VERSIONS)]
    assert [r.summary for r in revisions] == [SUMMARIES[v] for v in reversed(VERSIONS)]
    assert revisions[0].changes["channels"]["added"] == [{"package": PROMETHEUS, "name": "stable"}]

    events = alice_api.get(f"/api/v1/catalogs/{pushed.catalog.pk}/events/")
    assert events.status_code == 200, events.content
    unpacked = [e for e in events.json()["results"] if e["reason"] == "Unpacked"]
    assert [e["message"].split(";")[0] for e in unpacked] == [SUMMARIES[v] for v in reversed(VERSIONS)]
    assert unpacked[0]["message"].endswith(f"serving {pushed.content['v3']} from {revisions[0].resolved_ref}")
    page = alice_api.get(f"/api/v1/catalogs/{pushed.catalog.pk}/events/?limit=1").json()
    assert page["count"] == events.json()["count"] and len(page["results"]) == 1 and page["next"]
    assert page["results"][0] == events.json()["results"][0]


def test_default_diff_is_previous_to_current_with_exact_sets(pushed: Pushed, alice_api) -> None:
    response = alice_api.get(diff_url(pushed))
    assert response.status_code == 200, response.content
    diff = response.json()
    unchanged = alice_api.get(diff_url(pushed), HTTP_IF_NONE_MATCH=response["ETag"])
    assert unchanged.status_code == 304 and unchanged["ETag"] == response["ETag"]
    other = alice_api.get(diff_url(pushed, to=pushed.content["v2"]), HTTP_IF_NONE_MATCH=response["ETag"])
    assert other.status_code == 200 and other["ETag"] != response["ETag"]
    ends = (diff["from"]["content_digest"], diff["to"]["content_digest"])
    assert ends == (pushed.content["v2"], pushed.content["v3"])
    assert diff["summary"] == SUMMARIES["v3"] and diff["truncated"] is False
    assert diff["packages"] == {
        "added": [],
        "removed": [],
        "changed": [{"name": PROMETHEUS, "fields_changed": ["defaultChannel"]}],
        "counts": {"added": 0, "removed": 0, "changed": 1},
    }
    assert diff["channels"] == {
        "added": [{"package": PROMETHEUS, "name": "stable"}],
        "removed": [],
        "changed": [{"package": PROMETHEUS, "name": "beta", "fields_changed": ["entries"]}],
        "counts": {"added": 1, "removed": 0, "changed": 1},
    }
    assert diff["bundles"] == {
        "added": [],
        "removed": [],
        "changed": [{"package": PROMETHEUS, "name": NEW, "fields_changed": ["properties"]}],
        "counts": {"added": 0, "removed": 0, "changed": 1},
    }
    assert diff["channel_entries"] == {
        "added": [
            {"package": PROMETHEUS, "channel": "beta", "name": NEW},
            {"package": PROMETHEUS, "channel": "stable", "name": NEW},
        ],
        "removed": [],
        "counts": {"added": 2, "removed": 0},
    }
    edge = {"package": PROMETHEUS, "channel": "beta", "entry": NEW}
    assert diff["upgrade_edges"] == {
        "added": [
            {**edge, "kind": "replaces", "target": OLD},
            {**edge, "kind": "skipRange", "target": ">=0.40.0 <0.56.0"},
            {**edge, "channel": "stable", "kind": "skips", "target": OLD},
        ],
        "removed": [],
        "counts": {"added": 3, "removed": 0},
    }


def test_diff_between_chosen_versions_by_content_or_image_digest(pushed: Pushed, alice_api) -> None:
    by_content = alice_api.get(diff_url(pushed, **{"from": pushed.content["v1"], "to": pushed.content["v2"]})).json()
    by_image = alice_api.get(diff_url(pushed, **{"from": pushed.manifest["v1"], "to": pushed.manifest["v2"]})).json()
    assert by_content == by_image and by_content["summary"] == SUMMARIES["v2"]
    assert by_content["packages"]["removed"] == [{"name": "etcd"}]
    assert by_content["channels"]["removed"] == [{"package": "etcd", "name": "stable"}]
    assert by_content["bundles"]["added"] == [{"package": PROMETHEUS, "name": NEW}]
    assert by_content["bundles"]["removed"] == [{"package": "etcd", "name": "etcd.v0.9.4"}]
    assert [by_content[kind]["changed"] for kind in ("packages", "channels", "bundles")] == [[], [], []]
    assert by_content["channel_entries"]["removed"] == [{"package": "etcd", "channel": "stable", "name": "etcd.v0.9.4"}]
    assert by_content["upgrade_edges"]["counts"] == {"added": 0, "removed": 0}

    backwards = alice_api.get(diff_url(pushed, **{"from": pushed.content["v3"], "to": pushed.content["v2"]})).json()
    assert backwards["summary"] == (
        "-1 channel, 1 package changed, 1 channel changed, 1 bundle changed, upgrade edges +0/-3"
    )
    oldest = alice_api.get(diff_url(pushed, to=pushed.content["v1"])).json()
    assert oldest["from"] is None and oldest["summary"] == SUMMARIES["v1"]


@pytest.mark.parametrize(
    ("query", "status", "field", "text"),
    [
        ({"from": "sha256:abc"}, 400, "from", "Not a digest"),
        ({"to": "latest"}, 400, "to", "Not a digest"),
        ({"from": "sha256:" + "0" * 64}, 404, None, "history (it holds its last 3 content switches, at most 10)"),
        ({"to": "sha256:" + "0" * 64}, 404, None, "`to` sha256:" + "0" * 64),
    ],
    ids=["short-digest", "not-a-digest", "unknown-from", "unknown-to"],
)
def test_diff_errors(pushed: Pushed, alice_api, query: dict, status: int, field: str | None, text: str) -> None:
    response = alice_api.get(diff_url(pushed, **query))
    assert response.status_code == status, response.content
    error = response.json()["error"]
    assert text in (error["fields"][field][0] if field else error["message"])


def test_diff_refusals_without_a_history(alice_api, anon_api, catalog_store: Path) -> None:
    catalog = Catalog.objects.create(name="fresh", image_ref="r.io/a:v1")
    url = f"/api/v1/catalogs/{catalog.pk}/diff/"
    response = alice_api.get(url)
    assert response.status_code == 404 and "no content history yet" in response.json()["error"]["message"]
    repeated = alice_api.get(f"{url}?to=sha256:{'1' * 64}&to=sha256:{'2' * 64}")
    assert repeated.status_code == 400 and repeated.json()["error"]["fields"] == {"to": ["Give at most one digest."]}
    assert anon_api.get(url).status_code == 401
    assert anon_api.get(f"/api/v1/catalogs/{catalog.pk}/events/").status_code == 401
    assert alice_api.get(f"/api/v1/catalogs/{'0' * 8}-0000-0000-0000-{'0' * 12}/events/").status_code == 404


def test_retention_and_gc_keep_exactly_the_history(
    registry: Registry, repository: str, catalog_store: Path, settings, django_capture_on_commit_callbacks, alice_api
) -> None:
    settings.CATALOG_HISTORY_LIMIT = 2
    settings.CATALOG_GC_GRACE_SECONDS = 60
    pushed = push_versions(registry, repository, django_capture_on_commit_callbacks, VERSIONS)
    content = store.get()

    assert [r.content_digest for r in history.revisions(pushed.catalog)] == [pushed.content["v3"], pushed.content["v2"]]
    assert not content.has(pushed.content["v1"])  # fell out of the history: released at once
    assert content.has(pushed.content["v2"]) and content.has(pushed.content["v3"])
    assert alice_api.get(diff_url(pushed, **{"from": pushed.content["v1"]})).status_code == 404

    orphan = stored_content("v1")  # the same content again, now referenced by nothing
    for digest in (orphan, pushed.content["v2"], pushed.content["v3"]):
        past = time.time() - 3600
        os.utime(content.content_dir(digest), (past, past))  # type: ignore[attr-defined]
    result = cleanup.sweep()
    assert result.removed == (orphan,) and result.kept == 2
    assert content.has(pushed.content["v2"])  # not served, but the history still names it

    pushed.catalog.availability_mode = "Unavailable"
    pushed.catalog.save()
    with django_capture_on_commit_callbacks(execute=True):
        loop.reconcile(str(pushed.catalog.pk), now=timezone.now())
    assert content.has(pushed.content["v3"]) and Client().get("/catalogs/history/api/v1/all").status_code == 404
    assert alice_api.get(diff_url(pushed)).json()["summary"] == SUMMARIES["v3"]

    with django_capture_on_commit_callbacks(execute=True):
        Catalog.objects.get(pk=pushed.catalog.pk).delete()
    assert content.entries() == []


def test_stored_entries_diff_on_either_store(content_store: str) -> None:
    v2, v3 = stored_content("v2"), stored_content("v3")
    diff = diff_entries(store.get(), v2, v3, detail_limit=10)
    assert {schema: (s.added, s.removed, s.changed) for schema, s in diff.sections.items()} == {
        "olm.package": ((), (), (("", PROMETHEUS),)),
        "olm.channel": (((PROMETHEUS, "stable"),), (), ((PROMETHEUS, "beta"),)),
        "olm.bundle": ((), (), ((PROMETHEUS, NEW),)),
    }
    assert diff.fields == {
        ("olm.package", "", PROMETHEUS): ("defaultChannel",),
        ("olm.channel", PROMETHEUS, "beta"): ("entries",),
        ("olm.bundle", PROMETHEUS, NEW): ("properties",),
    }
    assert len(diff.edges_added) == 3 and diff.edges_removed == ()
    with pytest.raises(EntryMissing):
        diff_entries(store.get(), "sha256:" + "0" * 64, v3, detail_limit=10)


def test_console_shows_the_last_update_and_the_history(pushed: Pushed, admin_user) -> None:
    client = Client()
    client.force_login(admin_user)
    page = client.get(f"/admin/catalogs/catalog/{pushed.catalog.pk}/change/")
    assert page.status_code == 200
    body = page.content.decode()
    last = body[body.index("What changed in the last update") : body.index("Content switches, newest first")]
    assert SUMMARIES["v3"] in last
    assert "Channels added (1)" in last and "<code>prometheus/stable</code>" in last
    assert f"<code>prometheus/{NEW} (properties)</code>" in last and "Packages changed (1)" in last
    assert f"<code>prometheus/stable: {NEW} skips {OLD}</code>" in last and "Upgrade edges added (3)" in last
    assert "removed" not in last
    assert f'href="/api/v1/catalogs/{pushed.catalog.pk}/diff/"' in last
    assert all(pushed.content[v] in body for v in VERSIONS) and SUMMARIES["v1"] in body
