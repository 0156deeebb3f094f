"""A release's trust policy in the API: the catalogs' signature_policy shape and key checks, chart_digest, the
verified digests (read-only status), and RELEASES_REQUIRE_SIGNATURES refusing a new release without a policy."""

from __future__ import annotations

import pytest
from cryptography.hazmat.primitives.asymmetric import ec

from gateways.models import Gateway, GatewayRelease, ReleaseEvent
from tests.fixtures.registry import public_pem
from tests.paths import MIRROR_CHART

pytestmark = pytest.mark.django_db

P256 = public_pem(ec.generate_private_key(ec.SECP256R1()))
DIGEST = "sha256:" + "ab" * 32
IMAGES = {"image": "reg.example.test/openshell/gateway:1.0", "supervisor_image": "reg.example.test/openshell/sv:1.0"}


def body(**overrides: object) -> dict:
    return {
        "name": "signed",
        "chart": str(MIRROR_CHART),
        "chart_digest": DIGEST,
        "signature_policy": {"public_keys": P256},
        **IMAGES,
        **overrides,
    }


def fields(response) -> dict:
    assert response.status_code == 400, response.content
    return response.json()["error"]["fields"]


def test_a_policy_is_stored_and_shown_its_keys_may_change_and_it_is_never_added_or_removed(admin_api) -> None:
    response = admin_api.post("/api/v1/releases/", body(), format="json")
    assert response.status_code == 201, response.content
    created = response.json()
    assert created["signature_policy"] == {"public_keys": P256.strip()} and created["chart_digest"] == DIGEST
    assert created["status"]["status"] == "Pending" and created["status"]["verified_digests"] is None
    release = GatewayRelease.objects.get()
    assert (release.signature_keys, release.chart_digest, release.verified_digests) == (P256.strip(), DIGEST, {})
    url = f"/api/v1/releases/{created['id']}/"
    other = public_pem(ec.generate_private_key(ec.SECP256R1()))
    changed = admin_api.patch(url, {"signature_policy": {"public_keys": other}}, format="json")
    assert changed.status_code == 200 and changed.json()["signature_policy"] == {"public_keys": other.strip()}
    assert (
        "added or removed"
        in fields(admin_api.patch(url, {"signature_policy": None}, format="json"))["signature_policy.public_keys"][0]
    )
    assert "chart_digest" in fields(admin_api.patch(url, {"chart_digest": "sha256:" + "cd" * 32}, format="json"))
    unsigned = admin_api.post(
        "/api/v1/releases/", {"name": "unsigned", "chart": str(MIRROR_CHART), **IMAGES}, format="json"
    ).json()
    assert "signature_policy.public_keys" in fields(
        admin_api.patch(
            f"/api/v1/releases/{unsigned['id']}/", {"signature_policy": {"public_keys": P256}}, format="json"
        )
    )
    assert GatewayRelease.objects.get(pk=created["id"]).signature_keys == other.strip()


def test_verified_digests_are_shown_once_the_worker_wrote_them(admin_api) -> None:
    created = admin_api.post("/api/v1/releases/", body(), format="json").json()
    verified = {
        "chart": DIGEST,
        "image": "sha256:" + "1" * 64,
        "supervisor_image": "sha256:" + "2" * 64,
        "key": "sha256:" + "3" * 64,
        "keys": "sha256:" + "4" * 64,
        "verified_at": "2026-12-05T14:00:00+00:00",
    }
    GatewayRelease.objects.filter(pk=created["id"]).update(verified_digests=verified, status="Ready")
    shown = admin_api.get(f"/api/v1/releases/{created['id']}/").json()["status"]["verified_digests"]
    assert shown == {k: v for k, v in verified.items() if k != "keys"} | {"verified_at": "2026-12-05T14:00:00Z"}


def test_a_release_lists_its_events_for_platform_admins_only(admin_api, alice_api) -> None:
    created = admin_api.post("/api/v1/releases/", body(), format="json").json()
    ReleaseEvent.objects.create(
        release_id=created["id"],
        type="Warning",
        reason="VerificationFailed",
        message="verification failed: image r/x:1: no cosign signature found",
    )
    url = f"/api/v1/releases/{created['id']}/events/"
    [event] = admin_api.get(url).json()["results"]
    assert (event["type"], event["reason"]) == ("Warning", "VerificationFailed") and "no cosign" in event["message"]
    assert alice_api.get(url).status_code == 403


