"""Compare two versions of a catalog (pure: no Django, no I/O).

Each version is reduced, one JSONL line at a time, to a ``Sketch``: a sha256 fingerprint and the
line's place for every package, channel and bundle document, plus the channel entries and upgrade
edges (``replaces``, ``skips``, ``skipRange``) as sets. Only channel lines are parsed; bundles,
the bulk of a catalog, are only hashed. Two sketches compare into a ``CatalogDiff``; which fields
of a changed document differ is filled in afterwards from the few lines concerned
(``changed_fields``). Documents of other schemas are not compared.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field, replace
from typing import Any

__all__ = [
    "EDGE_KINDS",
    "KINDS",
    "CatalogDiff",
    "DocKey",
    "Edge",
    "Entry",
    "Section",
    "Sketch",
    "SketchBuilder",
    "as_dict",
    "changed_fields",
    "compare",
    "summary",
]

PACKAGE, CHANNEL, BUNDLE = "olm.package", "olm.channel", "olm.bundle"
# The compared schemas, in report order, with their plural nouns.
KINDS = {PACKAGE: "packages", CHANNEL: "channels", BUNDLE: "bundles"}
EDGE_KINDS = ("replaces", "skips", "skipRange")

DocKey = tuple[str, str, str]  # (schema, package, name); a package's own document has package ""
Entry = tuple[str, str, str]  # (package, channel, bundle name)
Edge = tuple[str, str, str, str, str]  # (package, channel, entry, kind, target)


Located = tuple[bytes, int, int]  # (fingerprint, offset, length) of one document's line


def _by_kind() -> dict[str, dict[tuple[str, str], Located]]:
    return {schema: {} for schema in KINDS}


@dataclass
class Sketch:
    """What a comparison needs of one version, without holding its documents."""

    documents: dict[str, dict[tuple[str, str], Located]] = field(default_factory=_by_kind)  # schema -> (package, name)
    entries: set[Entry] = field(default_factory=set)
    edges: set[Edge] = field(default_factory=set)

    def count(self, schema: str) -> int:
        return len(self.documents[schema])

    def span(self, key: DocKey) -> tuple[int, int]:
        """Where the (first) line of a document is: (offset, length)."""
        schema, package, name = key
        _, offset, length = self.documents[schema][(package, name)]
        return offset, length


class SketchBuilder:
    """Feed every line of a version, in file order, then take ``sketch``."""

    def __init__(self) -> None:
        self.sketch = Sketch()

    def add(self, schema: str, package: str, name: str, line: bytes | memoryview, offset: int) -> None:
        """One JSONL line, with its newline, at ``offset``, under its index keys."""
        documents = self.sketch.documents.get(schema)
        if documents is None:
            return
        fingerprint = hashlib.sha256(line).digest()
        known = documents.get((package, name))
        if known is None:
            documents[(package, name)] = (fingerprint, offset, len(line))
        else:  # a repeated document: the version differs if any copy does
            documents[(package, name)] = (hashlib.sha256(known[0] + fingerprint).digest(), *known[1:])
        if schema == CHANNEL:
            self._add_entries(package, name, json.loads(bytes(line)).get("entries"))

    def _add_entries(self, package: str, channel: str, entries: Any) -> None:
        add_entry, add_edge = self.sketch.entries.add, self.sketch.edges.add
        for entry in entries if isinstance(entries, list) else ():
            name = entry.get("name") if isinstance(entry, dict) else None
            if not isinstance(name, str):
                continue
            add_entry((package, channel, name))
            for kind in EDGE_KINDS:
                value = entry.get(kind)
                if not value:
                    continue
                for target in (value,) if isinstance(value, str) else value if isinstance(value, list) else ():
                    if isinstance(target, str) and target:
                        add_edge((package, channel, name, kind, target))


@dataclass(frozen=True)
class Section:
    """Documents of one schema added, removed and changed, as sorted (package, name) pairs."""

    added: tuple[tuple[str, str], ...] = ()
    removed: tuple[tuple[str, str], ...] = ()
    changed: tuple[tuple[str, str], ...] = ()


@dataclass(frozen=True)
class CatalogDiff:
    """``initial`` when there was no previous version: everything counts as added."""

    sections: Mapping[str, Section]  # by schema, in KINDS order
    entries_added: tuple[Entry, ...] = ()
    entries_removed: tuple[Entry, ...] = ()
    edges_added: tuple[Edge, ...] = ()
    edges_removed: tuple[Edge, ...] = ()
    initial: bool = False
    fields: Mapping[DocKey, tuple[str, ...]] = field(default_factory=dict)  # of changed documents, when known

    def changed_keys(self) -> list[DocKey]:
        return [(schema, *pair) for schema, section in self.sections.items() for pair in section.changed]

    def with_fields(self, fields: Mapping[DocKey, tuple[str, ...]]) -> CatalogDiff:
        return replace(self, fields=dict(fields))


def compare(old: Sketch | None, new: Sketch) -> CatalogDiff:
    """What changed from ``old`` (None: nothing before) to ``new``."""
    before = old or Sketch()
    sections = {}
    for schema in KINDS:
        was, now = before.documents[schema], new.documents[schema]
        changed = [key for key in was.keys() & now.keys() if was[key][0] != now[key][0]]
        sections[schema] = Section(
            added=tuple(sorted(now.keys() - was.keys())),
            removed=tuple(sorted(was.keys() - now.keys())),
            changed=tuple(sorted(changed)),
        )
    return CatalogDiff(
        sections=sections,
        entries_added=tuple(sorted(new.entries - before.entries)),
        entries_removed=tuple(sorted(before.entries - new.entries)),
        edges_added=tuple(sorted(new.edges - before.edges)),
        edges_removed=tuple(sorted(before.edges - new.edges)),
        initial=old is None,
    )


def changed_fields(old: Mapping[str, Any], new: Mapping[str, Any]) -> tuple[str, ...]:
    """The top-level fields whose values differ between two versions of one document, sorted."""
    return tuple(sorted(key for key in old.keys() | new.keys() if old.get(key) != new.get(key)))


def _counted(count: int, noun: str) -> str:
    return f"{count} {noun if count != 1 else noun[:-1]}"


def summary(diff: CatalogDiff) -> str:
    """One line: additions, removals, changes, then edges: ``+3 bundles, -1 package, 1 channel changed, ...``."""
    if diff.initial:
        counts = [_counted(len(section.added), KINDS[schema]) for schema, section in diff.sections.items()]
        return "initial content: " + ", ".join(counts)
    parts = []
    for attribute, template in (("added", "+{}"), ("removed", "-{}"), ("changed", "{} changed")):
        for schema, section in diff.sections.items():
            if count := len(getattr(section, attribute)):
                parts.append(template.format(_counted(count, KINDS[schema])))
    if diff.edges_added or diff.edges_removed:
        parts.append(f"upgrade edges +{len(diff.edges_added)}/-{len(diff.edges_removed)}")
    elif diff.entries_added or diff.entries_removed:
        parts.append(f"channel entries +{len(diff.entries_added)}/-{len(diff.entries_removed)}")
    return ", ".join(parts) or "no changes to packages, channels or bundles"


def as_dict(diff: CatalogDiff, limit: int) -> dict[str, Any]:
    """The diff as JSON, each list cut to its first ``limit`` items (``counts`` and ``truncated`` tell)."""
    truncated = False

    def cut(items: Iterable[Any]) -> list[Any]:
        nonlocal truncated
        items = list(items)
        truncated = truncated or len(items) > limit
        return items[:limit]

    document: dict[str, Any] = {"summary": summary(diff)}
    for schema, section in diff.sections.items():
        document[KINDS[schema]] = {
            "added": cut(_ref(schema, pair) for pair in section.added),
            "removed": cut(_ref(schema, pair) for pair in section.removed),
            "changed": cut(
                {**_ref(schema, pair), "fields_changed": list(diff.fields.get((schema, *pair), ()))}
                for pair in section.changed
            ),
            "counts": {"added": len(section.added), "removed": len(section.removed), "changed": len(section.changed)},
        }
    document["channel_entries"] = {
        "added": cut(_entry(entry) for entry in diff.entries_added),
        "removed": cut(_entry(entry) for entry in diff.entries_removed),
        "counts": {"added": len(diff.entries_added), "removed": len(diff.entries_removed)},
    }
    document["upgrade_edges"] = {
        "added": cut(_edge(edge) for edge in diff.edges_added),
        "removed": cut(_edge(edge) for edge in diff.edges_removed),
        "counts": {"added": len(diff.edges_added), "removed": len(diff.edges_removed)},
    }
    document["truncated"] = truncated
    return document


def _ref(schema: str, pair: tuple[str, str]) -> dict[str, str]:
    package, name = pair
    return {"name": name} if schema == PACKAGE else {"package": package, "name": name}


def _entry(entry: Entry) -> dict[str, str]:
    package, channel, name = entry
    return {"package": package, "channel": channel, "name": name}


def _edge(edge: Edge) -> dict[str, str]:
    package, channel, entry, kind, target = edge
    return {"package": package, "channel": channel, "entry": entry, "kind": kind, "target": target}
