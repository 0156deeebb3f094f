"""The tests' own wiring, checked over their source: a path of the repository comes from ``tests/paths.py``, a
wait from ``tests/waiting.py`` (a condition asked again, never a fixed sleep or a deadline loop of its own), and no
test judges elapsed time (that depends on the machine; a figure belongs in a benchmark under ``bench/``)."""

from __future__ import annotations

import ast
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest

from tests.paths import TESTS_DIR

Check = Callable[[ast.AST], list[int]]
CLOCKS = ("time.monotonic", "time.time", "time.perf_counter")
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


def is_clock(node: ast.AST) -> bool:
    return isinstance(node, ast.Call) and dotted(node.func) in CLOCKS


def reads_clock(tree: ast.AST) -> bool:
    return any(map(is_clock, ast.walk(tree)))


def deadline_loops(tree: ast.AST) -> list[int]:
    """``while`` loops that read the clock: a poll with a deadline of its own."""
    return [loop.lineno for loop in ast.walk(tree) if isinstance(loop, ast.While) and reads_clock(loop)]


def timed_asserts(tree: ast.AST) -> list[int]:
    """``assert`` statements that judge elapsed time: their test subtracts a clock reading, or names a variable
    assigned from one (``started = time.monotonic()`` ... ``assert time.monotonic() - started < 3``)."""
    clocked = {
        target.id
        for node in ast.walk(tree)
        if isinstance(node, (ast.Assign, ast.AnnAssign, ast.NamedExpr)) and node.value and reads_clock(node.value)
        for target in (node.targets if isinstance(node, ast.Assign) else [node.target])
        if isinstance(target, ast.Name)
    }
    return [
        check.lineno
        for check in ast.walk(tree)
        if isinstance(check, ast.Assert)
        and any(
            (
                isinstance(node, ast.BinOp)
                and isinstance(node.op, ast.Sub)
                and any(map(is_clock, (node.left, node.right)))
            )
            or (isinstance(node, ast.Name) and node.id in clocked)
            for node in ast.walk(check.test)
        )
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


def test_no_test_module_judges_elapsed_time() -> None:
    assert not findings(timed_asserts), "check the property the time stood for; a figure belongs in bench/"


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
        ("import time\nstarted = time.monotonic()\nrun()\nassert time.monotonic() - started < 3\n", timed_asserts),
        (
            "import time\nt0 = time.perf_counter()\nrun()\nelapsed = time.perf_counter() - t0\nassert elapsed < 1\n",
            timed_asserts,
        ),
        ("import time\nassert time.time() - stamp >= 0.3\n", timed_asserts),
        ("from pathlib import Path\nROOT = Path(__file__).parent\n", own_paths),
        ("HELM = ROOT / '.tools' / 'helm'\n", own_paths),
        ("TransactionTestCase._fixture_teardown = retrying\n", teardown_patches),
    ],
)
def test_each_check_finds_what_it_forbids(source: str, check: Check) -> None:
    assert check(ast.parse(source)) != []


@pytest.mark.parametrize("check", [sleeps, deadline_loops, timed_asserts, own_paths, teardown_patches])
def test_each_check_passes_a_plain_wait(check: Check) -> None:
    source = "from tests.waiting import wait_until\nwait_until(lambda: True, 'nothing')\n"
    assert check(ast.parse(source)) == []


def test_a_time_that_is_only_printed_is_not_judged() -> None:
    source = "import time\nstarted = time.monotonic()\nrun()\nprint(time.monotonic() - started)\nassert done\n"
    assert timed_asserts(ast.parse(source)) == []
