"""The schema as the generator most teams use reads it: openapi-generator (PyPI ``openapi-generator-cli``, which
bundles the jar, on Debian's headless JRE) writes a ``python`` and a ``typescript-fetch`` client from the live
schema. The Python one must import and drive a gateway from create to Running to gone; the TypeScript one must
type-check under ``tsc --strict``."""

from __future__ import annotations

import importlib
import json
import subprocess
import sys
import uuid
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest
import yaml

from tests.fixtures.devcluster import DevCluster
from tests.fixtures.stack import Stack
from tests.paths import TSC
from tests.waiting import wait_until

pytestmark = pytest.mark.e2e

GENERATOR = Path(sys.executable).with_name("openapi-generator-cli")
PACKAGE = "cp_openapi_generator"


@dataclass
class Generated:
    python: Path  # the directory to put on sys.path
    typescript: Path  # the typescript-fetch sources (index.ts at the top)


@pytest.fixture(scope="session")
def generated(live_schema: dict[str, Any], tmp_path_factory: pytest.TempPathFactory) -> Generated:
    """Both clients, from one run of the generator (``batch``: one JVM start)."""
    workdir = tmp_path_factory.mktemp("openapi-generator")
    (workdir / "openapi.json").write_text(json.dumps(live_schema))
    configs = {
        "python.yaml": {
            "generatorName": "python",
            "inputSpec": "openapi.json",
            "outputDir": "python",
            "additionalProperties": {"packageName": PACKAGE},
        },
        "typescript.yaml": {"generatorName": "typescript-fetch", "inputSpec": "openapi.json", "outputDir": "ts"},
    }
    for name, config in configs.items():
        (workdir / name).write_text(yaml.safe_dump(config))
    done = subprocess.run(
        [str(GENERATOR), "batch", "--fail-fast", *configs],
        cwd=workdir,
        capture_output=True,
        text=True,
        timeout=300,
        check=False,
    )
    assert done.returncode == 0, f"openapi-generator failed:\n{done.stdout[-4000:]}\n{done.stderr[-4000:]}"
    return Generated(python=workdir / "python", typescript=workdir / "ts")


@pytest.fixture
def python_client(generated: Generated) -> Iterator[ModuleType]:
    sys.path.insert(0, str(generated.python))
    try:
        yield importlib.import_module(PACKAGE)
    finally:
        sys.path.remove(str(generated.python))
        for name in [n for n in sys.modules if n == PACKAGE or n.startswith(PACKAGE + ".")]:
            del sys.modules[name]


def test_the_schema_has_no_generator_artefacts_or_internal_docs(live_schema: dict[str, Any]) -> None:
    schemas = live_schema["components"]["schemas"]
    assert not {"NullEnum", "BlankEnum"} & set(schemas)
    leaked = {
        name: s["description"]
        for name, s in schemas.items()
        if any(word in s.get("description", "") for word in ("error_fields", "``", "serializer"))
    }
    assert leaked == {}


def test_the_typescript_client_type_checks_strictly(generated: Generated) -> None:
    checked = subprocess.run(
        [
            str(TSC),
            "--strict",
            "--noEmit",
            "--target",
            "es2020",
            "--lib",
            "es2020,dom",
            "--moduleResolution",
            "node",
            "index.ts",
        ],
        cwd=generated.typescript,
        capture_output=True,
        text=True,
        timeout=300,
        check=False,
    )
    assert checked.returncode == 0, checked.stdout[-4000:] + checked.stderr[-4000:]


def test_the_python_client_drives_a_gateway_to_running_and_deletes_it(
    python_client: ModuleType,
    live_stack: Stack,
    stack_db: None,
    gateway_cluster: DevCluster,
) -> None:
    from django.contrib.auth import get_user_model
    from rest_framework.authtoken.models import Token

    oag = python_client
    admin = get_user_model().objects.create_superuser(f"oag-admin-{uuid.uuid4().hex[:6]}")
    config = oag.Configuration(
        host=live_stack.api_url,
        api_key={"tokenAuth": Token.objects.create(user=admin).key},
        api_key_prefix={"tokenAuth": "Token"},
    )
    with oag.ApiClient(config) as client:
        oag.ClustersApi(client).clusters_create(
            oag.ClusterRequest(
                name="oag",
                kubeconfig=gateway_cluster.kubeconfig.read_text(),
                base_domain="oag.example.test",
                flavour=oag.ClusterFlavourEnum.KUBERNETES,
                gateway_api=True,
            )
        )
        gateways = oag.GatewaysApi(client)
        created = gateways.gateways_create(
            oag.GatewayRequest(
                name="oag",
                cluster="oag",
                image="ghcr.io/nvidia/openshell/gateway:1.0.0",
                supervisor_image="ghcr.io/nvidia/openshell/supervisor:1.0.0",
            )
        )
        assert created.status.phase in (oag.GatewayPhaseEnum.PENDING, oag.GatewayPhaseEnum.PROVISIONING)

        def running() -> Any:
            gateway = gateways.gateways_retrieve(created.id)
            return gateway if gateway.status.phase == oag.GatewayPhaseEnum.RUNNING else None

        gateway = wait_until(running, "the gateway to run", timeout=120)
        assert gateway.status.route_address == f"grpcs://{gateway.namespace}.oag.example.test:443"
        gateways.gateways_destroy(created.id)

        def gone() -> bool:
            try:
                gateways.gateways_retrieve(created.id)
            except oag.exceptions.NotFoundException:
                return True
            return False

        wait_until(gone, "the gateway to be deleted", timeout=120)


