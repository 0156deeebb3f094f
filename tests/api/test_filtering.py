"""The filter backend skips django-filter when a request names none of the view's filters, and cleans and applies
named ones with one filterset per class; an invalid value still gets django-filter's 400."""

from __future__ import annotations

import django_filters
import pytest

from controlplane.api import filtering
from gateways.api.views import GatewayFilter
from gateways.choices import Phase
from gateways.models import Gateway
from tests.api.test_pagination import names, seed

pytestmark = pytest.mark.django_db


def test_a_filtered_list_still_filters_and_an_invalid_value_is_still_a_400(
    alice_api, alice, cluster, monkeypatch
) -> None:
    seed(alice, cluster, 2)
    seed(alice, cluster, 1, phase=Phase.FAILED, prefix="bad")
    filtering._shared.cache_clear()
    built = []
    monkeypatch.setattr(
        GatewayFilter,
        "__init__",
        lambda self, *a, **k: built.append(1) or django_filters.FilterSet.__init__(self, *a, **k),
    )
    assert names(alice_api.get("/api/v1/gateways/?ordering=-name&limit=5").json()) == ["gw00001", "gw00000", "bad00000"]
    assert built == [], "no filter named: no form built"
    assert names(alice_api.get("/api/v1/gateways/?phase=Failed").json()) == ["bad00000"]
    assert names(alice_api.get("/api/v1/gateways/?suspended=false&name=gw00001").json()) == ["gw00001"]
    assert names(alice_api.get("/api/v1/gateways/?suspended=true").json()) == []
    assert len(built) == 1, "one filterset per class cleans every request's parameters"
    bogus = alice_api.get("/api/v1/gateways/?phase=Bogus")
    assert bogus.status_code == 400 and "phase" in bogus.json()["error"]["fields"]
    assert len(built) == 2, "an invalid value goes through django-filter's own form"
    filtering._shared.cache_clear()


def test_a_filter_reading_several_parameters_always_runs() -> None:
    class Ranged(django_filters.FilterSet):
        generation = django_filters.RangeFilter()

        class Meta:
            model = Gateway
            fields = ("name",)

    assert filtering._parameters(Ranged) is None
    assert filtering._parameters(GatewayFilter) == {"name", "cluster", "owner", "phase", "suspended"}
