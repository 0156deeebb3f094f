"""SSRF rules for receiver URLs (pure; no Django): which addresses a notification may be sent to.

A multi-tenant service must not let a URL reach its own network: loopback, private (RFC 1918, CGNAT),
link-local (cloud metadata at 169.254.169.254), unique-local IPv6, and the special ranges. Only globally
routable unicast addresses are allowed, unless ``allow_private`` (a platform setting, for tests and
single-tenant installs) lifts the rule for loopback, private, link-local and unique-local addresses.
``allowed_networks`` (CIDRs a platform admin lists, say one internal relay) are allowed whatever their class.
Unspecified and multicast addresses are never allowed. IPv6 forms that embed an IPv4 address
(IPv4-mapped ``::ffff:a.b.c.d``, IPv4-compatible, NAT64 ``64:ff9b::/96``, 6to4 ``2002::/16``) are judged
by the IPv4 address they carry.

Every address a host name resolves to is checked (``resolve_checked``), and the caller connects only to an
address it checked: the name is never looked up twice (no DNS rebinding between check and use).
"""

from __future__ import annotations

import ipaddress
import socket
from collections.abc import Callable
from enum import StrEnum

__all__ = [
    "AddressClass",
    "BlockedAddress",
    "IPNetwork",
    "Resolver",
    "UnresolvableHost",
    "check_address",
    "classify",
    "resolve_checked",
    "system_resolver",
]

IPAddress = ipaddress.IPv4Address | ipaddress.IPv6Address
IPNetwork = ipaddress.IPv4Network | ipaddress.IPv6Network
Resolver = Callable[[str, int], list[str]]

_NAT64 = ipaddress.IPv6Network("64:ff9b::/96")
_SIX_TO_FOUR = ipaddress.IPv6Network("2002::/16")
_CGNAT = ipaddress.IPv4Network("100.64.0.0/10")


class AddressClass(StrEnum):
    PUBLIC = "public"
    LOOPBACK = "loopback"
    PRIVATE = "private"
    LINK_LOCAL = "link-local"
    UNIQUE_LOCAL = "unique-local"
    MULTICAST = "multicast"
    UNSPECIFIED = "unspecified"
    RESERVED = "reserved"


# What allow_private lifts; anything else that is not PUBLIC stays refused.
PRIVATE_CLASSES = frozenset(
    {AddressClass.LOOPBACK, AddressClass.PRIVATE, AddressClass.LINK_LOCAL, AddressClass.UNIQUE_LOCAL}
)


class BlockedAddress(ValueError):
    """A URL's host is, or resolves to, an address notifications may not reach."""


class UnresolvableHost(ValueError):
    """A URL's host name does not resolve."""


def _embedded_ipv4(address: ipaddress.IPv6Address) -> ipaddress.IPv4Address | None:
    if address.ipv4_mapped is not None:
        return address.ipv4_mapped
    if address in _NAT64:
        return ipaddress.IPv4Address(int(address) & 0xFFFFFFFF)
    if address.sixtofour is not None:
        return address.sixtofour
    packed = address.packed
    if packed[:12] == bytes(12) and int(address) > 1:  # IPv4-compatible ::a.b.c.d (deprecated)
        return ipaddress.IPv4Address(packed[12:])
    return None


def classify(address: IPAddress) -> AddressClass:
    """The class of ``address``; an IPv6 address carrying an IPv4 one is that IPv4 address's class."""
    if isinstance(address, ipaddress.IPv6Address):
        embedded = _embedded_ipv4(address)
        if embedded is not None:
            return classify(embedded)
    if address.is_unspecified:
        return AddressClass.UNSPECIFIED
    if address.is_loopback:
        return AddressClass.LOOPBACK
    if address.is_link_local:
        return AddressClass.LINK_LOCAL
    if address.is_multicast:
        return AddressClass.MULTICAST
    if isinstance(address, ipaddress.IPv6Address) and address in ipaddress.IPv6Network("fc00::/7"):
        return AddressClass.UNIQUE_LOCAL
    if isinstance(address, ipaddress.IPv6Address) and address.is_site_local:
        return AddressClass.PRIVATE
    if (
        isinstance(address, ipaddress.IPv4Address)
        and (address in _CGNAT or address.is_private)
        and not (address.is_reserved)
    ):
        # RFC 1918, CGNAT and the other non-global IPv4 blocks (documentation, benchmarking, 192.0.0.0/24).
        return AddressClass.PRIVATE
    if address.is_reserved or not address.is_global:
        return AddressClass.RESERVED
    return AddressClass.PUBLIC


def check_address(address: IPAddress, *, allow_private: bool, allowed_networks: tuple[IPNetwork, ...] = ()) -> None:
    """Raise ``BlockedAddress`` unless ``address`` may be reached."""
    found = classify(address)
    if found is AddressClass.PUBLIC or (allow_private and found in PRIVATE_CLASSES):
        return
    if found not in (AddressClass.UNSPECIFIED, AddressClass.MULTICAST) and any(
        address.version == network.version and address in network for network in allowed_networks
    ):
        return
    hint = " (NOTIFICATIONS_ALLOW_PRIVATE_ADDRESSES allows it)" if found in PRIVATE_CLASSES else ""
    raise BlockedAddress(f"{address} is a {found} address; notifications may not be sent there{hint}")


def system_resolver(host: str, port: int) -> list[str]:
    """Every address ``host`` resolves to (A and AAAA), in the resolver's order."""
    try:
        infos = socket.getaddrinfo(host, port, type=socket.SOCK_STREAM)
    except (socket.gaierror, UnicodeError) as exc:
        raise UnresolvableHost(f"{host} does not resolve: {exc}") from None
    return list(dict.fromkeys(str(info[4][0]) for info in infos))


def _literal(host: str) -> IPAddress | None:
    try:
        return ipaddress.ip_address(host.strip("[]").split("%", 1)[0])
    except ValueError:
        return None


def resolve_checked(
    host: str,
    port: int,
    *,
    allow_private: bool,
    allowed_networks: tuple[IPNetwork, ...] = (),
    resolver: Resolver = system_resolver,
) -> list[str]:
    """The addresses to connect to for ``host``: all of them checked, or ``BlockedAddress`` naming the first bad one.

    A literal address is checked as it is; a name is resolved once, and every answer must pass (one private
    answer among public ones refuses the name: a client may be steered to any of them)."""
    literal = _literal(host)
    if literal is not None:
        check_address(literal, allow_private=allow_private, allowed_networks=allowed_networks)
        return [str(literal)]
    answers = resolver(host, port)
    if not answers:
        raise UnresolvableHost(f"{host} does not resolve")
    for answer in answers:
        address = _literal(answer)
        if address is None:
            raise BlockedAddress(f"{host} resolved to {answer!r}, which is not an IP address")
        try:
            check_address(address, allow_private=allow_private, allowed_networks=allowed_networks)
        except BlockedAddress as exc:
            raise BlockedAddress(f"{host} resolves to {exc}") from None
    return [str(_literal(a)) for a in answers]
