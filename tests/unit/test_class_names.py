"""No two classes of the reconcilers and their layers share a name, so a name says which one it is."""

from __future__ import annotations

import ast
from collections import defaultdict
from pathlib import Path

import pytest

from tests.paths import PROJECT_ROOT

LAYERS = ("cluster_vocabulary", "controlplane", "gateways", "catalogs", "rollouts", "notifications", "workers")
# Django finds a management command by this name in its own module.
DJANGO_NAMES = frozenset({"Command"})
# Each kind's vocabulary, in its own states module, names its condition types and reasons as Kubernetes does.
PER_KIND = frozenset({"ConditionType", "Reason"})


def module_classes(source: str) -> list[tuple[str, int]]:
    """The module-level classes of ``source`` (a class nested in a class, such as Django's ``Meta``, is named by its
    outer class; a class inside a function is local)."""
    return [(node.name, node.lineno) for node in ast.parse(source).body if isinstance(node, ast.ClassDef)]


def shared_names(sources: dict[str, str]) -> dict[str, list[str]]:
    """Each class name defined in more than one place, with those places (``path:line``)."""
    places: dict[str, list[str]] = defaultdict(list)
    for path, source in sources.items():
        for name, line in module_classes(source):
            if name in DJANGO_NAMES or (name in PER_KIND and Path(path).name == "states.py"):
                continue
            places[name].append(f"{path}:{line}")
    return {name: where for name, where in sorted(places.items()) if len(where) > 1}


def test_no_two_classes_share_a_name() -> None:
    sources = {
        path.relative_to(PROJECT_ROOT).as_posix(): path.read_text()
        for top in LAYERS
        for path in sorted((PROJECT_ROOT / top).rglob("*.py"))
        if "migrations" not in path.parts
    }
    assert any(path.startswith("workers/reconcile/gateway/") for path in sources), "the scan must cover the reconciler"
    shared = shared_names(sources)
    assert not shared, "classes that share a name:\n" + "\n".join(f"{n}: {', '.join(w)}" for n, w in shared.items())


@pytest.mark.parametrize(
    ("sources", "expected"),
    [
        ({"a.py": "class Status: ...\n", "b.py": "class Status: ...\n"}, {"Status": ["a.py:1", "b.py:1"]}),
        ({"a.py": "class Status: ...\n", "b.py": "class HelmStatus: ...\n"}, {}),
        ({"a.py": "class A:\n    class Meta: ...\n", "b.py": "class B:\n    class Meta: ...\n"}, {}),
        ({"a.py": "def f():\n    class Local: ...\n", "b.py": "class Local: ...\n"}, {}),
        ({"a/commands/x.py": "class Command: ...\n", "a/commands/y.py": "class Command: ...\n"}, {}),
        ({"a/states.py": "class Reason: ...\n", "b/states.py": "class Reason: ...\n"}, {}),
        (
            {"a/loop.py": "class Reason: ...\n", "b/loop.py": "class Reason: ...\n"},
            {"Reason": ["a/loop.py:1", "b/loop.py:1"]},
        ),
    ],
)
def test_the_scan_names_a_shared_name_only(sources: dict[str, str], expected: dict[str, list[str]]) -> None:
    assert shared_names(sources) == expected
