"""`--smoke`: the size at which CI runs a benchmark (tests/bench), so that none can break unnoticed."""

from __future__ import annotations

import argparse
from typing import Any

__all__ = ["parse_with_smoke"]


def parse_with_smoke(parser: argparse.ArgumentParser, smoke: dict[str, Any]) -> argparse.Namespace:
    """Parse the arguments; with ``--smoke``, the options named in ``smoke`` take those values."""
    parser.add_argument(
        "--smoke",
        action="store_true",
        help="the size CI runs: " + ", ".join(f"--{k.replace('_', '-')} {v}" for k, v in smoke.items()),
    )
    args = parser.parse_args()
    if args.smoke:
        vars(args).update(smoke)
    return args
