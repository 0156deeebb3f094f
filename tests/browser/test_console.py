"""The console in headless Chromium: log in, create a gateway and watch the real worker run it,
retry a failed one, and check that a tenant sees only their own gateways and never a secret."""

from __future__ import annotations

import json

import pytest
import requests
from selenium.webdriver.common.by import By

from catalogs.models import Catalog
from controlplane.models import ManagedCluster
from gateways.models import Gateway, GatewayEvent
from tests.fixtures.browser import Console
from tests.fixtures.registry import expected_lines, fbc_layer
from tests.waiting import wait_until

pytestmark = pytest.mark.browser

IMAGE = "ghcr.io/nvidia/openshell/gateway:1.0.0"
SUPERVISOR_IMAGE = "ghcr.io/nvidia/openshell/supervisor:1.0.0"
CLUSTER_TOKEN = "closed-port-cluster-token-must-never-show"
DATABASE_PASSWORD = "db-password-must-never-show"
CLOSED_PORT_KUBECONFIG = f"""\
apiVersion: v1
kind: Config
clusters:
- name: c
  cluster: {{server: "http://127.0.0.1:9"}}
contexts:
- name: c
  context: {{cluster: c, user: u}}
current-context: c
users:
- name: u
  user: {{token: {CLUSTER_TOKEN}}}
"""


def closed_port_cluster(name: str = "dead") -> ManagedCluster:
    """A cluster nobody answers for: every install attempt fails with a connection error."""
    return ManagedCluster.objects.create(
        name=name, kubeconfig=CLOSED_PORT_KUBECONFIG, base_domain=f"{name}.example.test"
    )


def make_gateway(owner, cluster: ManagedCluster, name: str, **fields: object) -> Gateway:
    gateway = Gateway(owner=owner, cluster=cluster, name=name, image=IMAGE, supervisor_image=SUPERVISOR_IMAGE, **fields)
    gateway.assign_namespace()
    gateway.save()
    return gateway


def badge_text(console: Console, field: str) -> str:
    return " ".join(console.texts(f".field-{field} .cp-badge"))


def row_names(console: Console) -> list[str]:
    return console.texts("#result_list tbody th a")


def test_create_a_gateway_and_watch_it_reach_running(console: Console, staff_user, gateway_cluster, register) -> None:
    register(gateway_cluster, "k8s")
    staff_user("root", superuser=True)
    console.login("root")

    console.open("/admin/gateways/gateway/add/")
    assert console.find("select[name='owner']").get_attribute("value"), "the owner defaults to the current user"
    console.fill("name", "edge")
    console.select("cluster", "k8s")
    console.fill("image", IMAGE)
    console.fill("supervisor_image", SUPERVISOR_IMAGE)
    console.set_checkbox("route_enabled", False)
    console.fill("route_host", "edge.k8s.example.test")
    console.submit("input[name='_continue']")
    # The model's clean() runs: its error is shown inline, next to the field.
    assert "A route host needs the route enabled." in console.find(".field-route_host .errorlist").text
    console.screenshot("gateway-add-validation-error")

    console.set_checkbox("route_enabled", True)
    console.submit("input[name='_continue']")
    console.wait_for(lambda: "/change/" in console.path, "the detail page")
    assert any("was added successfully" in m for m in console.messages())
    gateway = Gateway.objects.get(name="edge")
    assert gateway.namespace.startswith("gw-edge-") and gateway.owner.username == "root"
    detail = f"/admin/gateways/gateway/{gateway.pk}/change/"

    console.reload_until(detail, lambda: badge_text(console, "phase_display") == "Running", "the Running badge")
    route = console.find(".field-route_display code").text
    assert route == "grpcs://edge.k8s.example.test:443"
    assert console.find(".field-release_revision .readonly").text == "1"
    assert badge_text(console, "release_status_display") == "deployed"
    assert "Ready" in console.texts(".cp-conditions tbody td strong")
    reasons = console.texts(".cp-events tbody td strong")
    assert "InstallSucceeded" in reasons
    assert console.find(".field-name .readonly").text == "edge", "name is immutable once created"
    copy = console.find(".field-route_display button[data-copy]")
    assert copy.get_attribute("data-copy") == route
    copy.click()
    console.wait_for(lambda: copy.text == "Copied", "the copy button to confirm")
    console.screenshot("gateway-detail")

    console.open("/admin/gateways/gateway/")
    (row,) = console.find_all("#result_list tbody tr")
    assert row.find_element(By.CSS_SELECTOR, ".field-phase_column .cp-badge--ok").text == "Running"
    assert row.find_element(By.CSS_SELECTOR, ".field-route_column code").text == route
    reconciled = row.find_element(By.CSS_SELECTOR, ".field-reconciled_column time")
    assert reconciled.text == "just now" and reconciled.get_attribute("datetime")
    console.screenshot("gateway-list")

    console.open("/admin/")
    assert console.find(".cp-phase-card[data-phase='Running'] .cp-phase-count").text == "1"
    assert "No gateway is failed or degraded." in console.find("#cp-trouble").text

    # Delete from the detail page: the worker uninstalls the release, then removes the row.
    console.open(detail)
    console.submit("a.deletelink")
    console.submit("input[type=submit][value='Yes, delete it']")
    assert any("Deletion requested for 1 gateway: edge" in m for m in console.messages())
    wait_until(lambda: not Gateway.objects.filter(pk=gateway.pk).exists(), "the worker to remove the gateway", 60)