@pytest.mark.parametrize(
    ("overrides", "field", "text"),
    [
        ({"signature_policy": {"public_keys": "hello"}}, "signature_policy.public_keys", "PEM public keys"),
        ({"signature_policy": {"public_keys": P256 * 2}}, "signature_policy.public_keys", "repeats key 1"),
        ({"image": "", "supervisor_image": ""}, "image", "names both images"),
        ({"chart_digest": ""}, "chart_digest", "needs the chart's chart_digest"),
        ({"chart_digest": "sha256:ABC"}, "chart_digest", "sha256:<64 lowercase hex digits>"),
        ({"chart": "oci://reg.example.test/charts/gw", "version": "1.0.0"}, "chart_digest", "for a local chart"),
    ],
)
def test_a_policy_the_worker_could_not_verify_is_refused(admin_api, overrides, field, text) -> None:
    errors = fields(admin_api.post("/api/v1/releases/", body(**overrides), format="json"))
    assert text in " ".join(errors[field]), errors
    assert not GatewayRelease.objects.exists()


def test_releases_require_signatures_refuses_a_new_release_without_a_policy(admin_api, settings) -> None:
    unsigned = {"name": "unsigned", "chart": str(MIRROR_CHART), **IMAGES}
    old = admin_api.post("/api/v1/releases/", {**unsigned, "name": "old"}, format="json").json()
    settings.RELEASES_REQUIRE_SIGNATURES = True
    errors = fields(admin_api.post("/api/v1/releases/", unsigned, format="json"))
    assert "RELEASES_REQUIRE_SIGNATURES is on" in errors["signature_policy.public_keys"][0]
    assert "signature_policy.public_keys" in fields(
        admin_api.post("/api/v1/releases/", {**unsigned, "signature_policy": None}, format="json")
    )
    assert list(GatewayRelease.objects.values_list("name", flat=True)) == ["old"]
    assert admin_api.post("/api/v1/releases/", body(), format="json").status_code == 201
    # A release from before the setting stays usable: making it the default is no new release.
    assert admin_api.patch(f"/api/v1/releases/{old['id']}/", {"default": True}, format="json").status_code == 200

    settings.RELEASES_REQUIRE_SIGNATURES = False
    assert admin_api.post("/api/v1/releases/", unsigned, format="json").status_code == 201


def test_a_cluster_that_requires_signed_releases_refuses_gateways_and_rollouts_on_unsigned_ones(
    admin_api,
    alice_api,
    alice,
    cluster,
) -> None:
    unsigned = GatewayRelease.objects.create(name="unsigned", chart=str(MIRROR_CHART), default=True, **IMAGES)
    gateway = Gateway(owner=alice, cluster=cluster, name="before", release=unsigned)  # from before the requirement
    gateway.assign_namespace()
    gateway.save()
    changed = admin_api.patch(f"/api/v1/clusters/{cluster.pk}/", {"require_signed_releases": True}, format="json")
    assert changed.status_code == 200 and changed.json()["require_signed_releases"] is True

    errors = fields(alice_api.post("/api/v1/gateways/", {"name": "edge", "cluster": "east"}, format="json"))
    assert "runs only signed releases" in errors["cluster"][0] and "release unsigned" in errors["cluster"][0]
    rollout = {"name": "back", "target_release": "unsigned", "selector": {"clusters": ["east"]}}
    signed = GatewayRelease.objects.create(
        name="signed", status="Ready", signature_keys=P256, chart=str(MIRROR_CHART), chart_digest=DIGEST, **IMAGES
    )
    Gateway.objects.filter(pk=gateway.pk).update(release=signed)
    errors = fields(admin_api.post("/api/v1/rollouts/", rollout, format="json"))
    assert "runs only signed releases" in errors["target_release"][0]

    GatewayRelease.objects.filter(pk=unsigned.pk).update(default=False)
    GatewayRelease.objects.filter(pk=signed.pk).update(default=True)
    assert alice_api.post("/api/v1/gateways/", {"name": "edge", "cluster": "east"}, format="json").status_code == 201
