"""The console's server-side rules, checked with Django's test client (fast; no browser, no stack):
staff only, tenant scoping, write-only secrets, CSRF, and operations that mirror the REST API."""

from __future__ import annotations

from typing import Any

import pytest
from django.contrib.auth import get_user_model
from django.test import Client

from catalogs.models import Catalog
from controlplane.models import AuditEntry, ManagedCluster
from gateways.choices import Phase
from gateways.models import Gateway

DATABASE_URI = "postgresql://app:db-secret-value@db.example.test/app"
PULL_PASSWORD = "pull-secret-value"


@pytest.fixture
def root(db: None) -> Any:
    return get_user_model().objects.create_superuser("root")


@pytest.fixture
def tenant(db: None) -> Any:
    return get_user_model().objects.create_user("tenant", is_staff=True)


def client_for(user: Any, **kwargs: Any) -> Client:
    client = Client(**kwargs)
    client.force_login(user)
    return client


def make_gateway(owner: Any, cluster: ManagedCluster, name: str, **fields: Any) -> Gateway:
    gateway = Gateway(
        owner=owner,
        cluster=cluster,
        name=name,
        image="ghcr.io/acme/gateway:1.0.0",
        supervisor_image="ghcr.io/acme/supervisor:1.0.0",
        **fields,
    )
    gateway.assign_namespace()
    gateway.save()
    return gateway


def change_url(obj: Any) -> str:
    return f"/admin/{obj._meta.app_label}/{obj._meta.model_name}/{obj.pk}/change/"


def form_data(gateway: Gateway, **overrides: Any) -> dict[str, Any]:
    data = {
        "image": gateway.image,
        "supervisor_image": gateway.supervisor_image,
        "route_enabled": "on",
        "route_host": "",
        "database_provider": gateway.database_provider,
        "database_uri": "",
        "labels": "{}",
        "oidc_issuer": "",
        "oidc_audience": "",
        "oidc_roles_claim": "",
        "oidc_admin_role": "",
        "oidc_user_role": "",
        "oidc_ca_configmap": "",
    }
    return {k: v for k, v in {**data, **overrides}.items() if v is not None}


def test_only_staff_get_in(db: None) -> None:
    assert Client().get("/admin/").status_code == 302
    user = get_user_model().objects.create_user("plain")
    response = client_for(user).get("/admin/gateways/gateway/")
    assert response.status_code == 302 and "/admin/login/" in response["Location"]


def test_secrets_are_never_rendered(root, tenant, cluster) -> None:
    mine = make_gateway(tenant, cluster, "edge", database_provider="external", database_uri=DATABASE_URI)
    catalog = Catalog.objects.create(
        name="ops", image_ref="quay.io/acme/catalog:1", pull_username="robot", pull_password=PULL_PASSWORD
    )
    pages = [change_url(cluster), change_url(mine), change_url(catalog), "/admin/", "/admin/gateways/gateway/"]
    for user in (root, tenant):
        client = client_for(user)
        for page in pages:
            body = client.get(page).content.decode()
            for secret in ("super-secret-token-value", "db-secret-value", PULL_PASSWORD):
                assert secret not in body, (user.username, page, secret)


def test_an_empty_write_only_field_keeps_the_stored_secret(root, cluster) -> None:
    gateway = make_gateway(root, cluster, "edge", database_provider="external", database_uri=DATABASE_URI)
    client = client_for(root)
    response = client.post(change_url(gateway), form_data(gateway, image="ghcr.io/acme/gateway:1.0.1"))
    assert response.status_code == 302, response.content.decode()[-2000:]
    gateway.refresh_from_db()
    assert gateway.database_uri == DATABASE_URI and gateway.image.endswith(":1.0.1") and gateway.generation == 2

    client.post(change_url(gateway), form_data(gateway, database_provider="embedded"))
    gateway.refresh_from_db()
    assert gateway.database_provider == "embedded" and gateway.database_uri == ""

    kubeconfig = cluster.kubeconfig
    response = client.post(
        change_url(cluster),
        {
            "flavour": "kubernetes",
            "kubeconfig": "",
            "base_domain": "apps.east.example.com",
            "gateway_api": "on",
            "network_policy": "on",
            "trusted_ca_pem": "",
        },
    )
    assert response.status_code == 302, response.content.decode()[-2000:]
    cluster.refresh_from_db()
    assert cluster.kubeconfig == kubeconfig
    assert cluster.network_policy, "the cluster's page edits network_policy"


