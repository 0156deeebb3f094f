"""Parsing of OCI image references (pure): registry[:port]/path[:tag][@digest]."""

from __future__ import annotations

import re
from dataclasses import dataclass

__all__ = ["ImageRef", "InvalidImageRefError", "parse_image_ref", "pinned_image"]

MAX_REF_LENGTH = 512
# Matched with fullmatch: `$` alone would also match before a trailing newline.
_COMPONENT = r"[a-z0-9]+(?:(?:[._]|__|-+)[a-z0-9]+)*"
_PATH = re.compile(rf"^{_COMPONENT}(?:/{_COMPONENT})*$")
_HOST_LABEL = r"[A-Za-z0-9](?:[A-Za-z0-9-]*[A-Za-z0-9])?"
_DOMAIN = re.compile(  # dot-separated labels: no nested repetition, which backtracked exponentially on a bad host
    rf"^{_HOST_LABEL}(?:\.{_HOST_LABEL})*\.?(?::[0-9]{{1,5}})?$"  # host or host:port
    r"|^\[[0-9a-fA-F:]+\](?::[0-9]{1,5})?$"  # [ipv6] or [ipv6]:port
)
_TAG = re.compile(r"^[\w][\w.-]{0,127}$", re.ASCII)  # \w as in the OCI grammar: [A-Za-z0-9_]
_DIGEST = re.compile(r"^sha256:[a-f0-9]{64}$|^(?!sha256:)[a-z0-9]+(?:[.+_-][a-z0-9]+)*:[a-fA-F0-9]{32,}$")


class InvalidImageRefError(ValueError):
    """The string is not a valid image reference."""


@dataclass(frozen=True)
class ImageRef:
    registry: str
    repository: str
    tag: str | None
    digest: str | None

    @property
    def name(self) -> str:
        """registry/repository, or just the repository when no registry was given."""
        return f"{self.registry}/{self.repository}" if self.registry else self.repository

    def __str__(self) -> str:
        text = self.name
        if self.tag:
            text += f":{self.tag}"
        if self.digest:
            text += f"@{self.digest}"
        return text


def _split_registry(remainder: str) -> tuple[str, str]:
    first, sep, rest = remainder.partition("/")
    if sep and ("." in first or ":" in first or first == "localhost" or first.startswith("[")):
        return first, rest
    return "", remainder


def parse_image_ref(text: str) -> ImageRef:
    """Parse ``text``; a reference with neither tag nor digest keeps ``tag=None`` (meaning latest)."""
    if not text or len(text) > MAX_REF_LENGTH or text != text.strip():
        raise InvalidImageRefError(f"Image reference must be 1-{MAX_REF_LENGTH} characters without surrounding spaces.")
    remainder, at, digest = text.partition("@")
    if at and not _DIGEST.fullmatch(digest):  # `name@` has an empty digest, which is invalid
        raise InvalidImageRefError(f"Invalid digest {digest!r}: use sha256:<64 hex> or algo:<32+ hex>.")
    registry, path = _split_registry(remainder)
    if registry and not _DOMAIN.fullmatch(registry):
        raise InvalidImageRefError(f"Invalid registry {registry!r}.")
    path, colon, tag = path.rpartition(":") if ":" in path else (path, "", "")
    if colon and not _TAG.fullmatch(tag):
        raise InvalidImageRefError(f"Invalid tag {tag!r}: use at most 128 of letters, digits, '_', '.', '-'.")
    if not _PATH.fullmatch(path) or ".." in path:
        raise InvalidImageRefError(f"Invalid repository path {path!r}: use lowercase path components separated by '/'.")
    return ImageRef(registry=registry, repository=path, tag=tag or None, digest=digest or None)


def pinned_image(reference: str, digest: str | None) -> str:
    """``reference`` as ``registry/repository@digest`` (its tag dropped); unchanged without a digest."""
    if not digest or not reference:
        return reference
    return f"{parse_image_ref(reference).name}@{digest}"
