"""The shape of a regular expression, read from its parse tree: whether a repetition can split its input into
iterations in more than one way, which is what makes a backtracking matcher take exponential time on a near miss.

A heuristic, not a proof: a repeated group holding a repetition of its own is ambiguous when one iteration can
end with a character the next can begin with (``(?:[a-z]+\\.?)+``), or when an iteration can match nothing.
``[a-z]+(?:\\.[a-z]+)*`` passes: every iteration begins with the dot, which none ends with."""

from __future__ import annotations

import re
from re import _constants as sre  # type: ignore[attr-defined]
from re import _parser  # type: ignore[attr-defined]
from typing import Any

Items = list[Any]  # a parsed sequence: (opcode, argument) pairs

ASCII = frozenset(chr(code) for code in range(128))
CATEGORIES = {
    sre.CATEGORY_DIGIT: r"\d",
    sre.CATEGORY_NOT_DIGIT: r"\D",
    sre.CATEGORY_WORD: r"\w",
    sre.CATEGORY_NOT_WORD: r"\W",
    sre.CATEGORY_SPACE: r"\s",
    sre.CATEGORY_NOT_SPACE: r"\S",
}
REPEATS = (sre.MAX_REPEAT, sre.MIN_REPEAT, sre.POSSESSIVE_REPEAT)
ZERO_WIDTH = (sre.AT, sre.ASSERT, sre.ASSERT_NOT)


def _one_char(op: Any, arg: Any) -> frozenset[str]:
    if op == sre.LITERAL:
        return frozenset({chr(arg)})
    if op == sre.NOT_LITERAL:
        return ASCII - {chr(arg)}
    if op == sre.ANY:
        return ASCII
    chars: set[str] = set()
    for kind, value in arg:  # IN
        if kind == sre.LITERAL:
            chars.add(chr(value))
        elif kind == sre.RANGE:
            chars.update(chr(code) for code in range(value[0], min(value[1], 127) + 1))
        elif kind == sre.CATEGORY:
            chars.update(c for c in ASCII if re.fullmatch(CATEGORIES[value], c, re.ASCII))
    return ASCII - chars if arg and arg[0][0] == sre.NEGATE else frozenset(chars)


def _ends(items: Items, from_start: bool) -> tuple[frozenset[str], bool]:
    """The characters a sequence can begin (or end) with, and whether it can match nothing."""
    chars: frozenset[str] = frozenset()
    for op, arg in items if from_start else reversed(items):
        if op in ZERO_WIDTH:
            continue
        if op == sre.SUBPATTERN:
            found, empty = _ends(list(arg[-1]), from_start)
        elif op == sre.BRANCH:
            ends = [_ends(list(branch), from_start) for branch in arg[1]]
            found, empty = frozenset().union(*(end[0] for end in ends)), any(end[1] for end in ends)
        elif op in REPEATS:
            found, empty = _ends(list(arg[2]), from_start)
            empty = empty or arg[0] == 0
        else:
            found, empty = _one_char(op, arg), False
        chars |= found
        if not empty:
            return chars, False
    return chars, True


def _inner(op: Any, arg: Any) -> list[Items]:
    """The sequences nested in one item of a parse tree."""
    if op in REPEATS:
        return [list(arg[2])]
    if op == sre.SUBPATTERN:
        return [list(arg[-1])]
    if op == sre.BRANCH:
        return [list(branch) for branch in arg[1]]
    if op in (sre.ASSERT, sre.ASSERT_NOT):
        return [list(arg[1])]
    return []


def _holds_repeat(items: Items) -> bool:
    return any(op in REPEATS or any(_holds_repeat(inner) for inner in _inner(op, arg)) for op, arg in items)


def ambiguous_repeats(pattern: str) -> list[str]:
    """The repeated groups of `pattern` that can split an input more than one way (each as its parsed body)."""
    found: list[str] = []

    def walk(items: Items) -> None:
        for op, arg in items:
            if op in REPEATS and arg[1] > 1:
                body = list(arg[2])
                first, empty = _ends(body, from_start=True)
                last, _ = _ends(body, from_start=False)
                if _holds_repeat(body) and (empty or first & last):
                    found.append(str(body))
            for inner in _inner(op, arg):
                walk(inner)

    walk(list(_parser.parse(pattern)))
    return found