def test_retry_a_failed_gateway(console: Console, staff_user, gateway_cluster, register) -> None:
    # The cluster answers, but refuses the workload: a real failure (an unreachable cluster is not one).
    fault = gateway_cluster.add_fault(
        path_regex=r"/apis/apps/v1/namespaces/gw-doomed-[^/]+/statefulsets", method="PATCH", status=500
    )
    try:
        root = staff_user("root", superuser=True)
        gateway = make_gateway(root, register(gateway_cluster, "dead"), "doomed")  # the beat's resync picks it up
        console.login("root")

        def failed() -> bool:
            return "Failed" in console.texts(".field-phase_column .cp-badge")

        console.reload_until("/admin/gateways/gateway/", failed, "the gateway to fail five times", timeout=60)
        gateway.refresh_from_db()
        assert gateway.failure_count == 5
        console.screenshot("gateway-list-failed")

        console.open("/admin/")
        assert console.find(".cp-phase-card[data-phase='Failed'] .cp-phase-count").text == "1"
        trouble = console.find("#cp-trouble tbody").text
        assert "doomed" in trouble and "dead" in trouble
        console.screenshot("dashboard")

        attempts_before = GatewayEvent.objects.filter(gateway=gateway).count()
        console.open("/admin/gateways/gateway/")
        console.run_action("retry_action", ["doomed"])
        assert console.messages() == ["Retry queued for 1 gateway: doomed; the failure counter and backoff were reset."]
        gateway.refresh_from_db()
        assert gateway.failure_count < 5, "retry resets the counter (the worker may already have failed once more)"
        # The retry reached the worker: it tried again and recorded another event.
        wait_until(
            lambda: GatewayEvent.objects.filter(gateway=gateway).count() > attempts_before, "a new attempt", timeout=30
        )
        console.screenshot("gateway-list-after-retry")

        # The detail page has the same operations as buttons; Resync reports what it queued.
        console.open(f"/admin/gateways/gateway/{gateway.pk}/change/")
        console.submit("button[data-operation='resync']")
        assert console.messages() == ["Resync queued for 1 gateway: doomed."]
    finally:
        gateway_cluster.call("DELETE", f"/_devcluster/faults/{fault}")


