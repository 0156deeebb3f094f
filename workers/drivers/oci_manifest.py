"""OCI and Docker v2 manifests and indexes: media types, parsing and platform choice (pure)."""

from __future__ import annotations

import json
import re
from dataclasses import dataclass
from typing import Any

from workers.drivers.oci_errors import InvalidImage

__all__ = [
    "ACCEPT_MANIFESTS",
    "Descriptor",
    "ImageManifest",
    "parse_descriptor",
    "parse_image_manifest",
    "select_platform",
]

OCI_INDEX = "application/vnd.oci.image.index.v1+json"
OCI_MANIFEST = "application/vnd.oci.image.manifest.v1+json"
DOCKER_LIST = "application/vnd.docker.distribution.manifest.list.v2+json"
DOCKER_MANIFEST = "application/vnd.docker.distribution.manifest.v2+json"
INDEX_TYPES = frozenset({OCI_INDEX, DOCKER_LIST})
MANIFEST_TYPES = frozenset({OCI_MANIFEST, DOCKER_MANIFEST})
ACCEPT_MANIFESTS = ", ".join((OCI_INDEX, OCI_MANIFEST, DOCKER_LIST, DOCKER_MANIFEST))
LAYER_TYPES = frozenset(
    {
        "application/vnd.oci.image.layer.v1.tar",
        "application/vnd.oci.image.layer.v1.tar+gzip",
        "application/vnd.docker.image.rootfs.diff.tar.gzip",
        "application/vnd.docker.image.rootfs.diff.tar",
    }
)
SHA256_DIGEST = re.compile(r"^sha256:[a-f0-9]{64}$")
PLATFORM = ("linux", "amd64")


@dataclass(frozen=True)
class Descriptor:
    media_type: str
    digest: str
    size: int


@dataclass(frozen=True)
class ImageManifest:
    config: Descriptor
    layers: tuple[Descriptor, ...]


def parse_descriptor(raw: Any) -> Descriptor:
    if not isinstance(raw, dict):
        raise InvalidImage("a descriptor is not an object")
    digest, size, media_type = raw.get("digest"), raw.get("size"), raw.get("mediaType", "")
    if not isinstance(digest, str) or not SHA256_DIGEST.match(digest):
        raise InvalidImage(f"unsupported or malformed digest {str(digest)[:80]!r}: only sha256 is accepted")
    if not isinstance(size, int) or isinstance(size, bool) or size < 0:
        raise InvalidImage(f"descriptor {digest} has no valid size")
    if raw.get("urls"):
        raise InvalidImage(f"descriptor {digest} points at foreign URLs, which are not fetched")
    return Descriptor(media_type=str(media_type), digest=digest, size=size)


def load_document(body: bytes) -> dict[str, Any]:
    try:
        document = json.loads(body)
    except (UnicodeDecodeError, json.JSONDecodeError) as exc:
        raise InvalidImage(f"manifest is not JSON: {exc}") from None
    if not isinstance(document, dict):
        raise InvalidImage("manifest is not a JSON object")
    return document


def media_type_of(document: dict[str, Any], content_type: str) -> str:
    """The manifest's own mediaType, else the response's Content-Type, else a guess from its shape."""
    declared = document.get("mediaType") or content_type.split(";")[0].strip()
    if declared in INDEX_TYPES | MANIFEST_TYPES:
        return declared
    if "manifests" in document:
        return OCI_INDEX
    if "layers" in document:
        return OCI_MANIFEST
    raise InvalidImage(f"unsupported manifest media type {declared!r}")


def select_platform(index: dict[str, Any]) -> Descriptor:
    """The linux/amd64 entry of an image index (the first one, if several)."""
    entries = index.get("manifests")
    if not isinstance(entries, list):
        raise InvalidImage("image index has no manifests list")
    for entry in entries:
        platform = entry.get("platform") if isinstance(entry, dict) else None
        if isinstance(platform, dict) and (platform.get("os"), platform.get("architecture")) == PLATFORM:
            return parse_descriptor(entry)
    raise InvalidImage("image index has no linux/amd64 manifest")


def parse_image_manifest(document: dict[str, Any]) -> ImageManifest:
    config = parse_descriptor(document.get("config"))
    layers = document.get("layers")
    if not isinstance(layers, list) or not layers:
        raise InvalidImage("image manifest has no layers")
    parsed = tuple(parse_descriptor(layer) for layer in layers)
    for layer in parsed:
        if layer.media_type not in LAYER_TYPES:
            raise InvalidImage(f"unsupported layer media type {layer.media_type!r} for {layer.digest}")
    return ImageManifest(config=config, layers=parsed)
