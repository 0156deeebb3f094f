"""Catalog content in an S3-compatible bucket (``CATALOG_STORE=s3``); replicas share only the bucket.

Keys under ``CATALOG_S3_PREFIX``::

    content/sha256-<hex>/all.jsonl, all.jsonl.gz, index.json   the entry's objects
    entries/sha256-<hex>.json                                    its marker: written last, removed first

A writer uploads every object of an entry, then the marker (the manifest of object sizes); a
remover deletes the marker, then the objects. Readers go by the marker alone, so an entry without
one is absent, and a partial entry is never served. The marker's ``LastModified`` is the entry's
age for the GC. Objects whose marker never came (a crashed writer) go with ``remove_stale``.
Nothing is kept locally except scratch space under ``CATALOG_STORE_DIR`` for the writer.
"""

from __future__ import annotations

import json
import re
import time
from collections.abc import Iterator
from contextlib import AbstractContextManager, contextmanager
from dataclasses import dataclass, field
from functools import lru_cache
from pathlib import Path
from typing import Any, BinaryIO

import boto3
from botocore.config import Config
from botocore.exceptions import BotoCoreError, ClientError
from django.conf import settings

from catalogs.store import scratch
from catalogs.store.entries import ENTRY_FILES, EntryStat, StoredEntry, StoreError, entry_name

__all__ = ["S3Config", "S3Store", "store_for", "windows"]

MANIFEST_VERSION = 1
READ_CHUNK = 256 * 1024
# Spans closer than this are fetched by one ranged GET (the gap is read and dropped).
MAX_GAP = 256 * 1024
_ABSENT = {"NoSuchKey", "404", "NotFound"}
_MARKER = re.compile(r"(sha256-[a-f0-9]{64})\.json$")
_CONTENT = re.compile(r"content/(sha256-[a-f0-9]{64})/")
Window = tuple[int, int, list[tuple[int, int]]]  # (start, length, the spans it covers)


@dataclass(frozen=True)
class S3Config:
    bucket: str
    prefix: str
    endpoint_url: str | None
    region: str
    access_key_id: str | None
    secret_access_key: str | None = field(repr=False)
    verify: bool | str  # False, True, or the path of a CA bundle
    addressing_style: str
    scratch_root: Path

    @classmethod
    def from_settings(cls) -> S3Config:
        """From ``settings.CATALOG_S3`` (see ``controlplane.catalog_store_env``) and ``CATALOG_STORE_DIR``."""
        return cls(**settings.CATALOG_S3, scratch_root=Path(settings.CATALOG_STORE_DIR))

    def client(self) -> Any:
        """A boto3 S3 client (thread-safe; without explicit keys, boto3's usual credential chain applies)."""
        return boto3.session.Session().client(
            "s3",
            endpoint_url=self.endpoint_url,
            region_name=self.region,
            verify=self.verify,
            aws_access_key_id=self.access_key_id,
            aws_secret_access_key=self.secret_access_key,
            config=Config(
                s3={"addressing_style": self.addressing_style},
                retries={"max_attempts": 3, "mode": "standard"},
                connect_timeout=5,
                read_timeout=30,
            ),
        )


@lru_cache(maxsize=4)
def store_for(config: S3Config) -> S3Store:
    """One store (and client) per configuration and process."""
    return S3Store(config)


def windows(spans: list[tuple[int, int]], max_gap: int = MAX_GAP) -> list[Window]:
    """Group ordered (offset, length) spans into windows, one ranged GET each."""
    grouped: list[Window] = []
    for offset, length in spans:
        if grouped and offset - (grouped[-1][0] + grouped[-1][1]) <= max_gap:
            start, _, members = grouped[-1]
            grouped[-1] = (start, offset + length - start, [*members, (offset, length)])
        else:
            grouped.append((offset, length, [(offset, length)]))
    return grouped


@contextmanager
def _errors() -> Iterator[None]:
    """Unreachable endpoints and error answers become StoreError (absence is handled by the caller)."""
    try:
        yield
    except ClientError as exc:
        raise StoreError(f"S3 {exc.response.get('Error', {}).get('Code', 'error')}: {exc}") from exc
    except BotoCoreError as exc:
        raise StoreError(f"S3 unreachable: {exc}") from exc


def _absent(exc: ClientError) -> bool:
    return exc.response.get("Error", {}).get("Code") in _ABSENT


