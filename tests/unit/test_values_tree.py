"""The one deep merge and the one values-path lookup (controlplane.values_tree)."""

from __future__ import annotations

from controlplane.values_tree import deep_merge, value_at


def test_maps_merge_key_by_key_and_the_overlay_wins() -> None:
    base = {"image": {"repository": "r", "tag": "1"}, "replicas": 1}
    assert deep_merge(base, {"image": {"tag": "2"}, "extra": True}) == {
        "image": {"repository": "r", "tag": "2"},
        "replicas": 1,
        "extra": True,
    }


def test_scalars_and_lists_are_replaced_whole_and_a_map_replaces_a_scalar() -> None:
    base = {"args": ["a", "b"], "server": "off", "tls": {"on": True}}
    assert deep_merge(base, {"args": ["c"], "server": {"on": True}, "tls": None}) == {
        "args": ["c"],
        "server": {"on": True},
        "tls": None,
    }


def test_the_merge_returns_a_new_dict_and_leaves_its_inputs_alone() -> None:
    base, over = {"a": {"b": 1}}, {"a": {"c": 2}}
    merged = deep_merge(base, over)
    merged["a"]["d"] = 3
    assert base == {"a": {"b": 1}} and over == {"a": {"c": 2}}


def test_value_at_reads_a_path_and_answers_none_for_a_missing_or_non_map_step() -> None:
    tree = {"server": {"tls": {"certSecretName": "s"}, "disableTls": False}, "list": [1]}
    assert value_at(tree, ("server", "tls", "certSecretName")) == "s"
    assert value_at(tree, ["server", "disableTls"]) is False
    assert value_at(tree, ("server", "missing", "deeper")) is None
    assert value_at(tree, ("list", "0")) is None
    assert value_at(tree, ()) == tree
    assert value_at(None, ("a",)) is None
