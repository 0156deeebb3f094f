"""Images in the console (headless Chromium): release pages show them and refuse mixed provenance; the gateway
form states the image policy it is checked against and refuses a tenant's override outside it."""

from __future__ import annotations

import pytest

from controlplane.models import ManagedCluster
from gateways.models import Gateway, GatewayRelease
from tests.fixtures.browser import Console
from tests.fixtures.charts import MIRROR_CHART
from tests.helpers import KUBECONFIG

pytestmark = pytest.mark.browser

GW = "ghcr.io/nvidia/openshell/gateway:1.0.0"
SV = "ghcr.io/nvidia/openshell/supervisor:1.0.0"


def test_release_pages_show_images_and_refuse_mixed_provenance(console: Console, staff_user) -> None:
    staff_user("platform", superuser=True)
    console.login("platform")
    console.open("/admin/gateways/gatewayrelease/add/")
    console.fill("name", "v1")
    console.fill("chart", str(MIRROR_CHART))
    console.fill("image", "quay.io/someone/openshell-gateway:16112bc")
    console.fill("supervisor_image", SV)
    console.submit("input[name='_save']")
    assert "Mixed provenance" in console.find(".field-supervisor_image .errorlist").text
    assert not GatewayRelease.objects.exists()
    console.fill("image", GW)
    console.submit("input[name='_save']")
    assert any("was added successfully" in m for m in console.messages()), console.messages()
    listed = console.find("#result_list").text
    assert GW in listed and SV in listed
    console.screenshot("release-list-images")


def test_the_gateway_form_states_and_applies_the_image_policy(console: Console, staff_user) -> None:
    GatewayRelease.objects.create(name="v1", chart=str(MIRROR_CHART), image=GW, supervisor_image=SV, default=True)
    ManagedCluster.objects.create(
        name="east",
        kubeconfig=KUBECONFIG,
        base_domain="east.example.test",
        image_policy={"overrides": "allow", "repositories": ["ghcr.io/team/"]},
    )
    staff_user("tenant")
    console.login("tenant")
    console.open("/admin/gateways/gateway/add/")
    policy = console.find("fieldset .description").text
    assert "Image overrides are allowed from ghcr.io/team/ (cluster east's image_policy)" in policy
    assert "default release" in policy
    console.fill("name", "edge")
    console.select("cluster", "east")
    console.fill("image", "docker.io/attacker/miner:latest")
    console.submit("input[name='_continue']")
    assert "rule repositories: ghcr.io/team/" in console.find(".field-image .errorlist").text
    assert not Gateway.objects.exists()
    console.screenshot("gateway-add-image-policy")
    console.fill("image", "")
    console.submit("input[name='_continue']")
    console.wait_for(lambda: "/change/" in console.path, "the detail page")
    gateway = Gateway.objects.get(name="edge")
    assert gateway.image == "" and gateway.desired_images() == (GW, SV)
    assert f"Should run: {GW}, {SV} (release v1)" in console.find(".field-images_display").text
