"""Properties of gateway_values over random valid specs: only keys the chart has, and pinned images stay pinned."""

from __future__ import annotations

from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from gateways.chart_keys import defaults_from_yaml, type_mismatches, unknown_keys
from gateways.values import TRUSTED_CA_CONFIGMAP, ClusterFacts, GatewaySpec, RoutingConfig, gateway_values
from tests.fixtures.charts import MIRROR_CHART, require_upstream_chart
from tests.unit.strategies import DIGESTS, IMAGE_REFS, SUBDOMAINS, image_ref

NAMES = st.text("abcdefghijklmnopqrstuvwxyz0123456789", min_size=1, max_size=12)
OPTIONAL = st.one_of(st.just(""), NAMES)
ROUTING = RoutingConfig(
    gateway_name="public",
    gateway_namespace="gateway-system",
    issuer_name="corp-ca",
    issuer_kind="Issuer",
    route_annotations={"haproxy.router.openshift.io/timeout": "5m"},
)


@st.composite
def specs(draw: st.DrawFn, images: st.SearchStrategy[dict] = IMAGE_REFS) -> GatewaySpec:
    """A spec the mapping accepts: OIDC settings only with an issuer, the route host below the namespace."""
    issuer = draw(st.one_of(st.just(""), NAMES.map(lambda n: f"https://{n}.example.test")))
    oidc = {
        field: draw(OPTIONAL) if issuer else ""
        for field in ("oidc_audience", "oidc_roles_claim", "oidc_admin_role", "oidc_user_role")
    }
    ca = draw(OPTIONAL.filter(lambda n: n != TRUSTED_CA_CONFIGMAP)) if issuer else ""
    return GatewaySpec(
        namespace=f"gw-{draw(NAMES)}-0000",
        release=draw(NAMES),
        image=draw(images)["text"],
        supervisor_image=draw(images)["text"],
        route_enabled=draw(st.booleans()),
        oidc_issuer=issuer,
        oidc_ca_configmap=ca,
        has_external_db=draw(st.booleans()),
        **oidc,
    )


CLUSTERS = st.builds(
    ClusterFacts,
    flavour=st.sampled_from(["kubernetes", "openshift"]),
    base_domain=SUBDOMAINS,
    gateway_api=st.booleans(),
    has_trusted_ca=st.booleans(),
    agent_sandbox_preflight=st.none() | st.booleans(),
).filter(lambda c: c.gateway_api or c.flavour == "openshift")  # a kubernetes cluster needs one to route


@pytest.fixture(scope="module", params=["mirror", "upstream"])
def chart_defaults(request: pytest.FixtureRequest) -> dict[str, Any]:
    chart = MIRROR_CHART if request.param == "mirror" else require_upstream_chart()
    return defaults_from_yaml((chart / "values.yaml").read_text())


@given(spec=specs(), cluster=CLUSTERS)
def test_only_keys_of_the_charts_defaults_are_set(
    chart_defaults: dict[str, Any], spec: GatewaySpec, cluster: ClusterFacts
) -> None:
    values = gateway_values(spec, cluster, ROUTING)
    assert unknown_keys(values, chart_defaults) == []
    assert type_mismatches(values, chart_defaults) == []


@given(spec=specs(images=image_ref(digest=DIGESTS)), cluster=CLUSTERS)
def test_a_digest_pinned_image_is_never_a_tag_or_latest(spec: GatewaySpec, cluster: ClusterFacts) -> None:
    values = gateway_values(spec, cluster, ROUTING)
    for image, reference in ((values["image"], spec.image), (values["supervisor"]["image"], spec.supervisor_image)):
        digest = reference.rpartition("@")[2]
        assert f"{image['repository']}:{image['tag']}" == reference  # what the chart's printf renders
        assert image["tag"] == digest.partition(":")[2] != "latest"
        assert image["repository"].endswith("@" + digest.partition(":")[0])
