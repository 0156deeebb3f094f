"""Image reference parsing and condition bookkeeping (pure)."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest

from controlplane.conditions import find_condition, set_condition
from controlplane.imageref import InvalidImageRefError, parse_image_ref

DIGEST = "sha256:" + "d" * 64


@pytest.mark.parametrize(
    ("text", "registry", "repository", "tag", "digest"),
    [
        ("nginx", "", "nginx", None, None),
        ("library/nginx:1.27", "", "library/nginx", "1.27", None),
        (f"repo@{DIGEST}", "", "repo", None, DIGEST),
        (f"ghcr.io/o/r:v1@{DIGEST}", "ghcr.io", "o/r", "v1", DIGEST),
        ("localhost:5000/team/app:2", "localhost:5000", "team/app", "2", None),
        ("registry.example.com:5000/app", "registry.example.com:5000", "app", None, None),
        ("[::1]:5000/app:x", "[::1]:5000", "app", "x", None),
    ],
)
def test_parse_valid(text: str, registry: str, repository: str, tag: str | None, digest: str | None) -> None:
    ref = parse_image_ref(text)
    assert (ref.registry, ref.repository, ref.tag, ref.digest) == (registry, repository, tag, digest)
    assert str(ref) == text


@pytest.mark.parametrize(
    "text",
    [
        "",
        " nginx",
        "UPPER/app",
        "app:",
        "app@sha256:123",
        "../etc/passwd",
        "a/../b",
        "app:tag with space",
        "app:" + "t" * 129,
        "host:port:1/app",
        "a" * 513,
    ],
)
def test_parse_invalid(text: str) -> None:
    with pytest.raises(InvalidImageRefError):
        parse_image_ref(text)


def test_condition_transition_time_moves_only_on_status_change() -> None:
    t1, t2 = datetime(2026, 1, 1, tzinfo=UTC), datetime(2026, 1, 2, tzinfo=UTC)
    ready = {"type_": "Ready", "message": ""}
    conditions = set_condition([], **ready, status="False", reason="Progressing", generation=1, now=t1)
    conditions = set_condition(conditions, **ready, status="False", reason="Other", generation=2, now=t2)
    found = find_condition(conditions, "Ready")
    assert found["lastTransitionTime"] == t1.isoformat() and found["reason"] == "Other"
    assert found["observedGeneration"] == 2
    conditions = set_condition(conditions, **ready, status="True", reason="Ok", generation=2, now=t2)
    assert find_condition(conditions, "Ready")["lastTransitionTime"] == t2.isoformat()
    assert len(conditions) == 1 and find_condition(conditions, "Stalled") is None
