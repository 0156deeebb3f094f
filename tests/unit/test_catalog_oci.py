"""Registry transport rules, auth challenges and their cache, Retry-After, manifests and platform choice (pure)."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest

from workers.drivers.oci_auth import (
    Challenge,
    Credentials,
    is_loopback,
    parse_challenge,
    realm_allowed,
    registry_scheme,
)
from workers.drivers.oci_auth_cache import AuthCache, Remembered, cache_key, token_expiry
from workers.drivers.oci_errors import InvalidImage
from workers.drivers.oci_manifest import (
    DOCKER_LIST,
    OCI_MANIFEST,
    media_type_of,
    parse_descriptor,
    parse_image_manifest,
    select_platform,
)
from workers.drivers.retry_after import parse_retry_after

DIGEST = "sha256:" + "a" * 64
LAYER = {"mediaType": "application/vnd.oci.image.layer.v1.tar+gzip", "digest": DIGEST, "size": 3}


@pytest.mark.parametrize(
    ("registry", "has_ca", "scheme"),
    [
        ("127.0.0.1:5000", False, "http"),
        ("localhost:5000", False, "http"),
        ("[::1]:5000", False, "http"),
        ("127.0.0.1:5000", True, "https"),
        ("quay.io", False, "https"),
        ("10.0.0.1:5000", False, "https"),
        ("127.0.0.1.evil.example:5000", False, "https"),
    ],
)
def test_plain_http_only_for_loopback(registry: str, has_ca: bool, scheme: str) -> None:
    assert registry_scheme(registry, has_ca=has_ca) == scheme


@pytest.mark.parametrize(
    ("realm", "allowed"),
    [
        ("https://auth.example/token", True),
        ("http://127.0.0.1:9/token", True),
        ("http://auth.example/token", False),
        ("ftp://x", False),
        ("", False),
    ],
)
def test_token_realm_must_be_safe(realm: str, allowed: bool) -> None:
    assert realm_allowed(realm) is allowed


def test_parse_bearer_challenge() -> None:
    challenge = parse_challenge(
        'Bearer realm="https://auth.example/token",service="registry.example",scope="repository:a/b:pull,push"'
    )
    assert challenge.scheme == "bearer"
    assert challenge.params == {
        "realm": "https://auth.example/token",
        "service": "registry.example",
        "scope": "repository:a/b:pull,push",
    }


def test_parse_basic_challenge() -> None:
    assert parse_challenge('Basic realm="tests"').scheme == "basic"
    assert is_loopback("::1") and not is_loopback("example.com")


def test_select_platform_prefers_linux_amd64() -> None:
    index = {
        "manifests": [
            {"digest": "sha256:" + "b" * 64, "size": 1, "platform": {"os": "linux", "architecture": "arm64"}},
            {"digest": DIGEST, "size": 2, "platform": {"os": "linux", "architecture": "amd64"}},
        ]
    }
    assert select_platform(index).digest == DIGEST
    with pytest.raises(InvalidImage, match="no linux/amd64"):
        select_platform({"manifests": index["manifests"][:1]})


@pytest.mark.parametrize(
    "raw",
    [
        None,
        {"digest": "md5:abc", "size": 1},
        {"digest": DIGEST},
        {"digest": DIGEST, "size": -1},
        {"digest": DIGEST, "size": True},
        {"digest": DIGEST, "size": 1, "urls": ["https://elsewhere"]},
    ],
)
def test_bad_descriptors(raw: object) -> None:
    with pytest.raises(InvalidImage):
        parse_descriptor(raw)


def test_manifest_parsing() -> None:
    manifest = parse_image_manifest({"config": {**LAYER, "mediaType": "x"}, "layers": [LAYER]})
    assert manifest.layers[0].size == 3
    with pytest.raises(InvalidImage, match="no layers"):
        parse_image_manifest({"config": LAYER, "layers": []})
    with pytest.raises(InvalidImage, match="unsupported layer media type"):
        parse_image_manifest({"config": LAYER, "layers": [{**LAYER, "mediaType": "application/x-zstd"}]})


@pytest.mark.parametrize(
    ("document", "content_type", "expected"),
    [
        ({"mediaType": DOCKER_LIST}, "", DOCKER_LIST),
        ({}, OCI_MANIFEST + "; charset=utf-8", OCI_MANIFEST),
        ({"layers": []}, "application/json", OCI_MANIFEST),
        ({"manifests": []}, "", "application/vnd.oci.image.index.v1+json"),
    ],
)
def test_media_type_detection(document: dict, content_type: str, expected: str) -> None:
    assert media_type_of(document, content_type) == expected


def test_unknown_media_type_is_invalid() -> None:
    with pytest.raises(InvalidImage):
        media_type_of({"mediaType": "application/vnd.docker.distribution.manifest.v1+json"}, "")


NOW = datetime(2026, 1, 2, 3, 4, 5, tzinfo=UTC)


@pytest.mark.parametrize(
    ("value", "seconds"),
    [
        ("120", 120.0),
        (" 0 ", 0.0),
        ("Fri, 02 Jan 2026 03:06:05 GMT", 120.0),
        ("Fri, 02 Jan 2026 03:00:00 GMT", 0.0),  # in the past: now
        ("Friday, 02-Jan-26 03:06:05 GMT", 120.0),
        ("-5", None),
        ("1.5", None),
        ("soon", None),
        ("", None),
        (None, None),
        ("²", None),
    ],
)
def test_parse_retry_after(value: str | None, seconds: float | None) -> None:
    assert parse_retry_after(value, NOW) == seconds


CHALLENGE = Challenge("bearer", {"realm": "https://auth.example/token", "service": "r"})


def test_auth_cache_keys_on_credentials_and_forgets_the_oldest() -> None:
    cache = AuthCache(max_entries=2)
    alice, eve = Credentials("alice", "pw-one"), Credentials("alice", "pw-two")
    cache.put(cache_key("https://r/v2/a", alice), Remembered(CHALLENGE, "Bearer one", expires_at=None))
    assert cache.get(cache_key("https://r/v2/a", eve)) is None
    assert cache.get(cache_key("https://r/v2/b", alice)) is None
    assert "pw-one" not in repr(cache_key("https://r/v2/a", alice))
    cache.put(cache_key("https://r/v2/b", None), Remembered(CHALLENGE, "Bearer two", expires_at=None))
    cache.put(cache_key("https://r/v2/c", None), Remembered(CHALLENGE, "Bearer three", expires_at=None))
    assert cache.get(cache_key("https://r/v2/a", alice)) is None  # the least recently used went
    assert cache.get(cache_key("https://r/v2/c", None)).authorization == "Bearer three"


@pytest.mark.parametrize(
    ("expires_in", "fresh_until"),
    [(300, 1270.0), (None, 1054.0), ("300", 1054.0), (-1, 1054.0), (True, 1054.0), (0, 1000.0)],
)
def test_token_expiry(expires_in: object, fresh_until: float) -> None:
    entry = Remembered(CHALLENGE, "Bearer t", expires_at=token_expiry(expires_in, 1000.0))
    assert entry.expires_at == pytest.approx(fresh_until)
    assert not entry.fresh(fresh_until) and (fresh_until == 1000.0 or entry.fresh(fresh_until - 1))
