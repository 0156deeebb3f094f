"""Approvals of a wave's plan (pure): the plan hash, what voids an approval, and who may approve."""

from __future__ import annotations

import copy
from typing import Any

import pytest

from rollouts.approval import Inputs, Refusal, changes, entry, plan_changes, plan_hash, refusal

PLAN_A: dict[str, Any] = {
    "action": "upgrade",
    "reasons": ["The deployed release's values differ"],
    "namespace": "gw-a",
    "release": {"name": "a", "revision": 1},
    "values_diff": [{"path": "image.tag", "change": "changed", "before": "1.0.0", "after": "2.0.0"}],
    "objects": [
        {
            "api_version": "apps/v1",
            "kind": "Deployment",
            "namespace": "gw-a",
            "name": "a",
            "change": "changed",
            "fields": [
                {
                    "path": "spec.template.spec.containers[0].image",
                    "change": "changed",
                    "before": "gw:1.0.0",
                    "after": "gw:2.0.0",
                }
            ],
            "diff": "-gw:1.0.0\n+gw:2.0.0\n",
        }
    ],
}
PLAN_B: dict[str, Any] = {
    "action": "upgrade",
    "values_diff": [],
    "reasons": [],
    "objects": [
        {
            "api_version": "v1",
            "kind": "Secret",
            "namespace": "gw-b",
            "name": "key",
            "change": "changed",
            "fields": [
                {
                    "path": "data.key",
                    "change": "changed",
                    "before": "[REDACTED:0123456789ab]",
                    "after": "[REDACTED:ba9876543210]",
                }
            ],
            "diff": "-key: [REDACTED:0123456789ab]\n",
        }
    ],
}
PLANS = {"gw-a-id": PLAN_A, "gw-b-id": PLAN_B}
NAMES = {"gw-a-id": "a", "gw-b-id": "b"}


def test_the_hash_is_a_sha256_and_stable_under_reordering() -> None:
    reordered = {"gw-b-id": copy.deepcopy(PLAN_B), "gw-a-id": dict(reversed(list(PLAN_A.items())))}
    assert plan_hash(PLANS) == plan_hash(reordered)
    assert len(plan_hash(PLANS)) == 64 and int(plan_hash(PLANS), 16) >= 0


def test_the_hash_covers_only_action_values_diff_and_objects() -> None:
    other = copy.deepcopy(PLANS)
    other["gw-a-id"]["reasons"] = ["something else"]
    other["gw-a-id"]["release"] = {"name": "a", "revision": 2}
    assert plan_hash(other) == plan_hash(PLANS)


def test_redaction_markers_do_not_change_the_hash() -> None:
    """Markers are keyed per plan, and a chart may generate a Secret's data: the hash binds what can be read."""
    other = copy.deepcopy(PLANS)
    field = other["gw-b-id"]["objects"][0]["fields"][0]
    field["before"], field["after"] = "[REDACTED:aaaaaaaaaaaa]", "[REDACTED:bbbbbbbbbbbb]"
    other["gw-b-id"]["objects"][0]["diff"] = "-key: [REDACTED:cccccccccccc]\n"
    assert plan_hash(other) == plan_hash(PLANS)
    assert entry("gw-b-id", other["gw-b-id"]) == entry("gw-b-id", PLAN_B)


def _set(plans: dict[str, Any], path: tuple[Any, ...], value: Any) -> None:
    node = plans
    for key in path[:-1]:
        node = node[key]
    node[path[-1]] = value


@pytest.mark.parametrize(
    ("path", "value"),
    [
        (("gw-a-id", "action"), "install"),
        (("gw-a-id", "values_diff", 0, "after"), "2.0.1"),
        (("gw-a-id", "values_diff", 0, "path"), "image.repository"),
        (("gw-a-id", "objects", 0, "fields", 0, "after"), "gw:2.0.1"),
        (("gw-a-id", "objects", 0, "name"), "b"),
        (("gw-a-id", "objects", 0, "diff"), "+gw:2.0.1\n"),
        (("gw-b-id", "objects", 0, "fields", 0, "path"), "data.other"),
        (("gw-b-id", "values_diff"), [{"path": "x", "change": "added", "before": None, "after": 1}]),
    ],
)
def test_the_hash_changes_with_each_input(path, value) -> None:
    other = copy.deepcopy(PLANS)
    _set(other, path, value)
    assert plan_hash(other) != plan_hash(PLANS)
    assert plan_changes(PLANS, other, NAMES) == [f"the plan of {NAMES[path[0]]}"]


def test_the_hash_changes_with_the_set_of_gateways_and_their_ids() -> None:
    assert plan_hash({"gw-a-id": PLAN_A}) != plan_hash(PLANS)
    assert plan_hash({"gw-c-id": PLAN_A, "gw-b-id": PLAN_B}) != plan_hash(PLANS)


INPUTS = Inputs(
    release="r1",
    specs={"1": "s1", "2": "s2"},
    names={"1": "edge", "2": "core"},
    clusters={"1": "east", "2": "west"},
    api_versions={"east": "e1", "west": "w1"},
)


@pytest.mark.parametrize(
    ("current", "expected"),
    [
        (INPUTS, []),
        (Inputs.from_dict({**INPUTS.as_dict(), "release": "r2"}), ["the target release"]),
        (Inputs.from_dict({**INPUTS.as_dict(), "specs": {"1": "s1", "2": "changed"}}), ["the spec of core"]),
        (
            Inputs.from_dict({**INPUTS.as_dict(), "api_versions": {"east": "e2", "west": "w1"}}),
            ["the API versions of cluster east"],
        ),
        (INPUTS.without({"2"}), ["the targets (core left)"]),
        (
            Inputs.from_dict(
                {**INPUTS.as_dict(), "specs": {**INPUTS.specs, "3": "s3"}, "names": {**INPUTS.names, "3": "new"}}
            ),
            ["the targets (new joined)"],
        ),
    ],
)
def test_changes_name_what_fed_the_plan_and_changed(current, expected) -> None:
    assert changes(INPUTS, current) == expected


def test_inputs_without_started_targets_keep_the_rest_and_round_trip() -> None:
    rest = INPUTS.without({"1"})
    assert rest.specs == {"2": "s2"} and rest.api_versions == {"west": "w1"}
    assert Inputs.from_dict(INPUTS.as_dict()) == INPUTS
    assert changes(rest, INPUTS.without({"1"})) == []


@pytest.mark.parametrize(
    ("awaiting", "given", "approver", "allow_self", "expected"),
    [
        ("h1", "h1", "other", False, None),
        ("h1", "h1", "creator", False, Refusal.SELF_APPROVAL),
        ("h1", "stale", "creator", False, Refusal.SELF_APPROVAL),  # four eyes first
        ("h1", "h1", "creator", True, None),
        ("h1", "stale", "other", False, Refusal.STALE_HASH),
        ("h1", "stale", "creator", True, Refusal.STALE_HASH),
        (None, "h1", "other", False, Refusal.NOT_AWAITING),
    ],
)
def test_who_may_approve_which_hash(awaiting, given, approver, allow_self, expected) -> None:
    assert (
        refusal(
            awaiting_hash=awaiting, given_hash=given, approver_id=approver, creator_id="creator", allow_self=allow_self
        )
        is expected
    )
