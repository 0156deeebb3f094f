"""The catalog diff (pure): sketches of two versions, their comparison, the one-line summary and the JSON shape."""

from __future__ import annotations

import json

import pytest

from catalogs.diff import Sketch, SketchBuilder, as_dict, changed_fields, compare, summary
from workers.fbc.parse import meta_of

PKG = {"schema": "olm.package", "name": "etcd", "defaultChannel": "stable"}
BUNDLE_1 = {"schema": "olm.bundle", "package": "etcd", "name": "etcd.v1", "image": "q.io/etcd@sha256:1"}
BUNDLE_2 = {"schema": "olm.bundle", "package": "etcd", "name": "etcd.v2", "image": "q.io/etcd@sha256:2"}
NOTE = {"schema": "example.com/note", "package": "etcd", "text": "ignored"}


def channel(name: str, *entries: dict) -> dict:
    return {"schema": "olm.channel", "package": "etcd", "name": name, "entries": list(entries)}


STABLE = channel("stable", {"name": "etcd.v1"})
STABLE_2 = channel("stable", {"name": "etcd.v1"}, {"name": "etcd.v2", "replaces": "etcd.v1", "skipRange": "<2.0.0"})


def sketch(*documents: dict) -> Sketch:
    builder, offset = SketchBuilder(), 0
    for number, document in enumerate(documents):
        meta = meta_of(document, f"#{number}")
        builder.add(meta.schema, meta.package, meta.name, meta.blob + b"\n", offset)
        offset += len(meta.blob) + 1
    return builder.sketch


def sections(old: Sketch | None, new: Sketch) -> dict[str, tuple]:
    diff = compare(old, new)
    return {schema: (s.added, s.removed, s.changed) for schema, s in diff.sections.items()}


def test_identical_versions_have_no_changes() -> None:
    version = sketch(PKG, STABLE, BUNDLE_1, NOTE)
    diff = compare(version, sketch(PKG, STABLE, BUNDLE_1))
    assert all(not (s.added or s.removed or s.changed) for s in diff.sections.values())
    assert (diff.entries_added, diff.entries_removed, diff.edges_added, diff.edges_removed) == ((), (), (), ())
    assert summary(diff) == "no changes to packages, channels or bundles"


def test_a_new_bundle_in_a_channel() -> None:
    diff = compare(sketch(PKG, STABLE, BUNDLE_1), sketch(PKG, STABLE_2, BUNDLE_1, BUNDLE_2))
    assert sections(sketch(PKG, STABLE, BUNDLE_1), sketch(PKG, STABLE_2, BUNDLE_1, BUNDLE_2)) == {
        "olm.package": ((), (), ()),
        "olm.channel": ((), (), (("etcd", "stable"),)),
        "olm.bundle": ((("etcd", "etcd.v2"),), (), ()),
    }
    assert diff.entries_added == (("etcd", "stable", "etcd.v2"),) and diff.entries_removed == ()
    assert diff.edges_added == (
        ("etcd", "stable", "etcd.v2", "replaces", "etcd.v1"),
        ("etcd", "stable", "etcd.v2", "skipRange", "<2.0.0"),
    )
    assert summary(diff) == "+1 bundle, 1 channel changed, upgrade edges +2/-0"


def test_removals_and_edge_changes_are_reported_both_ways() -> None:
    old = sketch(PKG, STABLE_2, BUNDLE_1, BUNDLE_2)
    rewired = channel("stable", {"name": "etcd.v1"}, {"name": "etcd.v2", "skips": ["etcd.v1", ""], "replaces": 3})
    diff = compare(old, sketch(PKG, rewired, BUNDLE_1))
    assert diff.sections["olm.bundle"].removed == (("etcd", "etcd.v2"),)
    assert diff.edges_added == (("etcd", "stable", "etcd.v2", "skips", "etcd.v1"),)
    assert diff.edges_removed == (
        ("etcd", "stable", "etcd.v2", "replaces", "etcd.v1"),
        ("etcd", "stable", "etcd.v2", "skipRange", "<2.0.0"),
    )
    assert summary(diff) == "-1 bundle, 1 channel changed, upgrade edges +1/-2"


def test_entries_without_edges_are_summarised_as_entries() -> None:
    diff = compare(sketch(STABLE), sketch(channel("stable", {"name": "etcd.v1"}, {"name": "etcd.v0"}, "junk")))
    assert diff.entries_added == (("etcd", "stable", "etcd.v0"),)
    assert summary(diff) == "1 channel changed, channel entries +1/-0"


def test_first_version_counts_everything_as_added() -> None:
    diff = compare(None, sketch(PKG, STABLE, BUNDLE_1, BUNDLE_2, NOTE))
    assert diff.initial and diff.sections["olm.bundle"].added == (("etcd", "etcd.v1"), ("etcd", "etcd.v2"))
    assert summary(diff) == "initial content: 1 package, 1 channel, 2 bundles"


def test_a_repeated_document_counts_once_and_changes_if_any_copy_does() -> None:
    twice = sketch(BUNDLE_1, BUNDLE_1)
    line_length = len(json.dumps(BUNDLE_1, separators=(",", ":"))) + 1
    assert twice.count("olm.bundle") == 1 and twice.span(("olm.bundle", "etcd", "etcd.v1")) == (0, line_length)
    other = {**BUNDLE_1, "image": "q.io/etcd@sha256:9"}
    assert compare(twice, sketch(BUNDLE_1, other)).sections["olm.bundle"].changed == (("etcd", "etcd.v1"),)
    assert compare(twice, sketch(BUNDLE_1)).sections["olm.bundle"].changed == (("etcd", "etcd.v1"),)


@pytest.mark.parametrize(
    ("old", "new", "fields"),
    [
        (BUNDLE_1, BUNDLE_1, ()),
        (BUNDLE_1, {**BUNDLE_1, "image": "x"}, ("image",)),
        (PKG, {**PKG, "icon": {"mediatype": "image/png"}, "defaultChannel": "fast"}, ("defaultChannel", "icon")),
        ({**PKG, "description": "d"}, PKG, ("description",)),
    ],
)
def test_changed_fields(old: dict, new: dict, fields: tuple[str, ...]) -> None:
    assert changed_fields(old, new) == fields


def test_json_shape_cuts_lists_and_keeps_counts() -> None:
    bundles = [{**BUNDLE_1, "name": f"etcd.v{n}"} for n in range(5)]
    diff = compare(sketch(PKG), sketch({**PKG, "defaultChannel": "fast"}, *bundles))
    diff = diff.with_fields({("olm.package", "", "etcd"): ("defaultChannel",)})
    document = as_dict(diff, limit=2)
    assert document["bundles"]["added"] == [
        {"package": "etcd", "name": "etcd.v0"},
        {"package": "etcd", "name": "etcd.v1"},
    ]
    assert document["bundles"]["counts"] == {"added": 5, "removed": 0, "changed": 0}
    assert document["packages"]["changed"] == [{"name": "etcd", "fields_changed": ["defaultChannel"]}]
    assert document["truncated"] is True and document["summary"] == "+5 bundles, 1 package changed"
    assert as_dict(diff, limit=5)["truncated"] is False
