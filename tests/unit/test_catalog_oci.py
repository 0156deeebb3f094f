"""Registry transport rules, auth challenges, manifests and platform choice (pure)."""

from __future__ import annotations

import pytest

from workers.drivers.oci_auth import is_loopback, parse_challenge, realm_allowed, registry_scheme
from workers.drivers.oci_errors import InvalidImage
from workers.drivers.oci_manifest import (
    DOCKER_LIST,
    OCI_MANIFEST,
    media_type_of,
    parse_descriptor,
    parse_image_manifest,
    select_platform,
)

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
    [("https://auth.example/token", True), ("http://127.0.0.1:9/token", True), ("http://auth.example/token", False),
     ("ftp://x", False), ("", False)],
)
def test_token_realm_must_be_safe(realm: str, allowed: bool) -> None:
    assert realm_allowed(realm) is allowed


def test_parse_bearer_challenge() -> None:
    challenge = parse_challenge(
        'Bearer realm="https://auth.example/token",service="registry.example",scope="repository:a/b:pull,push"'
    )
    assert challenge.scheme == "bearer"
    assert challenge.params == {
        "realm": "https://auth.example/token", "service": "registry.example", "scope": "repository:a/b:pull,push",
    }


def test_parse_basic_challenge() -> None:
    assert parse_challenge('Basic realm="tests"').scheme == "basic"
    assert is_loopback("::1") and not is_loopback("example.com")


def test_select_platform_prefers_linux_amd64() -> None:
    index = {"manifests": [
        {"digest": "sha256:" + "b" * 64, "size": 1, "platform": {"os": "linux", "architecture": "arm64"}},
        {"digest": DIGEST, "size": 2, "platform": {"os": "linux", "architecture": "amd64"}},
    ]}
    assert select_platform(index).digest == DIGEST
    with pytest.raises(InvalidImage, match="no linux/amd64"):
        select_platform({"manifests": index["manifests"][:1]})


@pytest.mark.parametrize(
    "raw",
    [None, {"digest": "md5:abc", "size": 1}, {"digest": DIGEST}, {"digest": DIGEST, "size": -1},
     {"digest": DIGEST, "size": True}, {"digest": DIGEST, "size": 1, "urls": ["https://elsewhere"]}],
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
