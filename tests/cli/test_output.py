"""Rendering: tables, JSON and YAML of plain dicts."""

from __future__ import annotations

import json

import yaml

from cpctl.output import Column, condition, field, render, table

GATEWAY = {
    "name": "edge",
    "suspended": False,
    "labels": {"team": "blue"},
    "status": {"phase": "Running", "conditions": [{"type": "Ready", "status": "True"}], "route_address": None},
}
COLUMNS = (
    Column("NAME", field("name")),
    Column("PHASE", field("status.phase")),
    Column("READY", condition("Ready")),
    Column("ADDRESS", field("status.route_address")),
    Column("SUSPENDED", field("suspended")),
    Column("LABELS", field("labels")),
)


def test_table_aligns_columns_and_renders_cells() -> None:
    other = {"name": "a-much-longer-name", "suspended": True, "status": {"phase": "Failed", "conditions": []}}
    assert table([GATEWAY, other], COLUMNS).splitlines() == [
        "NAME                 PHASE     READY   ADDRESS   SUSPENDED   LABELS",
        "edge                 Running   True              false       team=blue",
        "a-much-longer-name   Failed                      true",
    ]


def test_missing_paths_are_empty_cells() -> None:
    assert field("status.release.revision")(GATEWAY) is None
    assert field("name.first")(GATEWAY) is None
    assert condition("Drifted")(GATEWAY) is None


def test_a_table_of_nothing_is_its_header() -> None:
    assert render([], "table", COLUMNS) == "NAME   PHASE   READY   ADDRESS   SUSPENDED   LABELS"


def test_json_and_yaml_keep_every_field_and_the_key_order() -> None:
    assert json.loads(render(GATEWAY, "json", COLUMNS)) == GATEWAY
    assert yaml.safe_load(render([GATEWAY], "yaml", COLUMNS)) == [GATEWAY]
    assert render(GATEWAY, "yaml", COLUMNS).splitlines()[0] == "name: edge"


def test_a_single_object_is_a_one_row_table() -> None:
    assert render(GATEWAY, "table", COLUMNS).splitlines()[1].startswith("edge   Running")