def test_tenant_sees_only_their_own_gateways_and_no_secret(console: Console, staff_user) -> None:
    root = staff_user("root", superuser=True)
    alice = staff_user("alice")
    cluster = closed_port_cluster()
    # Suspended, so that the worker leaves them alone.
    mine = make_gateway(
        alice,
        cluster,
        "alice-edge",
        suspended=True,
        database_provider="external",
        database_uri=f"postgresql://app:{DATABASE_PASSWORD}@db.example.test/app",
    )
    theirs = make_gateway(root, cluster, "root-edge", suspended=True)
    console.login("alice")

    console.open("/admin/")
    assert "1 in all" in console.find("#cp-phases-title").text
    console.screenshot("tenant-dashboard")

    console.open("/admin/gateways/gateway/")
    assert row_names(console) == ["alice-edge"]
    filters = console.find("#changelist-filter").text
    assert "By owner" not in filters and "By phase" in filters
    console.screenshot("tenant-gateway-list")
    console.open("/admin/gateways/gateway/?q=root")
    assert row_names(console) == []

    console.open(f"/admin/gateways/gateway/{theirs.pk}/change/")
    assert console.path == "/admin/"
    assert any("doesn\u2019t exist" in m for m in console.messages())

    console.open(f"/admin/gateways/gateway/{mine.pk}/change/")
    assert console.find("input[name='database_uri']").get_attribute("value") == ""
    assert DATABASE_PASSWORD not in console.driver.page_source
    assert not console.find_all("select[name='owner']"), "a tenant cannot choose another owner"
    console.screenshot("tenant-gateway-detail")

    console.open(f"/admin/controlplane/managedcluster/{cluster.pk}/change/")
    assert CLUSTER_TOKEN not in console.driver.page_source
    assert console.find(".field-kubeconfig_state").text.endswith("stored")
    assert not console.find_all("input[name='_save']"), "clusters are read-only for tenants"

    # A tenant's new gateway is theirs, whatever the form says.
    console.open("/admin/gateways/gateway/add/")
    console.fill("name", "alice-two")
    console.select("cluster", "dead")
    console.fill("image", IMAGE)
    console.fill("supervisor_image", SUPERVISOR_IMAGE)
    console.set_checkbox("suspended", True)
    console.submit("input[name='_save']")
    assert any("alice-two" in m and "added successfully" in m for m in console.messages())
    assert Gateway.objects.get(name="alice-two").owner == alice
    assert row_names(console) == ["alice-edge", "alice-two"]


def test_add_a_catalog_and_follow_its_content_links(console: Console, staff_user, registry, repository) -> None:
    registry.push_image(repository, "stable", [fbc_layer("v1")])
    staff_user("root", superuser=True)
    console.login("root")

    console.open("/admin/catalogs/catalog/add/")
    console.fill("name", "operators")
    console.fill("image_ref", f"{registry.host}/{repository}:stable")
    console.open_section("Registry access")
    console.fill("pull_username", "robot")  # a username without a password: the model's clean() says no
    console.submit("input[name='_continue']")
    assert "Registry credentials need both a username and a password." in console.find(".errorlist").text
    console.open_section("Registry access")
    console.fill("pull_username", "")
    console.submit("input[name='_continue']")
    assert not console.texts(".errorlist"), console.texts(".errorlist")
    catalog = Catalog.objects.get(name="operators")
    detail = f"/admin/catalogs/catalog/{catalog.pk}/change/"

    console.reload_until(detail, lambda: badge_text(console, "serving_display") == "Serving", "the Serving badge")
    assert "@sha256:" in console.find(".field-resolved_display code").text
    assert console.find(".field-last_unpacked_display time").text == "just now"
    assert "Serving" in console.texts(".cp-conditions tbody td strong")
    links = {a.text: a.get_attribute("href") for a in console.find_all(".field-content_links a")}
    assert links == {
        "All content": f"{console.base_url}/catalogs/operators/api/v1/all",
        "Packages (metas query)": f"{console.base_url}/catalogs/operators/api/v1/metas?schema=olm.package",
    }
    console.screenshot("catalog-detail")

    console.open("/admin/catalogs/catalog/")
    assert console.texts(".field-serving_column .cp-badge") == ["Serving"]
    console.screenshot("catalog-list")

    # The links lead to the content server (JSON lines, which a browser downloads rather than shows).
    metas = requests.get(links["Packages (metas query)"], timeout=10)
    assert metas.status_code == 200
    assert {json.loads(line)["name"] for line in metas.text.splitlines()} == {"etcd", "prometheus"}
    assert requests.get(links["All content"], timeout=10).content == expected_lines("v1")
