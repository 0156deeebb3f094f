"""Typed registry and image errors. Messages never carry credentials."""

from __future__ import annotations

from workers.drivers.errors import DriverError, NotFound, ServerError, Unauthorized

__all__ = [
    "DigestMismatch",
    "ImageNotFound",
    "InvalidImage",
    "RegistryError",
    "RegistryServerError",
    "RegistryUnauthorized",
    "RegistryUnreachable",
    "TooLarge",
]


class RegistryError(DriverError):
    """Base class for failures talking to a registry."""


class RegistryUnreachable(RegistryError):
    """Connection, DNS, TLS or timeout failure; or a refused insecure transport."""


class RegistryUnauthorized(RegistryError, Unauthorized):
    """The registry rejected our credentials, or demands credentials we do not have."""


class ImageNotFound(RegistryError, NotFound):
    """The repository, tag, manifest or blob does not exist."""


class RegistryServerError(RegistryError, ServerError):
    """The registry failed or throttled the request (5xx, 429, other unexpected status).

    ``retry_after`` is the wait in seconds its ``Retry-After`` asked for, when it sent one."""

    def __init__(self, message: str, *, status: int | None = None, retry_after: float | None = None) -> None:
        super().__init__(message, status=status)
        self.retry_after = retry_after


class DigestMismatch(RegistryError):
    """Downloaded bytes do not hash to the digest that named them."""


class InvalidImage(RegistryError):
    """The image is well transported but unusable: bad manifest, media type, platform or config."""


class TooLarge(RegistryError):
    """A manifest or blob exceeds its configured size limit."""
