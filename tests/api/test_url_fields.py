"""Every URL field refuses whitespace and control characters with a 400 naming the field, and stores nothing: URL
parsers drop some of them, so the address requested would differ from the one stored."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest
from django.db.models import Model

from catalogs.models import Catalog
from controlplane.models import ManagedCluster
from gateways.models import Gateway, GatewayRelease
from notifications.models import Receiver
from tests.fixtures.charts import MIRROR_CHART
from tests.helpers import KUBECONFIG

pytestmark = pytest.mark.django_db

# Inserted inside an otherwise valid URL.
BAD = ["\r\n", "\n", "\t", " ", "\x00", "\x7f", "\x85", "\u2028", "\u00a0"]


def receiver(bad: str) -> dict:
    return {
        "name": "ops",
        "kind": "webhook",
        "url": f"https://93.184.216.34/ho{bad}ok",
        "secret": "a-long-random-signing-secret",
    }


def gateway_issuer(bad: str) -> dict:
    return {"name": "edge", "cluster": "east", "oidc": {"issuer": f"https://id.example.com/re{bad}alm"}}


def gateway_database(bad: str) -> dict:
    return {
        "name": "edge",
        "cluster": "east",
        "database": {"provider": "external", "uri": f"postgresql://gw@db.example.com/g{bad}w"},
    }


def release(bad: str) -> dict:
    return {
        "name": "v2",
        "chart": f"oci://registry.example.com/charts/open{bad}shell",
        "version": "1.0.0",
        "image": "gw:1",
        "supervisor_image": "sv:1",
    }


def cluster(bad: str) -> dict:
    escaped = bad.encode("unicode_escape").decode()  # a YAML double-quoted escape, so the YAML itself stays valid
    kubeconfig = KUBECONFIG.replace('"http://127.0.0.1:1"', f'"http://127.0.0.1:1/a{escaped}b"')
    return {"name": "west", "kubeconfig": kubeconfig, "base_domain": "apps.west.example.com"}


def catalog(bad: str) -> dict:
    return {"name": "operatorhub", "source": {"image": {"ref": f"quay.io/operatorhubio/cata{bad}log:latest"}}}


CASES: list[tuple[str, Callable[[str], dict], str, type[Model]]] = [
    ("/api/v1/receivers/", receiver, "url", Receiver),
    ("/api/v1/gateways/", gateway_issuer, "oidc.issuer", Gateway),
    ("/api/v1/gateways/", gateway_database, "database.uri", Gateway),
    ("/api/v1/releases/", release, "chart", GatewayRelease),
    ("/api/v1/clusters/", cluster, "kubeconfig", ManagedCluster),
    ("/api/v1/catalogs/", catalog, "source.image.ref", Catalog),
]


@pytest.fixture
def existing(cluster: Any) -> dict[type[Model], int]:
    GatewayRelease.objects.create(
        name="v1", chart=str(MIRROR_CHART), image="gw:1", supervisor_image="sv:1", default=True
    )
    return {model: model.objects.count() for _, _, _, model in CASES}


@pytest.mark.parametrize("bad", BAD, ids=[repr(b) for b in BAD])
@pytest.mark.parametrize(("path", "body", "field", "model"), CASES, ids=[c[2] for c in CASES])
def test_a_url_with_whitespace_or_control_characters_is_a_400_naming_the_field(
    admin_api,
    existing,
    path: str,
    body: Callable[[str], dict],
    field: str,
    model: type[Model],
    bad: str,
) -> None:
    response = admin_api.post(path, body(bad), format="json")
    assert response.status_code == 400, response.content
    assert field in response.json()["error"]["fields"], response.content
    assert model.objects.count() == existing[model]


# A release's remote chart is pulled by a worker, so its acceptance is tested in tests/api/test_rollouts.py.
ACCEPTED_HERE = [c for c in CASES if c[0] != "/api/v1/releases/"]


@pytest.mark.parametrize(("path", "body", "field", "model"), ACCEPTED_HERE, ids=[c[2] for c in ACCEPTED_HERE])
def test_the_same_url_without_them_is_accepted(
    admin_api, existing, path: str, body: Callable[[str], dict], field: str, model: type[Model]
) -> None:
    """The refusal above is for the characters, not for the rest of the body."""
    response = admin_api.post(path, body(""), format="json")
    assert response.status_code == 201, response.content
