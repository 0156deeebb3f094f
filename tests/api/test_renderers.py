"""FastJSONRenderer writes what DRF's JSONRenderer writes, byte for byte (floats: the same numbers)."""

from __future__ import annotations

import datetime
import json
import uuid
from decimal import Decimal
from zoneinfo import ZoneInfo

import pytest
from django.utils.translation import gettext_lazy
from rest_framework.exceptions import ErrorDetail
from rest_framework.renderers import JSONRenderer

from controlplane.api.renderers import FastJSONRenderer

WHEN = datetime.datetime(2026, 12, 1, 19, 30, 5, 123456, tzinfo=datetime.UTC)
CASES = {
    "nested": {"results": [{"id": 1, "labels": {"a": "b"}, "route": None, "ok": True}], "count": 1},
    "unicode and line separators": {"name": "gäteway ✓", "note": "a\u2028b\u2029c", "quote": 'say "hi"\n'},
    "aware, offset, zone-named and naive times": [
        WHEN,
        WHEN.astimezone(ZoneInfo("Europe/Paris")),
        WHEN.astimezone(ZoneInfo("Europe/London")),
        WHEN.replace(tzinfo=None),
    ],
    "dates, times, durations": [WHEN.date(), datetime.time(7, 8, 9, 10), datetime.timedelta(seconds=90)],
    "decimals, uuids, lazy and error strings": [
        Decimal("1.50"),
        uuid.UUID(int=7),
        gettext_lazy("Not found."),
        ErrorDetail("bad", code="invalid"),
    ],
    "non-string keys, tuples, sets": {1: (1, 2), "s": {3}},
    "integers past 64 bits": {"big": 2**70, "negative": -(2**65)},
    "plain floats": [0.5, 1.25, -3.0, 12345.678],
}


@pytest.mark.parametrize("data", CASES.values(), ids=CASES.keys())
def test_the_same_bytes_as_drf(data) -> None:
    assert FastJSONRenderer().render(data) == JSONRenderer().render(data)


def test_exponents_are_written_shorter_but_are_the_same_numbers() -> None:
    data = [1e-7, 1e16, 2.5e-300]
    fast, drf = FastJSONRenderer().render(data), JSONRenderer().render(data)
    assert (fast, drf) == (b"[1e-7,1e+16,2.5e-300]", b"[1e-07,1e+16,2.5e-300]")
    assert json.loads(fast) == json.loads(drf) == data


def test_indented_output_and_none_are_drf_s() -> None:
    data = {"a": [1, {"b": None}]}
    indented = FastJSONRenderer().render(data, "application/json; indent=2")
    assert indented == JSONRenderer().render(data, "application/json; indent=2") and b"\n  " in indented
    assert FastJSONRenderer().render(None) == b""


def test_api_answers_use_it(alice_api) -> None:
    response = alice_api.get("/api/v1/gateways/")
    assert isinstance(response.accepted_renderer, FastJSONRenderer) and response.json()["results"] == []
