"""FBC parsing, JSONL writing and the metas index (pure)."""

from __future__ import annotations

import gzip
import json
import sys
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from catalogs.content.index import CatalogIndex, parse_index
from tests.fixtures.registry import expected_lines
from tests.paths import FBC_DIR
from workers.fbc.jsonl import write_catalog
from workers.fbc.parse import CONFIGS_LABEL, FBCError, find_configs_dir, iter_metas, meta_of


def write_tree(root: Path, files: dict[str, str]) -> Path:
    for name, text in files.items():
        path = root / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text)
    return root


def jsonl_of(directory: Path, tmp_path: Path) -> tuple[bytes, Path]:
    out = tmp_path / "out"
    out.mkdir(exist_ok=True)
    write_catalog(iter_metas(directory, directory), out / "all.jsonl", out / "all.jsonl.gz", out / "index.json")
    return (out / "all.jsonl").read_bytes(), out


def test_fixture_catalog_gives_the_expected_lines_in_file_order(tmp_path: Path) -> None:
    body, out = jsonl_of(FBC_DIR / "v1", tmp_path)
    assert body == expected_lines("v1")
    assert gzip.decompress((out / "all.jsonl.gz").read_bytes()) == body


@pytest.mark.parametrize(
    ("files", "message"),
    [
        ({"a.json": '{"name": "x"}'}, "needs a non-empty string 'schema'"),
        ({"a.json": '{"schema": ""}'}, "needs a non-empty string 'schema'"),
        ({"a.yaml": "- just\n- a list\n"}, "must be a mapping"),
        ({"a.json": '{"schema": "olm.bundle", "name": "b"}'}, "needs a non-empty string 'package'"),
        ({"a.json": '{"schema": "olm.package"}'}, "needs a non-empty string 'name'"),
        ({"a.json": '{"schema": "x"} {broken'}, "not valid JSON"),
        ({"a.yaml": "schema: [unclosed"}, "not valid YAML"),
        ({"a.yaml": "schema: x\nv: !!binary aGVsbG8=\n"}, "JSON cannot hold"),
        ({"a.json": '{"schema": "x", "v": ' + "[" * 100_000 + "]" * 100_000 + "}"}, "nests too deeply"),
        ({"README.md": "# hello"}, "holds no FBC documents"),
        ({}, "holds no FBC documents"),
    ],
)
def test_invalid_catalogs_are_rejected(tmp_path: Path, files: dict[str, str], message: str) -> None:
    root = write_tree(tmp_path / "cfg", files)
    root.mkdir(exist_ok=True)
    with pytest.raises(FBCError, match=message):
        list(iter_metas(root, root))


def test_yaml_multidoc_keeps_dates_as_text_and_json_concatenation(tmp_path: Path) -> None:
    root = write_tree(
        tmp_path / "cfg",
        {
            "a/x.yaml": "---\nschema: s\ncreated: 2020-01-02\n---\n---\nschema: t\nname: n\n",
            "b.json": '{"schema": "u"}\n\n{"schema": "v", "package": "p"}',
            ".hidden.json": '{"nope": 1}',
        },
    )
    metas = list(iter_metas(root, root))
    assert [m.blob for m in metas] == [
        b'{"schema":"s","created":"2020-01-02"}',
        b'{"schema":"t","name":"n"}',
        b'{"schema":"u"}',
        b'{"schema":"v","package":"p"}',
    ]
    keys = [(m.schema, m.package, m.name) for m in metas]
    assert keys == [("s", "", ""), ("t", "", "n"), ("u", "", ""), ("v", "p", "")]


def test_non_string_keys_index_as_empty() -> None:
    meta = meta_of({"schema": "x", "package": 3, "name": ["n"]}, "f#1")
    assert (meta.package, meta.name) == ("", "")


@pytest.mark.parametrize(
    ("labels", "message"),
    [
        ({}, "has no"),
        ({CONFIGS_LABEL: "/missing"}, "does not name a directory"),
        ({CONFIGS_LABEL: "/../.."}, "does not name a directory"),
    ],
)
def test_configs_label(tmp_path: Path, labels: dict[str, str], message: str) -> None:
    with pytest.raises(FBCError, match=message):
        find_configs_dir(tmp_path, labels)


def test_configs_label_found(tmp_path: Path) -> None:
    (tmp_path / "configs").mkdir()
    assert find_configs_dir(tmp_path, {CONFIGS_LABEL: "/configs"}) == tmp_path / "configs"


