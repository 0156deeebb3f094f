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
from tests.fixtures.stack import PROJECT_ROOT, Stack, wait_for

pytestmark = pytest.mark.e2e

GENERATOR = Path(sys.executable).with_name("openapi-generator-cli")
TSC = PROJECT_ROOT / ".tools" / "node" / "node_modules" / ".bin" / "tsc"
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
        "python.yaml": {"generatorName": "python", "inputSpec": "openapi.json", "outputDir": "python",
                        "additionalProperties": {"packageName": PACKAGE}},
        "typescript.yaml": {"generatorName": "typescript-fetch", "inputSpec": "openapi.json", "outputDir": "ts"},
    }
    for name, config in configs.items():
        (workdir / name).write_text(yaml.safe_dump(config))
    done = subprocess.run([str(GENERATOR), "batch", "--fail-fast", *configs], cwd=workdir, capture_output=True,
                          text=True, timeout=300, check=False)
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
    leaked = {name: s["description"] for name, s in schemas.items()
              if any(word in s.get("description", "") for word in ("error_fields", "``", "serializer"))}
    assert leaked == {}


def test_the_typescript_client_type_checks_strictly(generated: Generated) -> None:
    checked = subprocess.run([str(TSC), "--strict", "--noEmit", "--target", "es2020", "--lib", "es2020,dom",
                              "--moduleResolution", "node", "index.ts"],
                             cwd=generated.typescript, capture_output=True, text=True, timeout=300, check=False)
    assert checked.returncode == 0, checked.stdout[-4000:] + checked.stderr[-4000:]


def test_the_python_client_drives_a_gateway_to_running_and_deletes_it(
    python_client: ModuleType, live_stack: Stack, transactional_db: None, gateway_cluster: DevCluster,
) -> None:
    from django.contrib.auth import get_user_model
    from rest_framework.authtoken.models import Token

    oag = python_client
    admin = get_user_model().objects.create_superuser(f"oag-admin-{uuid.uuid4().hex[:6]}")
    config = oag.Configuration(host=live_stack.api_url, api_key={"tokenAuth": Token.objects.create(user=admin).key},
                               api_key_prefix={"tokenAuth": "Token"})
    with oag.ApiClient(config) as client:
        oag.ClustersApi(client).clusters_create(oag.ClusterRequest(
            name="oag", kubeconfig=gateway_cluster.kubeconfig.read_text(), base_domain="oag.example.test",
            flavour=oag.ClusterFlavourEnum.KUBERNETES, gateway_api=True,
        ))
        gateways = oag.GatewaysApi(client)
        created = gateways.gateways_create(oag.GatewayRequest(
            name="oag", cluster="oag", image="ghcr.io/nvidia/openshell/gateway:1.0.0",
            supervisor_image="ghcr.io/nvidia/openshell/supervisor:1.0.0",
        ))
        assert created.status.phase in (oag.GatewayPhaseEnum.PENDING, oag.GatewayPhaseEnum.PROVISIONING)

        def running() -> Any:
            gateway = gateways.gateways_retrieve(created.id)
            return gateway if gateway.status.phase == oag.GatewayPhaseEnum.RUNNING else None

        gateway = wait_for(running, "the gateway to run", timeout=120)
        assert gateway.status.route_address == f"grpcs://{gateway.namespace}.oag.example.test:443"
        gateways.gateways_destroy(created.id)

        def gone() -> bool:
            try:
                gateways.gateways_retrieve(created.id)
            except oag.exceptions.NotFoundException:
                return True
            return False

        wait_for(gone, "the gateway to be deleted", timeout=120)
