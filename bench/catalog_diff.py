"""Catalog diff benchmark: our streamed sketch diff against parsing both versions whole and comparing documents.

Run: ``.venv/bin/python bench/catalog_diff.py [--packages 500 --bundles-per-package 40]``. Writes two versions of
a synthetic catalog (the second: one package removed, a bundle added to each of 50 packages' channel, 100 bundle
images changed) into a temporary directory store, then times each way (best of ``--repeat``) and measures its peak
of Python allocations (tracemalloc, in a separate run). Both must find the same changes.
"""

from __future__ import annotations

import argparse
import json
import random
import sys
import tempfile
import time
import tracemalloc
from collections.abc import Callable, Iterator
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from bench.smoke import parse_with_smoke  # noqa: E402
from catalogs.diff import KINDS  # noqa: E402
from catalogs.store import ALL_FILE, ALL_GZ_FILE, INDEX_FILE  # noqa: E402
from catalogs.store.fs import FilesystemStore  # noqa: E402
from catalogs.stored_diff import diff_entries  # noqa: E402
from workers.fbc.jsonl import write_catalog  # noqa: E402
from workers.fbc.parse import meta_of  # noqa: E402

DESCRIPTION_WORDS = ("deploy", "manage", "scale", "observe", "operate", "upgrade", "backup", "restore")


def documents(packages: int, per_package: int, *, second: bool) -> Iterator[dict]:
    """One version of the catalog; ``second`` applies the changes described above."""
    rng = random.Random(7)
    for number in range(packages):
        package = f"operator-{number:04d}"
        names = [f"{package}.v1.{n}.0" for n in range(per_package + (1 if second and number % 10 == 1 else 0))]
        description = " ".join(rng.choice(DESCRIPTION_WORDS) for _ in range(320))
        if second and number == 0:
            continue
        yield {"schema": "olm.package", "name": package, "defaultChannel": "stable"}
        yield {
            "schema": "olm.channel",
            "package": package,
            "name": "stable",
            "entries": [{"name": name, **({"replaces": names[i - 1]} if i else {})} for i, name in enumerate(names)],
        }
        for index, name in enumerate(names):
            image = f"quay.io/bench/{package}@sha256:{index:064x}"
            if second and number % 5 == 2 and index == 0:
                image = image.replace("quay.io", "registry.example.com")
            yield {
                "schema": "olm.bundle",
                "package": package,
                "name": name,
                "image": image,
                "properties": [
                    {"type": "olm.package", "value": {"packageName": package, "version": name[-6:]}},
                    {"type": "olm.csv.metadata", "value": {"description": description}},
                ],
            }


def write_version(store: FilesystemStore, docs: Iterator[dict]) -> str:
    with store.staging_dir() as staged:
        written = write_catalog(
            (meta_of(d, "bench") for d in docs),
            staged / ALL_FILE,
            staged / ALL_GZ_FILE,
            staged / INDEX_FILE,
        )
        store.write_entry(staged, written.digest)
    return written.digest


def naive_diff(store: FilesystemStore, old: str, new: str) -> dict[str, tuple[int, int, int]]:
    """The baseline: both versions parsed whole into dicts, then compared document by document."""

    def load(digest: str) -> dict[tuple, dict]:
        parsed = {}
        with (store.content_dir(digest) / ALL_FILE).open("rb") as handle:
            for line in handle:
                doc = json.loads(line)
                if doc["schema"] in KINDS:
                    parsed[(doc["schema"], doc.get("package", ""), doc.get("name", ""))] = doc
        return parsed

    before, after = load(old), load(new)
    counts = {}
    for schema in KINDS:
        old_keys = {k for k in before if k[0] == schema}
        new_keys = {k for k in after if k[0] == schema}
        changed = sum(1 for k in old_keys & new_keys if before[k] != after[k])
        counts[schema] = (len(new_keys - old_keys), len(old_keys - new_keys), changed)
    return counts


def ours(store: FilesystemStore, old: str, new: str) -> dict[str, tuple[int, int, int]]:
    diff = diff_entries(store, old, new, detail_limit=1000)
    return {schema: (len(s.added), len(s.removed), len(s.changed)) for schema, s in diff.sections.items()}


def measure(action: Callable[[], object], repeat: int) -> tuple[float, float]:
    """(best seconds, peak MiB of Python allocations)."""
    best = min(_timed(action) for _ in range(repeat))
    tracemalloc.start()
    action()
    _, peak = tracemalloc.get_traced_memory()
    tracemalloc.stop()
    return best, peak / 2**20


def _timed(action: Callable[[], object]) -> float:
    started = time.perf_counter()
    action()
    return time.perf_counter() - started


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--packages", type=int, default=500)
    parser.add_argument("--bundles-per-package", type=int, default=40)
    parser.add_argument("--repeat", type=int, default=3)
    args = parse_with_smoke(parser, {"packages": 20, "bundles_per_package": 5, "repeat": 1})
    with tempfile.TemporaryDirectory(prefix="bench-diff-") as root:
        store = FilesystemStore(Path(root))
        old = write_version(store, documents(args.packages, args.bundles_per_package, second=False))
        new = write_version(store, documents(args.packages, args.bundles_per_package, second=True))
        size = (store.content_dir(new) / ALL_FILE).stat().st_size
        bundles = args.packages * args.bundles_per_package
        print(f"catalog: {bundles} bundles, {size / 2**20:.1f} MiB of JSONL per version")
        found = ours(store, old, new)
        assert found == naive_diff(store, old, new), "the two ways disagree"
        print(f"changes found: {found}")
        figures = {
            "streamed sketch diff (ours)": measure(lambda: ours(store, old, new), args.repeat),
            "parse both, compare documents": measure(lambda: naive_diff(store, old, new), args.repeat),
        }
        for label, (seconds, peak) in figures.items():
            print(f"{label:32s} {seconds:6.2f} s   peak {peak:7.1f} MiB of Python allocations")
        (ours_s, ours_m), (base_s, base_m) = figures.values()
        print(f"ratio: {base_s / ours_s:.1f}x faster, {base_m / ours_m:.1f}x less memory")


if __name__ == "__main__":
    main()
