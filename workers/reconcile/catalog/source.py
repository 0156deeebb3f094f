"""The registry side of a catalog: its image reference, a client for it, and tag resolution."""

from __future__ import annotations

from django.conf import settings

from controlplane.imageref import ImageRef, parse_image_ref
from workers.drivers.oci import Credentials, RegistryClient
from workers.reconcile.catalog.request import CatalogRequest

__all__ = ["client_for", "image_of", "resolve", "resolved_ref"]

DOCKER_HUB = "registry-1.docker.io"


def image_of(request: CatalogRequest) -> ImageRef:
    """The parsed ref, with Docker Hub's defaults filled in (registry, ``library/``, ``latest``)."""
    ref = parse_image_ref(request.image_ref)
    registry, repository = ref.registry, ref.repository
    if registry in ("", "docker.io", "index.docker.io"):
        registry = DOCKER_HUB
        repository = repository if "/" in repository else f"library/{repository}"
    tag = ref.tag or (None if ref.digest else "latest")
    return ImageRef(registry=registry, repository=repository, tag=tag, digest=ref.digest)


def client_for(request: CatalogRequest) -> RegistryClient:
    image = image_of(request)
    credentials = Credentials(request.pull_username, request.pull_password) if request.pull_username else None
    return RegistryClient(
        image.registry,
        image.repository,
        credentials=credentials,
        ca_pem=request.ca,
        timeout=settings.CATALOG_REGISTRY_TIMEOUT_SECONDS,
    )


def resolve(request: CatalogRequest) -> str:
    """The manifest digest the ref names now. A digest ref names itself; a tag asks the registry."""
    image = image_of(request)
    if image.digest:
        return image.digest
    with client_for(request) as client:
        return client.resolve(image.tag or "latest")


def resolved_ref(request: CatalogRequest, digest: str) -> str:
    return f"{image_of(request).name}@{digest}"
