"""The bounded memo: remembered by key, least recently used dropped first, a None key never remembered."""

from __future__ import annotations

from workers.memo import Memo


def counting() -> tuple[list[str], object]:
    calls: list[str] = []

    def compute(value: str):
        def run() -> str:
            calls.append(value)
            return value.upper()

        return run

    return calls, compute


def test_a_key_is_computed_once_and_remembered() -> None:
    calls, compute = counting()
    memo: Memo[str] = Memo(4)
    assert memo.get("a", compute("a")) == "A"
    assert memo.get("a", compute("other")) == "A"
    assert calls == ["a"]
    assert memo.peek("a") == "A"
    assert memo.peek("b") is None


def test_the_least_recently_used_goes_first_when_full() -> None:
    calls, compute = counting()
    memo: Memo[str] = Memo(2)
    memo.get("a", compute("a"))
    memo.get("b", compute("b"))
    memo.get("a", compute("a"))  # a is now the newest
    memo.get("c", compute("c"))  # b goes
    assert len(memo) == 2
    assert memo.peek("b") is None and memo.peek("a") == "A" and memo.peek("c") == "C"
    memo.get("b", compute("b"))
    assert calls == ["a", "b", "c", "b"]


def test_a_none_key_is_computed_every_time() -> None:
    calls, compute = counting()
    memo: Memo[str] = Memo(2)
    memo.get(None, compute("x"))
    memo.get(None, compute("x"))
    assert calls == ["x", "x"]
    assert len(memo) == 0
    assert memo.peek(None) is None


def test_a_smaller_size_drops_the_oldest_at_once() -> None:
    _, compute = counting()
    memo: Memo[str] = Memo(3)
    for key in "abc":
        memo.get(key, compute(key))
    memo.resize(1)
    assert len(memo) == 1 and memo.peek("c") == "C" and memo.peek("a") is None
    memo.get("d", compute("d"))
    assert len(memo) == 1 and memo.peek("d") == "D"
