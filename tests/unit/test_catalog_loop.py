"""The catalog loop with fakes: an in-memory row, registry and store; no PostgreSQL, no registry."""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass, field
from datetime import UTC, datetime

import pytest

from workers.drivers.cosign import SignatureInvalid
from workers.drivers.oci_errors import RegistryUnreachable
from workers.reconcile.catalog import loop, unpack
from workers.reconcile.catalog.outcome import CatalogOutcome, Switch
from workers.reconcile.catalog.request import CatalogRequest
from workers.reconcile.catalog.state import CatalogState

NOW = datetime(2026, 12, 1, 12, 0, tzinfo=UTC)
DIGEST = "sha256:" + "d" * 64
CONTENT = "sha256:" + "c" * 64
KEYS = "-----BEGIN PUBLIC KEY-----\nAAAA\n-----END PUBLIC KEY-----"


def catalog(**overrides: object) -> CatalogRequest:
    values: dict = {
        "pk": "1",
        "name": "ops",
        "generation": 1,
        "image_ref": "127.0.0.1:5000/cat:v1",
        "available": True,
        "pull_username": "",
        "pull_password": "",
        "ca": "",
        "conditions": (),
        "observed_generation": 0,
        "resolved_ref": "",
        "base_url": "",
        "last_unpacked": None,
        "content_digest": "",
        "content_present": False,
    }
    return CatalogRequest(**{**values, **overrides})


@dataclass
class FakeIo:
    """One catalog row; ``fenced`` makes every save fail as a pass whose lease was taken over would."""

    row: CatalogRequest | None
    digest: str = DIGEST
    content: str = CONTENT
    resolve_error: Exception | None = None
    verify_error: Exception | None = None
    fenced: bool = False
    calls: list[str] = field(default_factory=list)
    saved: list[CatalogOutcome] = field(default_factory=list)

    def load(self, pk: str) -> CatalogRequest | None:
        return self.row

    def resolve(self, request: CatalogRequest) -> str:
        self.calls.append("resolve")
        if self.resolve_error:
            raise self.resolve_error
        return self.digest

    def verify(self, request: CatalogRequest, digest: str) -> None:
        self.calls.append(f"verify {digest}")
        if self.verify_error:
            raise self.verify_error

    def unpack(self, request: CatalogRequest, digest: str) -> str:
        self.calls.append(f"unpack {digest}")
        return self.content

    def describe_switch(self, previous: str | None, current: str) -> Switch:
        return Switch(summary=f"{previous} -> {current}", changes={})

    def base_url(self, request: CatalogRequest) -> str:
        return f"http://cp/catalogs/{request.name}"

    def save(self, request: CatalogRequest, outcome: CatalogOutcome, now: datetime) -> bool:
        if self.fenced or self.row is None or self.row.generation != request.generation:
            return False
        self.saved.append(outcome)
        self.row = self.row.after(outcome, now)
        return True


def reasons(io: FakeIo) -> list[str]:
    return [e.reason for o in io.saved for e in o.events]


def test_a_new_catalog_is_unpacked_then_in_sync() -> None:
    io = FakeIo(catalog())
    assert loop.run("1", io, now=NOW) == CatalogOutcome()
    assert io.calls == ["resolve", f"unpack {DIGEST}"]
    assert reasons(io) == ["Unpacked"]
    assert io.row is not None and io.row.content_digest == CONTENT and io.row.content_present
    assert io.row.resolved_ref == f"127.0.0.1:5000/cat@{DIGEST}" and io.row.base_url == "http://cp/catalogs/ops"


def test_in_sync_writes_nothing_new() -> None:
    served = catalog(resolved_ref=f"127.0.0.1:5000/cat@{DIGEST}", content_digest=CONTENT, content_present=True)
    io = FakeIo(served)
    assert loop.run("1", io, now=NOW) == CatalogOutcome()
    assert io.calls == ["resolve"]
    assert [o.changes for o in io.saved] == [True]  # observes the generation once
    io.saved.clear()
    assert loop.run("1", io, now=NOW) == CatalogOutcome() and io.saved == []


def test_unavailable_drops_without_asking_the_registry() -> None:
    io = FakeIo(catalog(available=False, content_digest=CONTENT, content_present=True))
    assert loop.run("1", io, now=NOW) == CatalogOutcome()
    assert io.calls == []
    assert reasons(io) == ["Dropped"] and io.saved[0].release_content == CONTENT


def test_served_content_unverified_by_new_keys_is_verified_not_pulled() -> None:
    served = catalog(
        resolved_ref=f"127.0.0.1:5000/cat@{DIGEST}",
        content_digest=CONTENT,
        content_present=True,
        signature_keys=KEYS,
    )
    io = FakeIo(served)
    assert loop.run("1", io, now=NOW) == CatalogOutcome()
    assert io.calls == ["resolve", f"verify {DIGEST}"]
    assert reasons(io) == ["Verified"]
    assert io.row is not None and not io.row.needs_verification


def test_a_retryable_failure_is_counted_and_requeued() -> None:
    io = FakeIo(catalog(), resolve_error=RegistryUnreachable("registry down"))
    result = loop.run("1", io, now=NOW)
    assert result.requeue_after is not None and result.requeue_after > 0 and result.failed and not result.superseded
    assert io.row is not None and io.row.failure_count == 1 and reasons(io) == ["Retrying"]


def test_a_terminal_failure_is_not_requeued() -> None:
    served = catalog(
        resolved_ref=f"127.0.0.1:5000/cat@{DIGEST}",
        content_digest=CONTENT,
        content_present=True,
        signature_keys=KEYS,
    )
    io = FakeIo(served, verify_error=SignatureInvalid("no signature verifies"))
    assert loop.run("1", io, now=NOW) == CatalogOutcome(failed=True)
    assert reasons(io) == ["SignatureInvalid"]


def test_a_blocked_digest_is_not_pulled_again() -> None:
    io = FakeIo(catalog(blocked_digest=DIGEST, observed_generation=1))
    assert loop.run("1", io, now=NOW) == CatalogOutcome()
    assert io.calls == ["resolve"] and io.saved == []


def test_a_fenced_out_pass_writes_nothing_and_is_superseded() -> None:
    io = FakeIo(catalog(), fenced=True)
    assert loop.run("1", io, now=NOW) == CatalogOutcome(superseded=True)
    assert io.calls == ["resolve", f"unpack {DIGEST}"] and io.saved == []


def test_a_gone_catalog_ends_the_pass() -> None:
    io = FakeIo(None)
    assert loop.run("1", io, now=NOW) == CatalogOutcome() and io.calls == []


def test_an_action_that_does_not_converge_runs_once(monkeypatch: pytest.MonkeyPatch) -> None:
    def unpack_without_serving(request: CatalogRequest, io: FakeIo, digest: str, now: datetime) -> CatalogOutcome:
        assert not io.saved, "the loop ran its action again"
        return dataclasses.replace(unpack.run(request, io, digest, now), content_present=False)

    monkeypatch.setitem(loop.ACTIONS, CatalogState.OUT_OF_SYNC, unpack_without_serving)
    io = FakeIo(catalog())
    assert loop.run("1", io, now=NOW) == CatalogOutcome()
    assert io.calls == ["resolve", f"unpack {DIGEST}"] and len(io.saved) == 1
