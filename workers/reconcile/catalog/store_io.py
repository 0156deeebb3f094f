"""The catalog pass's I/O for real: the database row, the registry, and the content store."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime

from django.conf import settings

from catalogs import store
from workers.drivers.cosign import load_public_keys, verify_signatures
from workers.drivers.oci import PullLimits, RegistryClient
from workers.fbc.jsonl import write_catalog
from workers.fbc.parse import find_configs_dir, iter_metas
from workers.fbc.untar import UnpackLimits, apply_layers
from workers.reconcile.catalog import persist, source
from workers.reconcile.catalog.changes import describe_switch
from workers.reconcile.catalog.outcome import CatalogOutcome, Switch
from workers.reconcile.catalog.request import CatalogRequest

__all__ = ["StoreIo"]


def _verify(client: RegistryClient, request: CatalogRequest, digest: str) -> None:
    verify_signatures(client.signatures(digest), load_public_keys(request.signature_keys), digest)


@dataclass(frozen=True)
class StoreIo:
    """Saves are fenced by ``lease_token``, the lease the pass holds (None: none, so none may be held)."""

    lease_token: str | None = None

    def load(self, pk: str) -> CatalogRequest | None:
        return persist.load(pk)

    def resolve(self, request: CatalogRequest) -> str:
        return source.resolve(request)

    def verify(self, request: CatalogRequest, digest: str) -> None:
        with source.client_for(request) as client:
            _verify(client, request, digest)

    def unpack(self, request: CatalogRequest, digest: str) -> str:
        """Everything happens in scratch space; only a complete entry is written to the store. With signature
        keys, a signature is checked before any layer is pulled. Content lost from the store (the same digest,
        not intact) is restored: its remnant is replaced."""
        with source.client_for(request) as client:
            if request.signature_keys:
                _verify(client, request, digest)
            content = store.get()
            with content.work_dir() as work, content.staging_dir() as staged:
                image = client.pull(digest, work, PullLimits(max_layer_bytes=settings.CATALOG_MAX_LAYER_BYTES))
                rootfs = work / "rootfs"
                rootfs.mkdir()
                apply_layers(image.layers, rootfs, UnpackLimits(max_bytes=settings.CATALOG_MAX_UNPACKED_BYTES))
                configs = find_configs_dir(rootfs, image.labels)
                written = write_catalog(
                    iter_metas(configs, rootfs),
                    staged / store.ALL_FILE,
                    staged / store.ALL_GZ_FILE,
                    staged / store.INDEX_FILE,
                )
                if request.restores(written.digest) and content.stat(written.digest) is not None:
                    content.remove(written.digest)  # a corrupt remnant, which write_entry would keep
                content.write_entry(staged, written.digest)
        return written.digest

    def describe_switch(self, previous: str | None, current: str) -> Switch:
        return describe_switch(store.get(), previous, current)

    def base_url(self, request: CatalogRequest) -> str:
        return f"{settings.CATALOG_BASE_URL}/catalogs/{request.name}"

    def save(self, request: CatalogRequest, outcome: CatalogOutcome, now: datetime) -> bool:
        return persist.save(request, outcome, now, lease_token=self.lease_token)
