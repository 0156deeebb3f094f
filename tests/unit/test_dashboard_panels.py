"""The console dashboard merges the panels the apps register (controlplane.dashboard)."""

from __future__ import annotations

import pytest
from django.test import RequestFactory

from controlplane import dashboard


@pytest.fixture
def panels(monkeypatch: pytest.MonkeyPatch) -> dict:
    fresh: dict = {}
    monkeypatch.setattr(dashboard, "_panels", fresh)
    return fresh


def test_every_registered_panel_adds_its_context_for_the_request(panels: dict) -> None:
    dashboard.register_panel("first", lambda request: {"path": request.path, "a": 1})
    dashboard.register_panel("second", lambda request: {"b": 2})
    assert dashboard.dashboard_context(RequestFactory().get("/admin/")) == {"path": "/admin/", "a": 1, "b": 2}


def test_registering_a_name_again_replaces_its_panel(panels: dict) -> None:
    dashboard.register_panel("gateways", lambda request: {"old": True})
    dashboard.register_panel("gateways", lambda request: {"new": True})
    assert dashboard.dashboard_context(RequestFactory().get("/")) == {"new": True}


def test_without_panels_the_context_is_empty(panels: dict) -> None:
    assert dashboard.dashboard_context(RequestFactory().get("/")) == {}
