"""validate_kubeconfig: accepts good kubeconfigs; refuses every other YAML shape with a ValidationError only."""

from __future__ import annotations

import contextlib

import pytest
import yaml
from django.core.exceptions import ValidationError
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from controlplane.kubeconfig import validate_kubeconfig
from tests.helpers import KUBECONFIG

KEYS = st.sampled_from(
    [
        "apiVersion",
        "kind",
        "clusters",
        "contexts",
        "users",
        "current-context",
        "name",
        "cluster",
        "context",
        "user",
        "server",
        "token",
        "exec",
        "certificate-authority",
        "certificate-authority-data",
        "c",
        "u",
    ]
)
SCALARS = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(),
    st.floats(allow_nan=False),
    st.text(max_size=12),
    st.sampled_from(["c", "u", "http://127.0.0.1:1", "https://k8s.example:6443"]),
)
VALUES = st.recursive(
    SCALARS,
    lambda children: st.one_of(
        st.lists(children, max_size=4), st.dictionaries(st.one_of(KEYS, st.text(max_size=6)), children, max_size=5)
    ),
    max_leaves=30,
)
DOCUMENTS = st.dictionaries(KEYS, VALUES, max_size=8)


def base() -> dict:
    return yaml.safe_load(KUBECONFIG)


def refused(doc: object) -> ValidationError:
    with pytest.raises(ValidationError) as caught:
        validate_kubeconfig(doc if isinstance(doc, str) else yaml.safe_dump(doc))
    return caught.value


def test_the_sample_kubeconfig_is_valid() -> None:
    validate_kubeconfig(KUBECONFIG)


@pytest.mark.parametrize(
    "change",
    [
        {"users": 5},
        {"contexts": 5},
        {"clusters": 5},
        {"current-context": ["a"]},
        {"current-context": {"a": 1}},
        {"contexts": [{"name": "c", "context": "x"}]},
        {"users": [{"name": "u", "user": [1]}]},
        {"clusters": [{"name": "c", "cluster": "x"}]},
        {"contexts": [{"name": ["c"], "context": {}}]},
        {"contexts": [5]},
        {"clusters": [{"name": "c", "cluster": {"server": 5}}]},
        {"contexts": [{"name": "c", "context": {"cluster": ["c"], "user": "u"}}]},
        {"users": [{"name": "u", "user": {"exec": {"command": "sh"}}}]},
    ],
)
def test_bad_shapes_are_validation_errors(change: dict) -> None:
    assert refused({**base(), **change}).code == "invalid_kubeconfig"


@pytest.mark.parametrize("text", ["", "5", "[1, 2]", "{a: [", "\t!!python/object:os.system x", "a: &a [*a]", "\x00"])
def test_non_mappings_and_broken_yaml_are_validation_errors(text: str) -> None:
    refused(text)


@settings(max_examples=400, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(DOCUMENTS)
def test_random_documents_raise_nothing_but_validation_error(doc: dict) -> None:
    with contextlib.suppress(ValidationError):
        validate_kubeconfig(yaml.safe_dump(doc))


@settings(max_examples=300, deadline=None)
@given(st.dictionaries(st.sampled_from(["clusters", "contexts", "users", "current-context"]), VALUES, min_size=1))
def test_random_sections_over_a_valid_kubeconfig_raise_nothing_but_validation_error(change: dict) -> None:
    with contextlib.suppress(ValidationError):
        validate_kubeconfig(yaml.safe_dump({**base(), **change}))


@settings(max_examples=300, deadline=None)
@given(st.text(max_size=200))
def test_random_text_raises_nothing_but_validation_error(text: str) -> None:
    with contextlib.suppress(ValidationError):
        validate_kubeconfig(text)
