"""Contract tests: the published OpenAPI schema, a client generated from it, and schemathesis against the live API.

The fixtures come from their modules by import, so they need no change to the shared conftests.
"""

from tests.e2e.conftest import gateway_cluster
from tests.fixtures.openapi_client import generated_client, live_schema

__all__ = ["gateway_cluster", "generated_client", "live_schema"]
