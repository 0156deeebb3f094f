"""End to end: a cluster registered through the API is probed by a real worker against devcluster."""

from __future__ import annotations

import pytest

from tests.waiting import wait_until

pytestmark = pytest.mark.e2e


def test_registered_cluster_is_probed_and_shows_reachable(api_session, devcluster) -> None:
    api = api_session()
    created = api.post(
        "/api/v1/clusters/",
        json={"name": "dev", "kubeconfig": devcluster.kubeconfig.read_text(), "base_domain": "apps.dev.test"},
    )
    assert created.status_code == 201, created.text
    url = f"/api/v1/clusters/{created.json()['id']}/"

    status = wait_until(lambda: (s := api.get(url).json()["status"])["reachable"] and s, "the probe to succeed")
    assert status["kubernetes_version"].startswith("v1.")
    assert status["last_probe_at"]
    assert "token" not in api.get(url).text


def test_unreachable_cluster_is_reported_not_reachable(api_session, devcluster) -> None:
    api = api_session()
    kubeconfig = devcluster.kubeconfig.read_text().replace(devcluster.url, "http://127.0.0.1:9")
    created = api.post("/api/v1/clusters/", json={"name": "gone", "kubeconfig": kubeconfig, "base_domain": "g.test"})
    assert created.status_code == 201, created.text
    url = f"/api/v1/clusters/{created.json()['id']}/"
    status = wait_until(lambda: (s := api.get(url).json()["status"])["reachable"] is False and s, "the failed probe")
    assert status["message"]
    assert api.post(f"{url}probe/").status_code == 202
