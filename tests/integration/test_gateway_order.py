"""The order of a pass: the objects the chart needs but cannot create exist before `helm install` runs.

The DB credentials Secret, the trusted-CA ConfigMap and, on OpenShift, the sandbox's SCC RoleBinding must be on
the cluster before Helm writes anything (DESIGN.md, Reconcile step 3). The order is read from the cluster itself:
a watch from the resourceVersion before the pass replays the cluster's history (as etcd's does), and each
object's ADDED event carries the resourceVersion it was created at, one counter for every kind.

Real parts: `run_pass` on PostgreSQL rows, the real helm binary with the unmodified upstream chart, an OpenShift
devcluster over HTTP.
"""

from __future__ import annotations

import json
import urllib.request
from collections.abc import Iterator

import pytest

from controlplane.models import ManagedCluster
from gateways.values import TRUSTED_CA_CONFIGMAP, db_secret_name
from tests.fixtures.charts import require_upstream_chart
from tests.fixtures.devcluster import DevCluster, start_devcluster
from tests.integration.test_gateway_real_clusters import make_gateway
from tests.integration.test_gateway_upstream_chart import (  # noqa: F401 (upstream_worker is a fixture)
    CLUSTER_CA,
    delete_through_the_control_plane,
    upstream_worker,
)
from workers.reconcile.gateway.passes.run import run_pass
from workers.reconcile.gateway.prerequisites import scc_binding_name

pytestmark = [
    pytest.mark.integration,
    pytest.mark.django_db(transaction=True),
    pytest.mark.usefixtures("upstream_worker"),
]

HELM_LABELS = (("owner", "helm"), ("app.kubernetes.io/managed-by", "Helm"))  # its release records; chart objects
RBAC = "/apis/rbac.authorization.k8s.io/v1"


@pytest.fixture(scope="module")
def ocp(tmp_path_factory: pytest.TempPathFactory) -> Iterator[DevCluster]:
    require_upstream_chart()
    with start_devcluster(
        tmp_path_factory.mktemp("order-ocp"), flavour="openshift", extra_presets=("agent-sandbox",)
    ) as dc:
        dc.create_cluster_issuer("corp-ca")  # upstream_worker's GATEWAY_CERT_ISSUER_NAME
        yield dc


def created_since(dc: DevCluster, path: str, since: int) -> dict[str, dict]:
    """The objects under `path` created after resourceVersion `since`, by name, each as its ADDED event had it."""
    url = f"{dc.url}{path}?watch=1&resourceVersion={since}&timeoutSeconds=1"
    with urllib.request.urlopen(url, timeout=10) as response:
        events = [json.loads(line) for line in response if line.strip()]
    return {e["object"]["metadata"]["name"]: e["object"] for e in events if e["type"] == "ADDED"}


def version(obj: dict) -> int:
    return int(obj["metadata"]["resourceVersion"])


def written_by_helm(obj: dict) -> bool:
    labels = obj["metadata"].get("labels") or {}
    return any(labels.get(key) == value for key, value in HELM_LABELS)


def test_the_pre_helm_objects_are_created_before_helm_writes_anything(ocp, alice) -> None:
    cluster = ManagedCluster.objects.create(
        name="order",
        flavour="openshift",
        kubeconfig=ocp.kubeconfig.read_text(),
        base_domain="order.example.test",
        gateway_api=False,
        trusted_ca_pem=CLUSTER_CA,
    )
    gateway = make_gateway(
        alice, cluster, database_provider="external", database_uri="postgresql://gw:secret@db.example.test:5432/gw"
    )
    ns, release = gateway.namespace, gateway.helm_release
    since = int(ocp.call("GET", "/api/v1/namespaces")["metadata"]["resourceVersion"])

    run_pass(str(gateway.pk))  # the first pass installs

    created: dict[str, dict] = {}
    for kind, path in (
        ("Secret", f"/api/v1/namespaces/{ns}/secrets"),
        ("ConfigMap", f"/api/v1/namespaces/{ns}/configmaps"),
        ("RoleBinding", f"{RBAC}/namespaces/{ns}/rolebindings"),
    ):
        created |= {f"{kind}/{name}": obj for name, obj in created_since(ocp, path, since).items()}
    names = (
        f"Secret/{db_secret_name(release)}",
        f"ConfigMap/{TRUSTED_CA_CONFIGMAP}",
        f"RoleBinding/{scc_binding_name(release)}",
    )
    assert not [name for name in names if name not in created], ("not made by the installing pass", sorted(created))
    pre_helm = {name: version(created[name]) for name in names}
    by_helm = {name: version(obj) for name, obj in created.items() if written_by_helm(obj)}
    assert f"Secret/sh.helm.release.v1.{release}.v1" in by_helm, sorted(created)  # helm did install
    first_by_helm = min(by_helm, key=by_helm.__getitem__)
    assert max(pre_helm.values()) < by_helm[first_by_helm], (pre_helm, first_by_helm, by_helm[first_by_helm])
    delete_through_the_control_plane(gateway, ocp)
