"""The schema is usable as published: a client generated from it drives the whole API end to end.

Every request here goes through the generated ``controlplane_client`` package (no ``requests``), with
``raise_on_unexpected_status=True``: a status code the schema does not document fails the test.
"""

from __future__ import annotations

import uuid
from collections.abc import Callable
from types import ModuleType
from typing import Any, TypeVar

import pytest

from tests.fixtures.charts import MIRROR_CHART
from tests.fixtures.devcluster import DevCluster
from tests.fixtures.registry import Registry, fbc_layer
from tests.fixtures.stack import Stack
from tests.waiting import wait_until

pytestmark = pytest.mark.e2e

T = TypeVar("T")

GATEWAY_IMAGE = "ghcr.io/nvidia/openshell/gateway:1.0.0"
SUPERVISOR_IMAGE = "ghcr.io/nvidia/openshell/supervisor:1.0.0"
PAGE = 3
EXTRA_CLUSTERS = 7  # with the gateway's cluster: 8 clusters, 3 pages of 3


def admin_token() -> str:
    from django.contrib.auth import get_user_model
    from rest_framework.authtoken.models import Token

    user = get_user_model().objects.create_superuser(f"client-admin-{uuid.uuid4().hex[:6]}")
    return Token.objects.create(user=user).key


def ok(response: Any, status: int) -> Any:
    """The parsed body of a response that must have ``status``."""
    assert response.status_code == status, (response.status_code, response.content[:2000])
    assert response.parsed is not None
    return response.parsed


def error_of(response: Any, status: int, code: str | None = None) -> Any:
    """The parsed ``Error`` of a failed response, which must be in the one error shape."""
    from controlplane_client.models import Error

    assert response.status_code == status, (response.status_code, response.content[:2000])
    assert isinstance(response.parsed, Error), response.content[:2000]
    detail = response.parsed.error
    assert detail.status == status and detail.message
    if code is not None:
        assert detail.code == code, detail
    return detail


def page_through(list_call: Callable[..., Any], client: Any, **filters: Any) -> tuple[list[Any], int]:
    """Every item of a paginated list, fetched ``PAGE`` at a time with limit/offset; returns (items, pages)."""
    items: list[Any] = []
    pages = 0
    offset = 0
    while True:
        page = ok(list_call.sync_detailed(client=client, limit=PAGE, offset=offset, **filters), 200)
        pages += 1
        assert len(page.results) <= PAGE
        items.extend(page.results)
        assert page.count >= len(items)
        if not page.next_:
            assert len(items) == page.count
            return items, pages
        offset += PAGE
        assert pages < 100, "pagination does not end"


