"""The set of currently served resource types, rebuilt whenever CRDs change."""

from __future__ import annotations

import re
import threading
from collections.abc import Iterable
from typing import Any

from devcluster.resources import BUILTIN_TYPES, ResourceType, types_from_crd

_VERSION = re.compile(r"^v(\d+)(?:(alpha|beta)(\d+))?$")


def version_priority(version: str) -> tuple[int, int, int]:
    """Sort key following Kubernetes version priority: GA > beta > alpha, higher numbers first."""
    match = _VERSION.match(version)
    if not match:
        return (0, 0, 0)
    stability = {None: 3, "beta": 2, "alpha": 1}[match.group(2)]
    return (stability, int(match.group(1)), int(match.group(3) or 0))


class Registry:
    """Looks up resource types by group/version/plural; thread-safe snapshot replacement."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._types: tuple[ResourceType, ...] = BUILTIN_TYPES

    def rebuild(self, crds: Iterable[dict[str, Any]]) -> None:
        custom = [rt for crd in crds if _is_established(crd) for rt in types_from_crd(crd)]
        with self._lock:
            self._types = BUILTIN_TYPES + tuple(custom)

    def all(self) -> tuple[ResourceType, ...]:
        with self._lock:
            return self._types

    def lookup(self, group: str, version: str, plural: str) -> ResourceType | None:
        for rt in self.all():
            if rt.group == group and rt.version == version and rt.plural == plural:
                return rt
        return None

    def lookup_kind(self, group: str, version: str, kind: str) -> ResourceType | None:
        for rt in self.all():
            if rt.group == group and rt.version == version and rt.kind == kind:
                return rt
        return None

    def for_group_version(self, group: str, version: str) -> list[ResourceType]:
        return [rt for rt in self.all() if rt.group == group and rt.version == version]

    def groups(self) -> dict[str, list[str]]:
        """Each served group (core is "") mapped to its versions, preferred version first."""
        result: dict[str, list[str]] = {}
        for rt in self.all():
            versions = result.setdefault(rt.group, [])
            if rt.version not in versions:
                versions.append(rt.version)
        for versions in result.values():
            versions.sort(key=version_priority, reverse=True)
        return result


def _is_established(crd: dict[str, Any]) -> bool:
    return not (crd.get("metadata") or {}).get("deletionTimestamp")
