"""Parse a file-based catalog (FBC) directory into documents, in file order (pure, no Django).

Files are walked in lexical path order; ``*.json`` files may hold several concatenated JSON
documents and ``*.yaml``/``*.yml`` files several YAML documents. Other files and hidden files are
ignored, and symlinked directories are not followed. Every document must be a mapping with a
non-empty string ``schema``; ``olm.package`` needs a ``name``, and ``olm.channel`` and
``olm.bundle`` need a ``package`` and a ``name``. Other schemas are passed through.

Each document is written as ``json.dumps(separators=(",", ":"), ensure_ascii=False)`` would write it.
orjson writes those same bytes, several times faster, for what JSON text decodes to when it holds no
float, NaN or Infinity literal (orjson formats floats its own way), so such documents go through orjson;
YAML documents, documents with floats, and whatever orjson refuses (integers past 64 bits, lone
surrogates) go through the standard encoder.
"""

from __future__ import annotations

import json
import os
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import orjson
import yaml

from workers.fbc.untar import inside

__all__ = ["CONFIGS_LABEL", "FBCError", "Meta", "find_configs_dir", "iter_metas", "meta_of"]

CONFIGS_LABEL = "operators.operatorframework.io.index.configs.v1"
JSON_SUFFIXES = (".json",)
YAML_SUFFIXES = (".yaml", ".yml")
NEEDS_PACKAGE = frozenset({"olm.channel", "olm.bundle"})
# One encoder for every document (json.dumps with options builds a new one per call).
_encode = json.JSONEncoder(separators=(",", ":"), ensure_ascii=False, allow_nan=False).encode


class FBCError(Exception):
    """The image does not hold a valid file-based catalog."""


@dataclass(frozen=True)
class Meta:
    """One catalog document: its index keys and its compact JSON encoding (without newline)."""

    schema: str
    package: str
    name: str
    blob: bytes


class _Loader(getattr(yaml, "CSafeLoader", yaml.SafeLoader)):  # type: ignore[misc]
    """Safe YAML without implicit timestamps, so every value maps to JSON."""


_Loader.yaml_implicit_resolvers = {
    key: [(tag, regexp) for tag, regexp in resolvers if tag != "tag:yaml.org,2002:timestamp"]
    for key, resolvers in yaml.SafeLoader.yaml_implicit_resolvers.items()
}


def find_configs_dir(root: Path, labels: dict[str, str]) -> Path:
    """The directory the image's configs label names; FBCError when absent or unusable."""
    value = labels.get(CONFIGS_LABEL, "").strip()
    if not value:
        raise FBCError(f"image config has no {CONFIGS_LABEL} label: not a file-based catalog image")
    directory = root / value.lstrip("/")
    if not inside(root, directory) or not directory.is_dir():
        raise FBCError(f"label {CONFIGS_LABEL}={value[:200]!r} does not name a directory in the image")
    return directory


def iter_metas(directory: Path, root: Path) -> Iterator[Meta]:
    """Every document under ``directory`` in file order; FBCError when there are none."""
    found = False
    for path in _catalog_files(directory, root):
        where = os.path.relpath(path, directory)
        for number, (document, plain_json) in enumerate(_documents(path), start=1):
            found = True
            yield meta_of(document, f"{where}#{number}", plain_json=plain_json)
    if not found:
        raise FBCError("the catalog directory holds no FBC documents")


def meta_of(document: Any, where: str, *, plain_json: bool = False) -> Meta:
    """Validate one document and encode it as compact JSON.

    ``plain_json``: the document was decoded from JSON text without float, NaN or Infinity literals.
    """
    if not isinstance(document, dict):
        raise FBCError(f"{where}: a document must be a mapping")
    schema = document.get("schema")
    if not isinstance(schema, str) or not schema:
        raise FBCError(f"{where}: every document needs a non-empty string 'schema'")
    package, name = document.get("package", ""), document.get("name", "")
    required = ("name",) if schema == "olm.package" else ("package", "name") if schema in NEEDS_PACKAGE else ()
    for key in required:
        if not isinstance(document.get(key), str) or not document[key]:
            raise FBCError(f"{where}: a {schema} document needs a non-empty string {key!r}")
    try:
        blob = _compact_json(document, plain_json)
    except (TypeError, ValueError) as exc:
        raise FBCError(f"{where}: the document has values JSON cannot hold: {exc}") from None
    except RecursionError:
        raise FBCError(f"{where}: the document nests too deeply") from None
    return Meta(
        schema=schema,
        package=package if isinstance(package, str) else "",
        name=name if isinstance(name, str) else "",
        blob=blob,
    )


def _compact_json(document: Any, plain_json: bool) -> bytes:
    if plain_json:
        try:
            return orjson.dumps(document)
        except orjson.JSONEncodeError:
            pass  # integers past 64 bits, lone surrogates, deep nesting: the standard encoder decides
    return _encode(document).encode()


def _catalog_files(directory: Path, root: Path) -> Iterator[Path]:
    """Catalog files in lexical path order (as opm walks), not following symlinked directories.

    ``directory`` lies inside ``root`` and no symlinked directory is entered, so only a file that is
    itself a symlink can resolve outside the image.
    """
    for entry in sorted(os.scandir(directory), key=lambda e: e.name):
        path = Path(entry.path)
        if entry.name.startswith("."):
            continue
        if entry.is_dir(follow_symlinks=False):
            yield from _catalog_files(path, root)
        elif entry.name.endswith(JSON_SUFFIXES + YAML_SUFFIXES):
            if entry.is_symlink() and not inside(root, path):
                raise FBCError(f"{entry.name} links outside the image")
            if entry.is_file():
                yield path


def _documents(path: Path) -> Iterator[tuple[Any, bool]]:
    """Each document of the file, and whether it is plain JSON (see ``meta_of``)."""
    try:
        text = path.read_text(encoding="utf-8")
    except UnicodeDecodeError:
        raise FBCError(f"{path.name} is not UTF-8 text") from None
    if path.name.endswith(JSON_SUFFIXES):
        yield from _json_documents(text, path.name)
        return
    try:
        yield from ((doc, False) for doc in yaml.load_all(text, Loader=_Loader) if doc is not None)
    except yaml.YAMLError as exc:
        raise FBCError(f"{path.name} is not valid YAML: {str(exc)[:300]}") from None


def _json_documents(text: str, filename: str) -> Iterator[tuple[Any, bool]]:
    inexact = [0]  # float, NaN and Infinity literals decoded so far

    def inexact_number(literal: str) -> float:
        inexact[0] += 1
        return float(literal)

    decoder = json.JSONDecoder(parse_float=inexact_number, parse_constant=inexact_number)
    position, end = 0, len(text)
    while True:
        while position < end and text[position].isspace():
            position += 1
        if position == end:
            return
        seen = inexact[0]
        try:
            document, position = decoder.raw_decode(text, position)
        except json.JSONDecodeError as exc:
            raise FBCError(f"{filename} is not valid JSON: {exc}") from None
        except RecursionError:
            raise FBCError(f"{filename}: a document nests too deeply") from None
        yield document, inexact[0] == seen
