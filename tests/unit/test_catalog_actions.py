"""Each catalog action on its own, against the fake I/O of the loop's tests."""

from __future__ import annotations

import pytest

from tests.unit.test_catalog_loop import CONTENT, DIGEST, KEYS, NOW, FakeIo, catalog
from workers.drivers.cosign import SignatureInvalid
from workers.reconcile.catalog import drop, unpack, verify

REF = f"127.0.0.1:5000/cat@{DIGEST}"


def test_unpack_switches_to_the_new_content_and_says_what_changed() -> None:
    request = catalog(resolved_ref="127.0.0.1:5000/cat@sha256:old", content_digest="sha256:prev", content_present=True)
    io = FakeIo(request)
    step = unpack.run(request, io, DIGEST, NOW)
    assert io.calls == [f"unpack {DIGEST}"]
    assert step.require_content == CONTENT and step.switch is not None
    assert step.switch.summary == f"sha256:prev -> {CONTENT}"
    assert (step.status.resolved_ref, step.status.base_url) == (REF, "http://cp/catalogs/ops")
    assert [e.reason for e in step.events] == ["Unpacked"]


def test_unpack_restores_lost_content_without_a_switch() -> None:
    request = catalog(resolved_ref=REF, content_digest=CONTENT, content_present=False)
    step = unpack.run(request, FakeIo(request), DIGEST, NOW)
    assert step.switch is None and step.require_content == CONTENT
    assert [e.reason for e in step.events] == ["ContentRestored"]


def test_verify_records_the_keys_without_pulling() -> None:
    request = catalog(resolved_ref=REF, content_digest=CONTENT, content_present=True, signature_keys=KEYS)
    io = FakeIo(request)
    step = verify.run(request, io, DIGEST, NOW)
    assert io.calls == [f"verify {DIGEST}"]
    assert step.status.verified_keys == request.keys_fingerprint and not step.require_content
    assert [e.reason for e in step.events] == ["Verified"]


def test_verify_raises_when_no_signature_verifies() -> None:
    request = catalog(resolved_ref=REF, content_digest=CONTENT, content_present=True, signature_keys=KEYS)
    with pytest.raises(SignatureInvalid):
        verify.run(request, FakeIo(request, verify_error=SignatureInvalid("unsigned")), DIGEST, NOW)


def test_drop_serves_nothing_and_releases_the_content() -> None:
    request = catalog(available=False, resolved_ref=REF, content_digest=CONTENT, content_present=True)
    io = FakeIo(request)
    step = drop.run(request, io, "", NOW)
    assert io.calls == [] and not step.content_present and step.release_content == CONTENT
    assert step.status.content_digest == "" and [e.reason for e in step.events] == ["Dropped"]
