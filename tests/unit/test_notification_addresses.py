"""The SSRF address rules: every class of address, embedded IPv4, every DNS answer, the allow settings."""

from __future__ import annotations

import ipaddress

import pytest

from notifications.addresses import (
    AddressClass,
    BlockedAddress,
    UnresolvableHost,
    classify,
    resolve_checked,
    system_resolver,
)


@pytest.mark.parametrize(
    ("address", "expected"),
    [
        ("8.8.8.8", AddressClass.PUBLIC),
        ("2606:4700::1111", AddressClass.PUBLIC),
        ("127.0.0.1", AddressClass.LOOPBACK),
        ("127.8.9.10", AddressClass.LOOPBACK),
        ("::1", AddressClass.LOOPBACK),
        ("10.1.2.3", AddressClass.PRIVATE),
        ("172.16.0.1", AddressClass.PRIVATE),
        ("192.168.1.1", AddressClass.PRIVATE),
        ("100.64.0.1", AddressClass.PRIVATE),  # CGNAT
        ("169.254.169.254", AddressClass.LINK_LOCAL),  # cloud metadata
        ("fe80::1", AddressClass.LINK_LOCAL),
        ("fd12:3456::1", AddressClass.UNIQUE_LOCAL),
        ("fc00::1", AddressClass.UNIQUE_LOCAL),
        ("224.0.0.1", AddressClass.MULTICAST),
        ("ff02::1", AddressClass.MULTICAST),
        ("0.0.0.0", AddressClass.UNSPECIFIED),
        ("::", AddressClass.UNSPECIFIED),
        ("240.0.0.1", AddressClass.RESERVED),
        ("255.255.255.255", AddressClass.RESERVED),
        ("2001:db8::1", AddressClass.RESERVED),  # documentation
        ("::ffff:127.0.0.1", AddressClass.LOOPBACK),  # IPv4-mapped
        ("::ffff:10.0.0.1", AddressClass.PRIVATE),
        ("::ffff:8.8.8.8", AddressClass.PUBLIC),
        ("::127.0.0.1", AddressClass.LOOPBACK),  # IPv4-compatible
        ("64:ff9b::a9fe:a9fe", AddressClass.LINK_LOCAL),  # NAT64 of 169.254.169.254
        ("2002:7f00:1::", AddressClass.LOOPBACK),  # 6to4 of 127.0.0.1
    ],
)
def test_classify(address: str, expected: AddressClass) -> None:
    assert classify(ipaddress.ip_address(address)) is expected


@pytest.mark.parametrize("host", ["127.0.0.1", "[::1]", "10.0.0.1", "169.254.169.254", "::ffff:127.0.0.1", "fd00::1"])
def test_a_literal_private_address_is_refused_unless_allowed(host: str) -> None:
    with pytest.raises(BlockedAddress, match="NOTIFICATIONS_ALLOW_PRIVATE_ADDRESSES"):
        resolve_checked(host, 443, allow_private=False)
    assert resolve_checked(host, 443, allow_private=True)


@pytest.mark.parametrize("host", ["0.0.0.0", "224.0.0.1", "240.0.0.1"])
def test_unspecified_multicast_and_reserved_are_refused_even_when_private_is_allowed(host: str) -> None:
    with pytest.raises(BlockedAddress):
        resolve_checked(host, 443, allow_private=True)


def resolver_of(answers: dict[str, list[str]]):
    def resolve(host: str, port: int) -> list[str]:
        if host not in answers:
            raise UnresolvableHost(f"{host} does not resolve")
        return answers[host]

    return resolve


def test_a_name_is_refused_when_any_answer_is_private() -> None:
    resolve = resolver_of({"hooks.example.test": ["93.184.216.34", "10.0.0.7"], "ok.example.test": ["93.184.216.34"]})
    with pytest.raises(BlockedAddress, match=r"hooks.example.test resolves to 10.0.0.7 is a private address"):
        resolve_checked("hooks.example.test", 443, allow_private=False, resolver=resolve)
    assert resolve_checked("ok.example.test", 443, allow_private=False, resolver=resolve) == ["93.184.216.34"]


def test_a_name_resolving_to_a_mapped_loopback_is_refused() -> None:
    resolve = resolver_of({"sneaky.example.test": ["::ffff:127.0.0.1"]})
    with pytest.raises(BlockedAddress, match="loopback"):
        resolve_checked("sneaky.example.test", 443, allow_private=False, resolver=resolve)


def test_localhost_resolves_to_loopback_and_is_refused() -> None:
    with pytest.raises(BlockedAddress, match=r"localhost resolves to .* loopback"):
        resolve_checked("localhost", 443, allow_private=False, resolver=system_resolver)


def test_allowed_networks_admit_just_those_addresses() -> None:
    relay = (ipaddress.ip_network("10.1.2.3/32"),)
    assert resolve_checked("10.1.2.3", 443, allow_private=False, allowed_networks=relay) == ["10.1.2.3"]
    with pytest.raises(BlockedAddress):
        resolve_checked("10.1.2.4", 443, allow_private=False, allowed_networks=relay)
    with pytest.raises(BlockedAddress):
        resolve_checked("0.0.0.0", 443, allow_private=False, allowed_networks=(ipaddress.ip_network("0.0.0.0/0"),))


def test_an_unresolvable_name_says_so() -> None:
    with pytest.raises(UnresolvableHost):
        resolve_checked("nowhere.example.test", 443, allow_private=False, resolver=resolver_of({}))