def test_generated_client_end_to_end(
    generated_client: ModuleType,
    live_stack: Stack,
    stack_db: None,
    gateway_cluster: DevCluster,
    registry: Registry,
    repository: str,
) -> None:
    from controlplane_client import AuthenticatedClient, Client
    from controlplane_client.api.catalogs import catalogs_create, catalogs_list, catalogs_retrieve
    from controlplane_client.api.clusters import (
        clusters_create,
        clusters_list,
        clusters_partial_update,
        clusters_retrieve,
    )
    from controlplane_client.api.gateways import (
        gateways_create,
        gateways_events_list,
        gateways_list,
        gateways_partial_update,
        gateways_retrieve,
    )
    from controlplane_client.api.releases import releases_create
    from controlplane_client.models import (
        CatalogRequest,
        ClusterFlavourEnum,
        ClusterRequest,
        GatewayPhaseEnum,
        GatewayReleaseRequest,
        GatewayRequest,
        ImageOverridesEnum,
        ImagePolicyRequest,
        ImageSourceRequest,
        PatchedClusterRequest,
        PatchedGatewayRequest,
        SourceRequest,
    )

    assert generated_client.__name__ == "controlplane_client"

    # -- authenticate: no credentials get 401 in the error shape; a token with the "Token" prefix works
    anonymous = Client(base_url=live_stack.api_url, raise_on_unexpected_status=True)
    error_of(clusters_list.sync_detailed(client=anonymous), 401)
    api = AuthenticatedClient(
        base_url=live_stack.api_url,
        token=admin_token(),
        prefix="Token",
        raise_on_unexpected_status=True,
        timeout=30,
    )
    assert ok(clusters_list.sync_detailed(client=api), 200).count == 0

    # -- a cluster, with a kubeconfig for a real (simulated) Kubernetes API; the kubeconfig is write-only
    kubeconfig = gateway_cluster.kubeconfig.read_text()
    cluster = ok(
        clusters_create.sync_detailed(
            client=api,
            body=ClusterRequest(
                name="contract",
                kubeconfig=kubeconfig,
                base_domain="contract.example.test",
                flavour=ClusterFlavourEnum.KUBERNETES,
                gateway_api=True,
            ),
        ),
        201,
    )
    assert cluster.name == "contract" and cluster.flavour == ClusterFlavourEnum.KUBERNETES
    assert "kubeconfig" not in cluster.to_dict()

    # -- 409: the same name again
    duplicate = clusters_create.sync_detailed(
        client=api,
        body=ClusterRequest(
            name="contract",
            kubeconfig=kubeconfig,
            base_domain="other.example.test",
        ),
    )
    assert "already exists" in error_of(duplicate, 409, "conflict").message

    # -- a release owns the software: mixed provenance is a 400; one provenance is the default for new gateways
    mixed = releases_create.sync_detailed(
        client=api,
        body=GatewayReleaseRequest(
            name="contract-mixed",
            chart=str(MIRROR_CHART),
            image="quay.io/someone/openshell-gateway:1",
            supervisor_image=SUPERVISOR_IMAGE,
        ),
    )
    assert "Mixed provenance" in error_of(mixed, 400, "invalid").fields["supervisor_image"][0]
    release = ok(
        releases_create.sync_detailed(
            client=api,
            body=GatewayReleaseRequest(
                name="contract-v1",
                chart=str(MIRROR_CHART),
                image=GATEWAY_IMAGE,
                supervisor_image=SUPERVISOR_IMAGE,
                default=True,
            ),
        ),
        201,
    )
    assert (release.image, release.supervisor_image, release.allow_mixed_provenance) == (
        GATEWAY_IMAGE,
        SUPERVISOR_IMAGE,
        False,
    )

    # -- the cluster's image policy: no overrides here (platform admins are not bound by it)
    policy = ok(
        clusters_partial_update.sync_detailed(
            cluster.id,
            client=api,
            body=PatchedClusterRequest(
                image_policy=ImagePolicyRequest(overrides=ImageOverridesEnum.DENY),
            ),
        ),
        200,
    )
    assert policy.image_policy.overrides == ImageOverridesEnum.DENY

    # -- a gateway on it, naming no image: it runs the release's
    gateway = ok(
        gateways_create.sync_detailed(
            client=api,
            body=GatewayRequest(
                name="contract-edge",
                cluster="contract",
            ),
        ),
        201,
    )
    assert gateway.cluster == "contract" and gateway.owner.startswith("client-admin-")
    assert gateway.release == "contract-v1" and gateway.image == ""
    assert (gateway.desired_images.image, gateway.desired_images.supervisor_image) == (GATEWAY_IMAGE, SUPERVISOR_IMAGE)
    assert not gateway.desired_images.overridden and gateway.status.deployed_images is None
    assert gateway.status.phase in (GatewayPhaseEnum.PENDING, GatewayPhaseEnum.PROVISIONING)

    # -- a catalog from an image in a real registry
    registry.push_image(repository, "v1", [fbc_layer("v1")])
    ref = f"{registry.host}/{repository}:v1"
    catalog = ok(
        catalogs_create.sync_detailed(
            client=api,
            body=CatalogRequest(
                name="contract-catalog",
                source=SourceRequest(image=ImageSourceRequest(ref=ref)),
                priority=5,
            ),
        ),
        201,
    )
    assert catalog.source.image.ref == ref and catalog.priority == 5
    assert ok(catalogs_retrieve.sync_detailed(catalog.id, client=api), 200).name == "contract-catalog"
    error_of(
        catalogs_create.sync_detailed(
            client=api,
            body=CatalogRequest(
                name="contract-catalog",
                source=SourceRequest(image=ImageSourceRequest(ref=ref)),
            ),
        ),
        409,
        "conflict",
    )

    # -- more clusters, so that lists have several pages (unreachable ones: only a failed probe follows)
    unreachable = kubeconfig.replace(gateway_cluster.url, "http://127.0.0.1:9")
    for number in range(EXTRA_CLUSTERS):
        ok(
            clusters_create.sync_detailed(
                client=api,
                body=ClusterRequest(
                    name=f"page-{number}",
                    kubeconfig=unreachable,
                    base_domain=f"page-{number}.example.test",
                ),
            ),
            201,
        )

    # -- poll until the gateway is Running, and read its route address
    def running() -> Any:
        current = ok(gateways_retrieve.sync_detailed(gateway.id, client=api), 200)
        assert current.status.phase not in (GatewayPhaseEnum.FAILED, GatewayPhaseEnum.DEGRADED), current.to_dict()
        return current if current.status.phase == GatewayPhaseEnum.RUNNING else None

    live = wait_until(running, "the gateway to reach Running", timeout=90, interval=0.5)
    assert live.status.route_address == f"grpcs://{live.namespace}.contract.example.test:443"
    assert live.status.release.revision == 1 and live.status.release.status == "deployed"
    assert (live.status.deployed_images.image, live.status.deployed_images.supervisor_image) == (
        GATEWAY_IMAGE,
        SUPERVISOR_IMAGE,
    )
    assert live.status.observed_generation == live.generation == 1
    events = ok(gateways_events_list.sync_detailed(gateway.id, client=api), 200)
    assert "InstallSucceeded" in {e.reason for e in events.results}

    # -- poll until the catalog is Serving
    def serving() -> Any:
        current = ok(catalogs_retrieve.sync_detailed(catalog.id, client=api), 200)
        conditions = {c.type_: c for c in current.status.conditions}
        return current if "Serving" in conditions and conditions["Serving"].status.value == "True" else None

    served = wait_until(serving, "the catalog to be Serving", timeout=90, interval=0.5)
    assert served.status.resolved_ref.startswith(f"{registry.host}/{repository}@sha256:")
    assert served.status.urls.base and served.status.last_unpacked is not None

    # -- page through lists with limit/offset
    clusters, pages = page_through(clusters_list, api, ordering="name")
    assert [c.name for c in clusters] == sorted(["contract", *(f"page-{n}" for n in range(EXTRA_CLUSTERS))])
    assert pages == 3
    reachable = ok(clusters_retrieve.sync_detailed(cluster.id, client=api), 200)
    assert reachable.status.reachable is True
    gateways, _ = page_through(gateways_list, api)
    assert [g.name for g in gateways] == ["contract-edge"]
    catalogs, _ = page_through(catalogs_list, api)
    assert [c.name for c in catalogs] == ["contract-catalog"]

    # -- 412: a PATCH with a stale If-Match; a fresh one succeeds
    read = gateways_retrieve.sync_detailed(gateway.id, client=api)
    etag = read.headers.get("ETag")
    assert etag, "gateway detail responses carry no ETag"
    changed = gateways_partial_update.sync_detailed(
        gateway.id,
        client=api,
        if_match=etag,
        body=PatchedGatewayRequest(labels=labels({"team": "blue"})),
    )
    assert ok(changed, 200).labels.additional_properties == {"team": "blue"}
    assert changed.headers.get("ETag") not in (None, etag)
    stale = gateways_partial_update.sync_detailed(
        gateway.id,
        client=api,
        if_match=etag,
        body=PatchedGatewayRequest(labels=labels({"team": "red"})),
    )
    error_of(stale, 412, "precondition_failed")
    assert ok(gateways_retrieve.sync_detailed(gateway.id, client=api), 200).labels.additional_properties == {
        "team": "blue"
    }


def labels(values: dict[str, str]) -> Any:
    from controlplane_client.models import PatchedGatewayRequestLabels

    result = PatchedGatewayRequestLabels()
    result.additional_properties = dict(values)
    return result
