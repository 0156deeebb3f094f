"""Catalog API: catalogd's validation rules, defaulting, admin-only writes, write-only credentials."""

from __future__ import annotations

import pytest

from catalogs.choices import METADATA_NAME_LABEL
from catalogs.models import Catalog

pytestmark = pytest.mark.django_db

POLL = "source.image.poll_interval_minutes"
DIGEST_REF = "quay.io/operatorhubio/catalog@sha256:" + "b" * 64


def body(**overrides: object) -> dict:
    return {"name": "operatorhub", "source": {"image": {"ref": "quay.io/operatorhubio/catalog:latest"}}, **overrides}


def test_create_defaults_metadata_name_label(admin_api) -> None:
    response = admin_api.post("/api/v1/catalogs/", body(labels={"team": "platform"}), format="json")
    assert response.status_code == 201, response.content
    data = response.json()
    assert data["labels"] == {"team": "platform", METADATA_NAME_LABEL: "operatorhub"}
    assert data["availability_mode"] == "Available" and data["priority"] == 0
    assert data["status"] == {
        "conditions": [],
        "observed_generation": 0,
        "resolved_ref": "",
        "urls": {"base": ""},
        "last_unpacked": None,
        "signature_verified": False,
        "blocked_digest": "",
    }
    assert data["signature_policy"] is None


def test_a_cluster_catalog_shaped_source_creates_a_catalog(admin_api) -> None:
    """catalogd's ClusterCatalog spec names the source type; ``Image`` is the one there is, and is read back."""
    source = {"type": "Image", "image": {"ref": "quay.io/operatorhubio/catalog:latest", "poll_interval_minutes": 10}}
    response = admin_api.post("/api/v1/catalogs/", body(source=source), format="json")
    assert response.status_code == 201, response.content
    assert response.json()["source"] == source
    catalog = Catalog.objects.get()
    assert (catalog.image_ref, catalog.poll_interval_minutes) == (source["image"]["ref"], 10)
    untyped = admin_api.post("/api/v1/catalogs/", body(name="untyped"), format="json")
    assert untyped.json()["source"]["type"] == "Image"


@pytest.mark.parametrize("source_type", ["Git", "image", "", None, 1])
def test_a_source_type_other_than_image_is_400_naming_it(admin_api, source_type: object) -> None:
    source = {"type": source_type, "image": {"ref": "quay.io/operatorhubio/catalog:latest"}}
    response = admin_api.post("/api/v1/catalogs/", body(source=source), format="json")
    assert response.status_code == 400, response.content
    message = response.json()["error"]["fields"]["source.type"][0]
    assert (f'"{source_type}" is not a source type' in message) if source_type else message, message
    assert not Catalog.objects.exists()


def test_label_default_is_reapplied_on_every_write(admin_api) -> None:
    catalog = admin_api.post("/api/v1/catalogs/", body(), format="json").json()
    response = admin_api.patch(
        f"/api/v1/catalogs/{catalog['id']}/", {"labels": {METADATA_NAME_LABEL: "spoofed"}}, format="json"
    )
    assert response.json()["labels"][METADATA_NAME_LABEL] == "operatorhub"
    assert Catalog.objects.get(pk=catalog["id"]).labels[METADATA_NAME_LABEL] == "operatorhub"


def test_poll_interval_is_forbidden_with_digest(admin_api) -> None:
    response = admin_api.post(
        "/api/v1/catalogs/", body(source={"image": {"ref": DIGEST_REF, "poll_interval_minutes": 5}}), format="json"
    )
    assert response.status_code == 400
    assert "source.image.poll_interval_minutes" in response.json()["error"]["fields"]