def test_validation_errors_from_clean_are_shown_on_the_field(root, cluster) -> None:
    gateway = make_gateway(root, cluster, "edge")
    response = client_for(root).post(change_url(gateway), form_data(gateway, oidc_issuer="http://idp.example.test"))
    assert response.status_code == 200
    assert response.context["adminform"].form.errors["oidc_issuer"] == ["The OIDC issuer must be an https:// URL."]


def test_a_route_host_another_gateway_uses_is_refused_on_the_field(root, tenant, cluster) -> None:
    host = "edge.apps.east.example.com"
    make_gateway(root, cluster, "first", route_host=host)
    mine = make_gateway(tenant, cluster, "mine")
    response = client_for(tenant).post(change_url(mine), form_data(mine, route_host=host))
    assert response.status_code == 200
    assert response.context["adminform"].form.errors["route_host"] == [
        f"Another gateway on east already uses {host}; hosts are unique per cluster."
    ]
    mine.refresh_from_db()
    assert mine.route_host == "" and mine.generation == 1


def test_turning_the_route_on_again_is_refused_when_its_default_host_was_taken(root, cluster) -> None:
    quiet = make_gateway(root, cluster, "quiet", route_enabled=False)
    default = f"{quiet.namespace}.apps.east.example.com"
    make_gateway(root, cluster, "squatter", route_host=default)
    response = client_for(root).post(change_url(quiet), form_data(quiet, route_enabled="on"))
    assert response.status_code == 200
    assert response.context["adminform"].form.errors["route_host"] == [
        f"Another gateway on east already uses {default}; hosts are unique per cluster."
    ]
    assert not Gateway.objects.get(pk=quiet.pk).route_enabled


def test_the_dashboard_shows_what_each_app_registers(root, tenant, cluster) -> None:
    ManagedCluster.objects.create(
        name="west", kubeconfig=cluster.kubeconfig, base_domain="w.example.test", reachable=False
    )
    serving = [{"type": "Serving", "status": "True"}]
    Catalog.objects.create(name="ops", image_ref="quay.io/acme/catalog:1", conditions=serving)
    Catalog.objects.create(name="dev", image_ref="quay.io/acme/catalog:2")
    make_gateway(root, cluster, "broken", phase=Phase.FAILED)
    make_gateway(tenant, cluster, "mine", phase=Phase.RUNNING)

    context = client_for(root).get("/admin/").context
    assert (context["cluster_total"], context["clusters_unreachable"]) == (2, ["west"])
    assert (context["catalog_total"], context["catalogs_serving"]) == (2, 1)
    assert context["gateway_total"] == 2 and "fleet" in context
    assert [row["name"] for row in context["trouble"]] == ["broken"]

    context = client_for(tenant).get("/admin/").context  # a tenant's figures are their own gateways'
    assert context["gateway_total"] == 1 and context["trouble_total"] == 0 and "fleet" not in context
    assert {p["value"]: p["count"] for p in context["phases"]}[Phase.RUNNING] == 1


def test_tenants_see_and_operate_only_on_their_own_gateways(root, tenant, cluster) -> None:
    mine = make_gateway(tenant, cluster, "mine")
    theirs = make_gateway(root, cluster, "theirs", failure_count=5, phase=Phase.FAILED)
    client = client_for(tenant)
    listed = client.get("/admin/gateways/gateway/").context["cl"].result_list
    assert [g.name for g in listed] == ["mine"]
    assert client.get(change_url(theirs)).status_code == 302
    client.post(f"/admin/gateways/gateway/{theirs.pk}/operation/retry/")
    theirs.refresh_from_db()
    assert theirs.failure_count == 5
    client.post("/admin/gateways/gateway/", {"action": "retry_action", "_selected_action": [theirs.pk, mine.pk]})
    theirs.refresh_from_db()
    assert theirs.failure_count == 5
    assert client.get(change_url(cluster)).status_code == 200
    assert client.post(change_url(cluster), {"base_domain": "evil.example.test"}).status_code == 403


