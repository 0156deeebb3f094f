"""OpenShift's per-namespace UID blocks and SELinux MCS levels (pure functions).

As OpenShift's namespace-security-allocation controller (cluster-policy-controller) does: UIDs are handed
out in blocks of 10000 from 1000000000 (the default `1000000000-1999999999/10000` range), the lowest free
block first (a contiguous allocation map), and each block's MCS level is the level at offset
`block index * 5` of the range `s0:/2` (1024 categories, two per label), by the co-lex unranking of
openshift/origin pkg/security/mcs/label.go. The annotation formats follow securityv1 and
apiserver-library-go's uid.ParseBlock (`start/size` or `start-end`).
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass

__all__ = [
    "MCS_ANNOTATION",
    "SUPPLEMENTAL_GROUPS_ANNOTATION",
    "UID_RANGE_ANNOTATION",
    "Block",
    "allocate",
    "mcs_level",
    "parse_block",
    "parse_blocks",
]

UID_RANGE_ANNOTATION = "openshift.io/sa.scc.uid-range"
SUPPLEMENTAL_GROUPS_ANNOTATION = "openshift.io/sa.scc.supplemental-groups"
MCS_ANNOTATION = "openshift.io/sa.scc.mcs"

FIRST_UID = 1_000_000_000
LAST_UID = 1_999_999_999
BLOCK_SIZE = 10_000
MCS_CATEGORIES = 1024
MCS_LABELS_PER_PROJECT = 5

_SLASH = re.compile(r"^(\d+)/(\d+)$")
_DASH = re.compile(r"^(\d+)-(\d+)$")


@dataclass(frozen=True)
class Block:
    """An inclusive range of IDs."""

    start: int
    end: int

    def __str__(self) -> str:
        return f"{self.start}/{self.end - self.start + 1}"


def parse_block(text: str) -> Block:
    """`1000680000/10000` or `1000680000-1000689999`; ValueError otherwise."""
    text = text.strip()
    if match := _SLASH.match(text):
        start, size = int(match.group(1)), int(match.group(2))
        if size < 1:
            raise ValueError(f"block size must be a positive integer: {text}")
        return Block(start, start + size - 1)
    if match := _DASH.match(text):
        start, end = int(match.group(1)), int(match.group(2))
        if end < start:
            raise ValueError(f"block end must not be before its start: {text}")
        return Block(start, end)
    raise ValueError(f'block not in the format "<start>/<size>" or "<start>-<end>": {text}')


def parse_blocks(text: str) -> list[Block]:
    """A comma-separated list of blocks (the supplemental-groups annotation)."""
    return [parse_block(segment) for segment in text.split(",")]


def allocate(used: Iterable[str]) -> Block:
    """The lowest free block, given the uid-range annotations namespaces already hold."""
    taken = set()
    for text in used:
        try:
            block = parse_block(text)
        except ValueError:
            continue
        if block.start >= FIRST_UID and (block.start - FIRST_UID) % BLOCK_SIZE == 0:
            taken.add((block.start - FIRST_UID) // BLOCK_SIZE)
    index = next(i for i in range(len(taken) + 1) if i not in taken)
    start = FIRST_UID + index * BLOCK_SIZE
    if start + BLOCK_SIZE - 1 > LAST_UID:
        raise ValueError("the UID range is exhausted")
    return Block(start, start + BLOCK_SIZE - 1)


def _binomial(n: int, k: int) -> int:
    if n < k:
        return 0
    result = 1
    for d in range(1, k + 1):
        result = result * n // d
        n -= 1
    return result


def mcs_level(block: Block) -> str:
    """The MCS level OpenShift pairs with a UID block, e.g. `s0:c26,c15` for 1000680000/10000."""
    offset = (block.start - FIRST_UID) // BLOCK_SIZE * MCS_LABELS_PER_PROJECT
    n, k, categories = MCS_CATEGORIES, 2, []
    for i in range(k):
        current = _binomial(n, k - i)
        while current > offset:
            n -= 1
            current = _binomial(n, k - i)
        categories.append(n)
        offset -= current
    return "s0:" + ",".join(f"c{c}" for c in sorted(categories, reverse=True))
