"""A release's page in the console (headless Chromium): what was verified, with which key and when, and why a
release no longer verifies, with its events."""

from __future__ import annotations

import pytest
from cryptography.hazmat.primitives.asymmetric import ec

from controlplane.signing_keys import keys_fingerprint
from gateways.models import GatewayRelease, ReleaseEvent
from tests.fixtures.browser import Console
from tests.fixtures.registry import public_pem
from tests.paths import MIRROR_CHART

pytestmark = pytest.mark.browser

GW, SV = "reg.example.test/openshell/gateway:1.0", "reg.example.test/openshell/supervisor:1.0"
CHART, IMAGE, SUPERVISOR, KEY = ("sha256:" + c * 64 for c in "abcd")


def signed_release(name: str, **fields: object) -> GatewayRelease:
    keys = public_pem(ec.generate_private_key(ec.SECP256R1()))
    verified = {
        "chart": CHART,
        "image": IMAGE,
        "supervisor_image": SUPERVISOR,
        "key": KEY,
        "keys": keys_fingerprint(keys),
        "verified_at": "2026-12-05T14:00:00+00:00",
    }
    return GatewayRelease.objects.create(
        name=name,
        chart=str(MIRROR_CHART),
        chart_digest=CHART,
        image=GW,
        supervisor_image=SV,
        signature_keys=keys,
        status="Ready",
        verified_digests=verified,
        **fields,
    )


def test_a_release_page_shows_what_was_verified_with_which_key_and_when(console: Console, staff_user) -> None:
    signed_release(
        "verified",
        conditions=[
            {
                "type": "Verified",
                "status": "True",
                "reason": "Verified",
                "message": "Verified",
                "lastTransitionTime": "2026-12-05T14:00:00+00:00",
                "observedGeneration": 0,
            }
        ],
    )
    failed = signed_release(
        "rotated",
        conditions=[
            {
                "type": "Verified",
                "status": "False",
                "reason": "VerificationFailed",
                "message": (
                    "verification failed: image reg.example.test/openshell/gateway:1.0: no signature by a trusted key"
                ),
                "lastTransitionTime": "2026-12-05T14:00:00+00:00",
                "observedGeneration": 0,
            }
        ],
    )
    ReleaseEvent.objects.create(
        release=failed, type="Warning", reason="VerificationFailed", message=failed.conditions[0]["message"]
    )
    staff_user("platform", superuser=True)
    console.login("platform")

    console.open("/admin/gateways/gatewayrelease/")
    rows = {row.text.split()[0]: row.text for row in console.find_all("#result_list tbody tr")}
    assert "Verified" in rows["verified"] and "Not verified" in rows["rotated"], rows

    verified = GatewayRelease.objects.get(name="verified")
    console.open(f"/admin/gateways/gatewayrelease/{verified.pk}/change/")
    shown = console.find(".field-verified_display").text
    console.screenshot("release-verified")
    assert GW in shown and IMAGE in shown and SUPERVISOR in shown and CHART in shown
    assert f"with the key {KEY}" in shown and "Verified" in shown
    assert console.find("textarea[name='signature_keys']")  # its keys may change here, as through the API

    console.open(f"/admin/gateways/gatewayrelease/{failed.pk}/change/")
    assert "no signature by a trusted key" in console.find(".field-verified_display").text
    assert "VerificationFailed" in console.find(".field-events_display").text
    console.screenshot("release-not-verified")
