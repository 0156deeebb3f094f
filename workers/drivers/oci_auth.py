"""Registry transport rules and authentication challenges (pure helpers).

Plain HTTP is allowed only for loopback registries. A ``WWW-Authenticate`` challenge is
answered with HTTP Basic credentials, or by fetching a bearer token from the named realm.
"""

from __future__ import annotations

import ipaddress
import re
from dataclasses import dataclass
from urllib.parse import urlsplit

__all__ = ["Challenge", "Credentials", "is_loopback", "parse_challenge", "registry_scheme"]

_PARAM = re.compile(r'([A-Za-z][A-Za-z0-9_-]*)\s*=\s*(?:"((?:[^"\\]|\\.)*)"|([^\s,]+))')


@dataclass(frozen=True)
class Credentials:
    username: str
    password: str

    def __repr__(self) -> str:
        return f"Credentials(username={self.username!r}, password=<hidden>)"


@dataclass(frozen=True)
class Challenge:
    """One parsed ``WWW-Authenticate`` header: the scheme (lowercase) and its parameters."""

    scheme: str
    params: dict[str, str]


def parse_challenge(header: str) -> Challenge:
    """Parse ``Bearer realm="...",service="...",scope="..."`` or ``Basic realm="..."``."""
    scheme, _, rest = header.strip().partition(" ")
    params = {m.group(1).lower(): (m.group(2) if m.group(2) is not None else m.group(3)) for m in _PARAM.finditer(rest)}
    return Challenge(scheme=scheme.lower(), params={k: v.replace('\\"', '"') for k, v in params.items()})


def host_of(registry: str) -> str:
    """The host part of ``host``, ``host:port``, ``[v6]`` or ``[v6]:port``."""
    return urlsplit(f"//{registry}").hostname or ""


def is_loopback(host: str) -> bool:
    if host == "localhost":
        return True
    try:
        return ipaddress.ip_address(host).is_loopback
    except ValueError:
        return False


def registry_scheme(registry: str, *, has_ca: bool) -> str:
    """HTTPS everywhere, except a loopback registry given no CA, which is spoken to in plain HTTP."""
    return "http" if is_loopback(host_of(registry)) and not has_ca else "https"


def realm_allowed(realm: str) -> bool:
    """Token realms must be HTTPS, or plain HTTP on loopback: credentials never cross a network in clear."""
    parts = urlsplit(realm)
    return parts.scheme == "https" or (parts.scheme == "http" and is_loopback(parts.hostname or ""))
