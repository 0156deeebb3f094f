"""The tests' own wiring, checked over their source: a path of the repository comes from ``tests/paths.py``, and a
wait from ``tests/waiting.py`` (a condition asked again, never a fixed sleep or a deadline loop of its own)."""

from __future__ import annotations

import ast
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest

from tests.paths import TESTS_DIR

Check = Callable[[ast.AST], list[int]]
# The wiring itself, and this check (which names what it forbids).
WIRING = {TESTS_DIR / "paths.py", TESTS_DIR / "waiting.py", TESTS_DIR / "unit" / "test_test_wiring.py"}


def modules() -> Iterator[Path]:
    for path in sorted(TESTS_DIR.rglob("*.py")):
        if path not in WIRING:
            yield path


def dotted(node: ast.AST) -> str:
    """``time.sleep`` for the callee of ``time.sleep(1)``; "" for a callee that is not a plain name."""
    if isinstance(node, ast.Name):
        return node.id
    if isinstance(node, ast.Attribute) and (owner := dotted(node.value)):
        return f"{owner}.{node.attr}"
    return ""


def sleeps(tree: ast.AST) -> list[int]:
    return [
        node.lineno
        for node in ast.walk(tree)
        if isinstance(node, ast.Call) and dotted(node.func) in ("time.sleep", "asyncio.sleep", "sleep")
    ]


def deadline_loops(tree: ast.AST) -> list[int]:
    """``while`` loops that read the clock: a poll with a deadline of its own."""
    clocks = ("time.monotonic", "time.time", "time.perf_counter")
    return [
        loop.lineno
        for loop in ast.walk(tree)
        if isinstance(loop, ast.While)
        and any(isinstance(node, ast.Call) and dotted(node.func) in clocks for node in ast.walk(loop))
    ]


def own_paths(tree: ast.AST) -> list[int]:
    """Uses of ``__file__``, and the tools directory named by hand."""
    return [
        node.lineno
        for node in ast.walk(tree)
        if (isinstance(node, ast.Name) and node.id == "__file__")
        or (isinstance(node, ast.Constant) and node.value == ".tools")
    ]


def teardown_patches(tree: ast.AST) -> list[int]:
    """Any mention of Django's per-test flush, ``TransactionTestCase._fixture_teardown``: nothing patches it."""
    return [
        node.lineno for node in ast.walk(tree) if isinstance(node, ast.Attribute) and node.attr == "_fixture_teardown"
    ]


def findings(check: Check) -> dict[str, list[int]]:
    found = {}
    for path in modules():
        lines = check(ast.parse(path.read_text(), filename=str(path)))
        if lines:
            found[str(path.relative_to(TESTS_DIR.parent))] = lines
    return found


def test_no_test_module_sleeps_to_synchronise() -> None:
    found = findings(sleeps)
    assert not found, f"wait on a condition with tests.waiting.wait_until instead: {found}"


def test_no_test_module_polls_with_a_deadline_of_its_own() -> None:
    assert not findings(deadline_loops), "use tests.waiting.wait_until (or repeat_for, to watch a span of time)"


def test_no_test_module_locates_the_repository_itself() -> None:
    assert not findings(own_paths), "import the path from tests.paths"


def test_nothing_patches_djangos_flush() -> None:
    assert not findings(teardown_patches), "the live stack has a database of its own: nothing flushes it"


@pytest.mark.parametrize(
    ("source", "check"),
    [
        ("import time\ntime.sleep(1)\n", sleeps),
        ("from time import sleep\nsleep(0.5)\n", sleeps),
        ("import time\nwhile time.monotonic() < 3:\n    pass\n", deadline_loops),
        ("import time\nwhile True:\n    if time.time() > 3:\n        break\n", deadline_loops),
        ("from pathlib import Path\nROOT = Path(__file__).parent\n", own_paths),
        ("HELM = ROOT / '.tools' / 'helm'\n", own_paths),
        ("TransactionTestCase._fixture_teardown = retrying\n", teardown_patches),
    ],
)
def test_each_check_finds_what_it_forbids(source: str, check: Check) -> None:
    assert check(ast.parse(source)) != []


@pytest.mark.parametrize("check", [sleeps, deadline_loops, own_paths, teardown_patches])
def test_each_check_passes_a_plain_wait(check: Check) -> None:
    source = "from tests.waiting import wait_until\nwait_until(lambda: True, 'nothing')\n"
    assert check(ast.parse(source)) == []
