"""Pure parts: which chart references the worker refuses, and the CA bundle the reconciler writes."""

from __future__ import annotations

import pytest

from gateways.chart_source import chart_source_problem
from workers.reconcile.gateway.prerequisites import ca_bundle

DIGEST = "sha256:" + "ab" * 32


@pytest.mark.parametrize(
    ("ref", "version", "refused"),
    [
        ("oci://ghcr.io/nvidia/openshell/helm-chart", "", True),
        ("oci://ghcr.io/nvidia/openshell/helm-chart", "0.6.0", False),
        (f"oci://ghcr.io/nvidia/openshell/helm-chart@{DIGEST}", "", False),
        (f"oci://ghcr.io/nvidia/openshell/helm-chart:0.6.0@{DIGEST}", "", False),
        ("/charts/openshell", "", False),
        ("/charts/openshell-0.6.0.tgz", "", False),
    ],
)
def test_an_unpinned_oci_chart_is_refused_naming_the_setting(ref: str, version: str, refused: bool) -> None:
    problem = chart_source_problem(ref, version)
    assert (problem is not None) is refused
    if refused:
        assert "GATEWAY_CHART_VERSION" in problem and ref in problem


@pytest.mark.parametrize(
    ("pems", "bundle"),
    [
        ((None, None), None),
        (("", "  \n"), None),
        (("CLUSTER", None), "CLUSTER\n"),
        ((None, "TENANT\n"), "TENANT\n"),
        (("CLUSTER\n\n", "\nTENANT"), "CLUSTER\nTENANT\n"),
    ],
)
def test_ca_bundle_puts_the_cluster_ca_first_then_the_tenant_ca(pems: tuple, bundle: str | None) -> None:
    assert ca_bundle(*pems) == bundle