TS_CREATE = """\
const {Configuration, GatewaysApi} = require("./js/index.js");
const [basePath, token, body] = process.argv.slice(2);
new GatewaysApi(new Configuration({basePath, apiKey: "Token " + token}))
  .gatewaysCreate({gatewayRequest: JSON.parse(body)})
  .then((created) => console.log(JSON.stringify({id: created.id})))
  .catch(async (error) => { console.error(error.response ? await error.response.text() : error); process.exit(1); });
"""


def _typescript_create(generated: Generated, api_url: str, token: str, body: dict[str, str]) -> str:
    """Create a gateway with the typescript-fetch client, compiled by tsc and run by node; returns its id."""
    compiled = subprocess.run(
        [
            str(TSC),
            "--strict",
            "--target",
            "es2020",
            "--lib",
            "es2020,dom",
            "--moduleResolution",
            "node",
            "--module",
            "commonjs",
            "--outDir",
            "js",
            "index.ts",
        ],
        cwd=generated.typescript,
        capture_output=True,
        text=True,
        timeout=300,
        check=False,
    )
    assert compiled.returncode == 0, compiled.stdout[-4000:] + compiled.stderr[-4000:]
    (generated.typescript / "create.js").write_text(TS_CREATE)
    camel = {"supervisorImage" if key == "supervisor_image" else key: value for key, value in body.items()}
    ran = subprocess.run(
        ["node", "create.js", api_url, token, json.dumps(camel)],
        cwd=generated.typescript,
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )
    assert ran.returncode == 0, ran.stdout[-4000:] + ran.stderr[-4000:]
    return str(json.loads(ran.stdout)["id"])


def test_a_gateway_created_by_each_generated_client_without_a_route_gets_the_route_curl_gets(
    python_client: ModuleType,
    generated_client: ModuleType,
    generated: Generated,
    live_stack: Stack,
    stack_db: None,
    gateway_cluster: DevCluster,
) -> None:
    """openapi-generator's `python` model sent `"route": null` for a route left out (`from_dict`), which the API
    read as "no route". Now the four bodies give one route: curl's, each generator's, and `route_address`."""
    import requests
    from controlplane_client import AuthenticatedClient
    from controlplane_client.api.gateways import gateways_create
    from controlplane_client.models import GatewayRequest
    from django.contrib.auth import get_user_model
    from rest_framework.authtoken.models import Token

    oag = python_client
    admin = get_user_model().objects.create_superuser(f"routes-admin-{uuid.uuid4().hex[:6]}")
    token = Token.objects.create(user=admin).key
    curl = requests.Session()
    curl.headers["Authorization"] = f"Token {token}"
    base_domain = "routes.example.test"
    cluster = curl.post(
        f"{live_stack.api_url}/api/v1/clusters/",
        json={
            "name": "routes",
            "kubeconfig": gateway_cluster.kubeconfig.read_text(),
            "base_domain": base_domain,
            "flavour": "kubernetes",
            "gateway_api": True,
        },
        timeout=30,
    )
    assert cluster.status_code == 201, cluster.text

    def body(name: str) -> dict[str, str]:
        return {
            "name": name,
            "cluster": "routes",
            "image": "ghcr.io/nvidia/openshell/gateway:1.0.0",
            "supervisor_image": "ghcr.io/nvidia/openshell/supervisor:1.0.0",
        }

    ids: dict[str, str] = {}
    sent = curl.post(f"{live_stack.api_url}/api/v1/gateways/", json=body("route-curl"), timeout=30)
    assert sent.status_code == 201, sent.text
    ids["curl"] = sent.json()["id"]
    request = oag.GatewayRequest.from_dict(body("route-oag-python"))
    assert "route" not in json.loads(request.to_json()), request.to_json()
    config = oag.Configuration(
        host=live_stack.api_url, api_key={"tokenAuth": token}, api_key_prefix={"tokenAuth": "Token"}
    )
    with oag.ApiClient(config) as client:
        ids["openapi-generator python"] = str(oag.GatewaysApi(client).gateways_create(request).id)
    api = AuthenticatedClient(
        base_url=live_stack.api_url, token=token, prefix="Token", raise_on_unexpected_status=True, timeout=30
    )
    created = gateways_create.sync_detailed(client=api, body=GatewayRequest.from_dict(body("route-opc")))
    assert created.status_code == 201, created.content
    ids["openapi-python-client"] = str(created.parsed.id)
    ids["typescript-fetch"] = _typescript_create(generated, live_stack.api_url, token, body("route-ts"))

    def all_running() -> dict[str, dict[str, Any]] | None:
        found = {
            client: curl.get(f"{live_stack.api_url}/api/v1/gateways/{pk}/", timeout=30).json()
            for client, pk in ids.items()
        }
        phases = {client: gateway["status"]["phase"] for client, gateway in found.items()}
        assert not {"Failed", "Degraded"} & set(phases.values()), phases
        return found if set(phases.values()) == {"Running"} else None

    gateways = wait_until(all_running, "the four gateways to run", timeout=180, interval=1.0)
    for client, gateway in gateways.items():
        assert gateway["route"] == {"enabled": True, "host": ""}, client
        assert gateway["status"]["route_address"] == f"grpcs://{gateway['namespace']}.{base_domain}:443", client
    for pk in ids.values():
        assert curl.delete(f"{live_stack.api_url}/api/v1/gateways/{pk}/", timeout=30).status_code == 202

    def all_gone() -> bool:
        return all(
            curl.get(f"{live_stack.api_url}/api/v1/gateways/{pk}/", timeout=30).status_code == 404
            for pk in ids.values()
        )

    wait_until(all_gone, "the gateways to be deleted", timeout=180, interval=1.0)