class S3Store:
    def __init__(self, config: S3Config) -> None:
        self.config = config
        self._client = config.client()

    def _key(self, digest: str, name: str) -> str:
        return f"{self.config.prefix}content/{entry_name(digest)}/{name}"

    def _marker_key(self, digest: str) -> str:
        return f"{self.config.prefix}entries/{entry_name(digest)}.json"

    def _get(self, key: str, **kwargs: Any) -> dict[str, Any] | None:
        """The GetObject answer (its body still to read), or None when the key is absent."""
        with _errors():
            try:
                return self._client.get_object(Bucket=self.config.bucket, Key=key, **kwargs)
            except ClientError as exc:
                if _absent(exc):
                    return None
                raise

    def _head_size(self, key: str) -> int | None:
        with _errors():
            try:
                return self._client.head_object(Bucket=self.config.bucket, Key=key)["ContentLength"]
            except ClientError as exc:
                if _absent(exc):
                    return None
                raise

    def stat(self, digest: str) -> EntryStat | None:
        answer = self._get(self._marker_key(digest))
        if answer is None:
            return None
        with _errors(), answer["Body"] as body:
            raw = body.read()
        try:
            sizes = {name: int(json.loads(raw)["sizes"][name]) for name in ENTRY_FILES}
        except (ValueError, KeyError, TypeError) as exc:
            raise StoreError(f"the marker of {digest} cannot be read: {exc!r}") from exc
        return EntryStat(modified=answer["LastModified"].timestamp(), sizes=sizes)

    def has(self, digest: str) -> bool:
        """The marker and every object at its recorded size (a remover racing a writer can leave less)."""
        found = self.stat(digest)
        return found is not None and all(
            self._head_size(self._key(digest, name)) == found.sizes.get(name) for name in ENTRY_FILES
        )

    def write_entry(self, staged: Path, digest: str) -> None:
        """Upload every object (multipart when large; each appears whole), then the marker, last."""
        sizes = {name: (staged / name).stat().st_size for name in ENTRY_FILES}
        manifest = json.dumps({"version": MANIFEST_VERSION, "digest": digest, "sizes": sizes}).encode()
        with _errors():
            for name in ENTRY_FILES:
                self._client.upload_file(str(staged / name), self.config.bucket, self._key(digest, name))
            self._client.put_object(
                Bucket=self.config.bucket,
                Key=self._marker_key(digest),
                Body=manifest,
                ContentType="application/json",
            )

    def open(self, digest: str, name: str) -> BinaryIO | None:
        answer = self._get(self._key(digest, name))
        return None if answer is None else answer["Body"]

    def open_range(self, digest: str, name: str, spans: list[tuple[int, int]]) -> Iterator[bytes] | None:
        grouped = windows([span for span in spans if span[1] > 0])
        if not grouped:
            return iter(())
        key = self._key(digest, name)
        first = self._ranged(key, grouped[0])
        return None if first is None else self._stream(key, grouped, first)

    def _ranged(self, key: str, window: Window) -> BinaryIO | None:
        start, length, _ = window
        answer = self._get(key, Range=f"bytes={start}-{start + length - 1}")
        return None if answer is None else answer["Body"]

    def _stream(self, key: str, grouped: list[Window], first: BinaryIO) -> Iterator[bytes]:
        body: BinaryIO | None = first
        for number, window in enumerate(grouped):
            if number:
                body = self._ranged(key, window)
            if body is None:
                return
            with body:
                position = window[0]
                for offset, length in window[2]:
                    body.read(offset - position)  # the gap between spans
                    position = offset + length
                    while length > 0:
                        chunk = body.read(min(length, READ_CHUNK))
                        if not chunk:
                            return
                        length -= len(chunk)
                        yield chunk

    def read(self, digest: str, name: str) -> bytes | None:
        answer = self._get(self._key(digest, name))
        if answer is None:
            return None
        with _errors(), answer["Body"] as body:
            return body.read()

    def _list(self, area: str) -> Iterator[dict[str, Any]]:
        with _errors():
            pages = self._client.get_paginator("list_objects_v2").paginate(
                Bucket=self.config.bucket, Prefix=f"{self.config.prefix}{area}/"
            )
            for page in pages:
                yield from page.get("Contents", [])

    def entries(self) -> list[StoredEntry]:
        found = []
        for item in self._list("entries"):
            match = _MARKER.search(item["Key"])
            if match:
                found.append(StoredEntry(match.group(1).replace("-", ":", 1), item["LastModified"].timestamp()))
        return sorted(found, key=lambda entry: entry.digest)

    def remove(self, digest: str) -> None:
        with _errors():
            self._client.delete_object(Bucket=self.config.bucket, Key=self._marker_key(digest))
            self._delete([self._key(digest, name) for name in ENTRY_FILES])

    def _delete(self, keys: list[str]) -> None:
        for start in range(0, len(keys), 1000):
            answer = self._client.delete_objects(
                Bucket=self.config.bucket,
                Delete={"Objects": [{"Key": k} for k in keys[start : start + 1000]]},
            )
            if answer.get("Errors"):
                raise StoreError(f"S3 refused to delete {len(answer['Errors'])} objects: {answer['Errors'][0]}")

    def staging_dir(self) -> AbstractContextManager[Path]:
        return scratch.scratch_dir(self.config.scratch_root, "staging")

    def work_dir(self) -> AbstractContextManager[Path]:
        return scratch.scratch_dir(self.config.scratch_root, "work")

    def remove_stale(self, older_than_seconds: float, now: float | None = None) -> int:
        """Local scratch, plus the objects of entries whose marker never came, all last written before the cutoff."""
        removed = scratch.remove_stale(self.config.scratch_root, older_than_seconds, now)
        cutoff = (time.time() if now is None else now) - older_than_seconds
        marked = {entry_name(entry.digest) for entry in self.entries()}
        partial: dict[str, list[tuple[str, float]]] = {}
        for item in self._list("content"):
            match = _CONTENT.search(item["Key"])
            if match and match.group(1) not in marked:
                partial.setdefault(match.group(1), []).append((item["Key"], item["LastModified"].timestamp()))
        for objects in partial.values():
            if max(modified for _, modified in objects) < cutoff:
                with _errors():
                    self._delete([key for key, _ in objects])
                removed += 1
        return removed