@pytest.mark.parametrize(
    ("overrides", "field"),
    [
        ({"name": "Not_DNS"}, "name"),
        ({"name": "a" * 254}, "name"),
        ({"source": {"image": {"ref": "quay.io/x:" + "t" * 128}}}, "source.image.ref"),
        ({"source": {"image": {"ref": "quay.io/x@sha256:abc"}}}, "source.image.ref"),
        ({"source": {"image": {"ref": "quay.io/x:1", "poll_interval_minutes": 0}}}, POLL),
        ({"source": {"image": {"ref": "quay.io/x:1", "poll_interval_minutes": "5"}}}, POLL),
        ({"source": {}}, "source.image"),
        ({"priority": 2**31}, "priority"),
        ({"priority": 1.5}, "priority"),
        ({"availability_mode": "Sometimes"}, "availability_mode"),
        ({"pull_secret": {"username": "u"}}, "pull_secret.password"),
        ({"ca": "-----BEGIN CERTIFICATE-----\nnot base64!\n-----END CERTIFICATE-----"}, "ca"),
        ({"source": {"image": {"ref": "quay.io/x:1", "poll_interval": 5}}}, "source.image.poll_interval"),
        ({"source": {"image": {"ref": "quay.io/x:1"}, "git": {}}}, "source.git"),
        ({"pull_secret": {"username": "u", "password": "p", "passwd": "p"}}, "pull_secret.passwd"),
        ({"signature_policy": {"public_key": "x"}}, "signature_policy.public_key"),
    ],
)
def test_bad_input_is_400(admin_api, overrides: dict, field: str) -> None:
    response = admin_api.post("/api/v1/catalogs/", body(**overrides), format="json")
    assert response.status_code == 400, response.content
    assert field in response.json()["error"]["fields"], response.json()
    assert not Catalog.objects.exists()


def test_pull_secret_is_write_only(admin_api) -> None:
    response = admin_api.post(
        "/api/v1/catalogs/", body(pull_secret={"username": "robot", "password": "s3cr3t-pull"}), format="json"
    )
    assert response.status_code == 201, response.content
    assert "s3cr3t-pull" not in response.content.decode() and "pull_secret" not in response.json()
    assert Catalog.objects.get().pull_password == "s3cr3t-pull"


def test_users_read_but_only_admins_write(admin_api, alice_api, anon_api) -> None:
    catalog = admin_api.post("/api/v1/catalogs/", body(), format="json").json()
    assert alice_api.get("/api/v1/catalogs/").json()["count"] == 1
    assert alice_api.post("/api/v1/catalogs/", body(name="other"), format="json").status_code == 403
    assert alice_api.patch(f"/api/v1/catalogs/{catalog['id']}/", {"priority": 3}, format="json").status_code == 403
    assert alice_api.delete(f"/api/v1/catalogs/{catalog['id']}/").status_code == 403
    assert anon_api.get("/api/v1/catalogs/").status_code == 401
    assert Catalog.objects.get().priority == 0


def test_duplicate_is_409_and_generation_bumps_only_on_change(admin_api) -> None:
    catalog = admin_api.post("/api/v1/catalogs/", body(), format="json").json()
    assert admin_api.post("/api/v1/catalogs/", body(), format="json").status_code == 409
    url = f"/api/v1/catalogs/{catalog['id']}/"
    assert admin_api.patch(url, {"priority": 0}, format="json").json()["generation"] == 1
    assert admin_api.patch(url, {"priority": 7}, format="json").json()["generation"] == 2


def test_resync_is_admin_only_forgets_the_blocked_digest_and_checks_if_match(admin_api, alice_api) -> None:
    from controlplane.models import AuditEntry

    catalog = admin_api.post("/api/v1/catalogs/", body(), format="json").json()
    url = f"/api/v1/catalogs/{catalog['id']}/resync/"
    blocked = "sha256:" + "c" * 64
    Catalog.objects.filter(pk=catalog["id"]).update(blocked_digest=blocked)
    assert alice_api.post(url).status_code == 403
    assert admin_api.get(f"/api/v1/catalogs/{catalog['id']}/").json()["status"]["blocked_digest"] == blocked
    assert admin_api.post(url, HTTP_IF_MATCH='"stale"').status_code == 412
    response = admin_api.post(url)
    assert response.status_code == 202 and response.json()["status"]["blocked_digest"] == ""
    assert Catalog.objects.get(pk=catalog["id"]).blocked_digest == ""
    assert AuditEntry.objects.filter(action="resync", resource_id=catalog["id"]).count() == 1
    assert admin_api.post("/api/v1/catalogs/00000000-0000-0000-0000-000000000000/resync/").status_code == 404
