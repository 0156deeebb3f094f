"""The unpack action: verify the resolved image's signature (under a policy), pull it, unpack its catalog,
install it in the store, and say what changed."""

from __future__ import annotations

from datetime import datetime

from django.conf import settings

from catalogs import store
from workers.drivers.cosign import load_public_keys, verify_signatures
from workers.drivers.oci import PullLimits
from workers.fbc.jsonl import write_catalog
from workers.fbc.parse import find_configs_dir, iter_metas
from workers.fbc.untar import UnpackLimits, apply_layers
from workers.reconcile.catalog import outcome, source
from workers.reconcile.catalog.changes import describe_switch
from workers.reconcile.catalog.outcome import Outcome
from workers.reconcile.catalog.request import CatalogRequest

__all__ = ["run"]


def run(request: CatalogRequest, digest: str, now: datetime) -> Outcome:
    """Everything happens in scratch space; only a complete entry is written to the store.

    With signature keys, a signature is checked before any layer is pulled; content already served
    from ``digest`` that only lacked that check is not pulled again. Content lost from the store (the same
    digest, not intact) is restored: its remnant is replaced, and the history records no switch."""
    with source.client_for(request) as client:
        if request.signature_keys:
            verify_signatures(client.signatures(digest), load_public_keys(request.signature_keys), digest)
            if request.content_present and request.served_digest == digest:
                return outcome.verified(request, now)
        content = store.get()
        with content.work_dir() as work, content.staging_dir() as staged:
            image = client.pull(digest, work, PullLimits(max_layer_bytes=settings.CATALOG_MAX_LAYER_BYTES))
            rootfs = work / "rootfs"
            rootfs.mkdir()
            apply_layers(image.layers, rootfs, UnpackLimits(max_bytes=settings.CATALOG_MAX_UNPACKED_BYTES))
            configs = find_configs_dir(rootfs, image.labels)
            written = write_catalog(
                iter_metas(configs, rootfs),
                staged / store.ALL_FILE, staged / store.ALL_GZ_FILE, staged / store.INDEX_FILE,
            )
            if request.restores(written.digest) and content.stat(written.digest) is not None:
                content.remove(written.digest)  # a corrupt remnant, which write_entry would keep
            content.write_entry(staged, written.digest)
    base_url = f"{settings.CATALOG_BASE_URL}/catalogs/{request.name}"
    if request.restores(written.digest):
        return outcome.restored(request, source.resolved_ref(request, digest), base_url, now)
    switch = describe_switch(content, request.content_digest if request.content_present else None, written.digest)
    return outcome.unpacked(request, source.resolved_ref(request, digest), written.digest, base_url, now, switch)
