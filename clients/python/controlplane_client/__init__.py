"""A client library for accessing Gateway and catalog control plane API"""

from .client import AuthenticatedClient, Client

__all__ = (
    "AuthenticatedClient",
    "Client",
)