@pytest.mark.parametrize(
    ("filters", "expected_numbers"),
    [
        ({}, [0, 1, 2, 3, 4, 5, 6]),
        ({"package": "etcd"}, [1, 2, 3]),
        ({"schema": "olm.package"}, [0, 4]),
        ({"schema": "olm.bundle", "package": "prometheus"}, [6]),
        ({"schema": "olm.bundle", "package": "etcd", "name": "etcd.v0.9.4"}, [2]),
        ({"schema": "olm.package", "package": "etcd"}, []),
        ({"name": "nope"}, []),
        ({"package": ""}, [0, 4]),
    ],
)
def test_index_spans_match_filters_and_merge_neighbours(tmp_path: Path, filters: dict, expected_numbers: list) -> None:
    body, out = jsonl_of(FBC_DIR / "v1", tmp_path)
    lines = body.splitlines(keepends=True)
    spans = parse_index((out / "index.json").read_bytes()).spans(filters)
    assert b"".join(body[o : o + n] for o, n in spans) == b"".join(lines[i] for i in expected_numbers)
    if expected_numbers == list(range(len(lines))):
        assert spans == [(0, len(body))]


def test_index_format_round_trip() -> None:
    index = CatalogIndex.from_entries([[0, 5, "s", "p", "a"], [5, 3, "s", "q", "b"]])
    assert index.spans({"schema": "s"}) == [(0, 8)]
    assert index.spans({"package": "q"}) == [(5, 3)]


_JSON_VALUES = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False, allow_infinity=False) | st.text(),
    lambda children: st.lists(children, max_size=4) | st.dictionaries(st.text(max_size=8), children, max_size=4),
    max_leaves=12,
)


def standard_blob(document: object) -> bytes:
    return json.dumps(document, separators=(",", ":"), ensure_ascii=False, allow_nan=False).encode()


@settings(max_examples=120, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(body=st.dictionaries(st.text(max_size=8), _JSON_VALUES, max_size=5), indent=st.sampled_from([None, 1]))
def test_blobs_are_what_the_standard_encoder_writes(tmp_path: Path, body: dict, indent: int | None) -> None:
    """Whichever encoder a document goes through, its line is json.dumps's compact form, byte for byte."""
    document = {**body, "schema": "s"}
    try:
        expected = standard_blob(document)
    except UnicodeEncodeError:  # a lone surrogate: rejected either way
        return
    root = write_tree(
        tmp_path / f"cfg{abs(hash(json.dumps(document)))}",
        {
            "a.json": json.dumps(document, indent=indent),
            "b.json": json.dumps(document, ensure_ascii=False),
        },
    )
    assert [meta.blob for meta in iter_metas(root, root)] == [expected, expected]


@pytest.mark.parametrize(
    "text",
    [
        '{"schema": "s", "f": 1e16, "g": 1E-7, "h": 1.0, "i": -0.0}',
        '{"schema": "s", "big": 18446744073709551616, "neg": -9223372036854775809, "u64": 18446744073709551615}',
        '{"schema": "s", "c": "\\u0000\\u001f\\u007f\\u2028\\ud83d\\ude00\\"\\\\\\/"}',
    ],
)
def test_floats_big_integers_and_escapes_keep_the_standard_form(tmp_path: Path, text: str) -> None:
    root = write_tree(tmp_path / "cfg", {"a.json": text})
    (meta,) = iter_metas(root, root)
    assert meta.blob == standard_blob(json.loads(text))


@pytest.mark.parametrize(
    "text", ['{"schema": "s", "n": NaN}', '{"schema": "s", "n": -Infinity}', '{"schema": "s", "x": "\\ud800"}']
)
def test_values_json_cannot_hold_are_rejected(tmp_path: Path, text: str) -> None:
    root = write_tree(tmp_path / "cfg", {"a.json": text})
    with pytest.raises(FBCError, match="JSON cannot hold"):
        list(iter_metas(root, root))


def test_a_document_too_deep_to_encode_is_rejected() -> None:
    document = inner = {"schema": "x"}
    for _ in range(sys.getrecursionlimit() + 50):  # as a YAML document may decode
        inner["v"] = {}
        inner = inner["v"]
    with pytest.raises(FBCError, match="here: the document nests too deeply"):
        meta_of(document, "here")