def test_operations_mirror_the_api(root, cluster) -> None:
    gateway = make_gateway(root, cluster, "edge", failure_count=5, phase=Phase.FAILED)
    client = client_for(root)
    response = client.post(f"/admin/gateways/gateway/{gateway.pk}/operation/retry/", follow=True)
    assert [str(m) for m in response.context["messages"]] == [
        "Retry queued for 1 gateway: edge; the failure counter and backoff were reset."
    ]
    gateway.refresh_from_db()
    assert gateway.failure_count == 0 and gateway.generation == 1

    client.post("/admin/gateways/gateway/", {"action": "suspend_action", "_selected_action": [gateway.pk]})
    gateway.refresh_from_db()
    assert gateway.suspended and gateway.generation == 2
    client.post("/admin/gateways/gateway/", {"action": "resume_action", "_selected_action": [gateway.pk]})
    gateway.refresh_from_db()
    assert not gateway.suspended and gateway.generation == 3

    # Delete marks the gateway Deleting; the worker removes the row after uninstalling it.
    confirm = client.post("/admin/gateways/gateway/", {"action": "delete_action", "_selected_action": [gateway.pk]})
    assert confirm.status_code == 200 and b"Yes, delete them" in confirm.content
    client.post(f"/admin/gateways/gateway/{gateway.pk}/delete/", {"post": "yes"})
    gateway.refresh_from_db()
    assert gateway.phase == Phase.DELETING and gateway.deletion_requested_at is not None
    assert client.get(change_url(gateway)).context["has_change_permission"] is False
    trail = AuditEntry.objects.filter(resource_id=str(gateway.pk)).order_by("timestamp", "id")
    assert [(e.action, e.source, e.actor_name) for e in trail] == [
        ("retry", "console", "root"),
        ("suspend", "console", "root"),
        ("resume", "console", "root"),
        ("delete", "console", "root"),
    ]


def test_console_saves_are_audited_without_secrets(root, cluster) -> None:
    gateway = make_gateway(root, cluster, "edge")
    data = form_data(
        gateway, image="ghcr.io/acme/gateway:2.0.0", database_provider="external", database_uri=DATABASE_URI
    )
    response = client_for(root).post(change_url(gateway), data)
    assert response.status_code == 302, response.content
    (entry,) = AuditEntry.objects.filter(resource_id=str(gateway.pk), action="update")
    assert entry.source == "console" and entry.actor_name == "root"
    assert entry.changes["image"] == "ghcr.io/acme/gateway:2.0.0"
    assert entry.changes["database_uri"] == "<redacted>" and "db-secret-value" not in str(entry.changes)


def test_csrf_is_enforced(root, cluster) -> None:
    gateway = make_gateway(root, cluster, "edge", failure_count=5)
    client = client_for(root, enforce_csrf_checks=True)
    assert client.post(f"/admin/gateways/gateway/{gateway.pk}/operation/retry/").status_code == 403
    gateway.refresh_from_db()
    assert gateway.failure_count == 5
    assert client.get(f"/admin/gateways/gateway/{gateway.pk}/operation/retry/").status_code == 405


def test_the_console_says_why_a_gateway_is_not_ready(root, tenant, cluster) -> None:
    """A refused pod's event, as the reconciler puts it into Ready, is on the gateway's page and in the list."""
    why = (
        "the workload is not ready; StatefulSet edge-1-openshell: FailedCreate: create Pod edge-1-openshell-0 in "
        'StatefulSet edge-1-openshell failed error: pods "edge-1-openshell-0" is forbidden: unable to validate '
        "against any security context constraint: [provider restricted-v2: .spec.securityContext.fsGroup: "
        "Invalid value: []int64{1000}: 1000 is not an allowed group]"
    )
    gateway = make_gateway(
        tenant,
        cluster,
        "edge",
        phase=Phase.PROVISIONING,
        conditions=[
            {
                "type": "Ready",
                "status": "False",
                "reason": "Progressing",
                "message": why,
                "lastTransitionTime": "2026-12-02T00:00:00+00:00",
                "observedGeneration": 1,
            },
        ],
    )
    page = client_for(tenant).get(change_url(gateway)).content.decode()
    assert "unable to validate against any security context constraint" in page
    assert "1000 is not an allowed group" in page
