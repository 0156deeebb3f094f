"""Where a container's volumes live on the host, and what goes in them (pure; the supervisor applies the plan).

An emptyDir is a directory of the pod (`medium: Memory` too); a persistentVolumeClaim is one directory per claim,
shared by every pod that mounts it (as a ReadWriteMany volume; access modes are not enforced); Secret,
ConfigMap and projected volumes are files the runtime writes into a directory of the pod, read-only in the
container; hostPath is the host's path (never created). See https://kubernetes.io/docs/concepts/storage/volumes/.
"""

from __future__ import annotations

import base64
from dataclasses import dataclass, field
from enum import StrEnum
from pathlib import PurePosixPath
from typing import Any

from devcluster.runtime.env import CONFIGMAPS_KEY, SECRETS_KEY, Lookup, SetupError

__all__ = ["DirectoryKind", "Mount", "VolumeError", "VolumePlan", "plan_volumes"]


class VolumeError(SetupError):
    """A volume the runtime cannot set up."""


@dataclass(frozen=True)
class Mount:
    """A bind mount of `source` at `target`; with `tmpfs`, an empty tmpfs (mode 0755) at `target` instead."""

    source: str
    target: str
    read_only: bool
    tmpfs: bool = False


class DirectoryKind(StrEnum):
    """What a volume directory is, which decides its mode and ownership (the kubelet's, with fsGroup)."""

    EMPTY_DIR = "emptyDir"
    CLAIM = "persistentVolumeClaim"
    FILES = "files"


@dataclass(frozen=True)
class VolumePlan:
    """Directories to create (and their kind), files to write (host path -> bytes), and bind mounts in the order
    to make them."""

    directories: dict[str, DirectoryKind] = field(default_factory=dict)
    files: dict[str, bytes] = field(default_factory=dict)
    mounts: tuple[Mount, ...] = ()


def _object_files(lookup: Lookup, namespace: str, kind: str, source: dict[str, Any]) -> dict[str, bytes]:
    """A Secret's or ConfigMap's keys as relative file paths (its `items` when given)."""
    secret = kind == "secret"
    name = source.get("secretName" if secret and "secretName" in source else "name", "")
    obj = lookup(SECRETS_KEY if secret else CONFIGMAPS_KEY, namespace, name)
    if obj is None:
        if source.get("optional"):
            return {}
        raise VolumeError(f'{"secret" if secret else "configmap"} "{name}" not found')
    data = {key: base64.b64decode(value) for key, value in (obj.get("binaryData") or {}).items()}
    for key, value in (obj.get("data") or {}).items():
        data[key] = base64.b64decode(value) if secret else value.encode()
    items = source.get("items")
    if not items:
        return data
    return {item.get("path", item["key"]): data[item["key"]] for item in items if item["key"] in data}


def _volume_files(lookup: Lookup, namespace: str, volume: dict[str, Any]) -> dict[str, bytes] | None:
    """The files of a Secret/ConfigMap/projected volume, or None for other volume types."""
    for kind in ("secret", "configMap"):
        if volume.get(kind) is not None:
            return _object_files(lookup, namespace, kind, volume[kind])
    if volume.get("projected") is not None:
        files: dict[str, bytes] = {}
        for source in volume["projected"].get("sources") or []:
            for kind in ("secret", "configMap"):
                if source.get(kind) is not None:
                    files.update(_object_files(lookup, namespace, kind, source[kind]))
        return files
    return None


def _safe(relative: str) -> str:
    path = PurePosixPath(relative)
    if path.is_absolute() or ".." in path.parts:
        raise VolumeError(f"invalid path {relative!r}")
    return str(path)


def plan_volumes(
    lookup: Lookup, pod: dict[str, Any], container: dict[str, Any], pod_dir: str, claims_dir: str
) -> VolumePlan:
    """The host side of each of the container's volumeMounts: `pod_dir` holds the pod's own volumes,
    `claims_dir/<namespace>/<claim>` a claim's."""
    namespace = pod["metadata"]["namespace"]
    volumes = {v["name"]: v for v in (pod.get("spec") or {}).get("volumes") or []}
    directories: dict[str, DirectoryKind] = {}
    files: dict[str, bytes] = {}
    mounts: list[Mount] = []
    for volume_mount in container.get("volumeMounts") or []:
        volume = volumes.get(volume_mount["name"])
        if volume is None:
            raise VolumeError(f'volumeMount "{volume_mount["name"]}" names no volume of the pod')
        read_only = bool(volume_mount.get("readOnly"))
        content = _volume_files(lookup, namespace, volume)
        kind: DirectoryKind | None = None
        if volume.get("persistentVolumeClaim") is not None:
            source = f"{claims_dir}/{namespace}/{_safe(volume['persistentVolumeClaim']['claimName'])}"
            read_only = read_only or bool(volume["persistentVolumeClaim"].get("readOnly"))
            kind = DirectoryKind.CLAIM
        elif volume.get("hostPath") is not None:
            source = volume["hostPath"]["path"]
        elif volume.get("emptyDir") is not None or content is not None:
            source = f"{pod_dir}/volumes/{_safe(volume['name'])}"
            kind = DirectoryKind.EMPTY_DIR
            if content is not None:
                read_only, kind = True, DirectoryKind.FILES
                files.update({f"{source}/{_safe(path)}": data for path, data in content.items()})
        else:
            kinds = sorted(key for key in volume if key != "name")
            raise VolumeError(f'volume "{volume["name"]}" of type {kinds} is not supported by the process runtime')
        if volume_mount.get("subPath"):
            if kind is not None:
                directories.setdefault(source, kind)
            source = f"{source}/{_safe(volume_mount['subPath'])}"
        if kind is not None:
            directories.setdefault(source, kind)
        mounts.append(Mount(source, volume_mount["mountPath"], read_only))
    mounts.sort(key=lambda m: len(PurePosixPath(m.target).parts))
    return VolumePlan(directories, files, tuple(mounts))
