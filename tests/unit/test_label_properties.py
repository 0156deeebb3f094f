"""Properties of validate_labels: only ValidationError, and Kubernetes' rules for generated keys and values.

Valid cases are built from the grammar of a qualified name (optional DNS-1123 subdomain prefix, `/`, a
name of at most 63 alphanumerics, `-`, `_`, `.`, alphanumeric at both ends) and of a label value (the same,
or empty); invalid ones break exactly one rule of it.
"""

from __future__ import annotations

import pytest
from django.core.exceptions import ValidationError
from hypothesis import example, given
from hypothesis import strategies as st

from controlplane.validators import validate_labels
from tests.unit.strategies import LABEL_NAMES, LABEL_VALUES, SUBDOMAINS

KEYS = st.one_of(LABEL_NAMES, st.builds(lambda prefix, name: f"{prefix}/{name}", SUBDOMAINS, LABEL_NAMES))
JSON = st.recursive(
    st.one_of(st.none(), st.booleans(), st.integers(), st.floats(allow_nan=False), st.text(max_size=70)),
    lambda children: st.one_of(
        st.lists(children, max_size=3), st.dictionaries(st.text(max_size=70), children, max_size=3)
    ),
    max_leaves=10,
)
# One broken rule each: what Kubernetes' IsQualifiedName / IsValidLabelValue refuse.
BAD_NAMES = st.one_of(
    st.just(""),
    st.just("a" * 64),
    LABEL_NAMES.map(lambda n: f"-{n}"),
    LABEL_NAMES.map(lambda n: f"{n}."),
    st.builds(lambda n, c: n + c + n, LABEL_NAMES, st.sampled_from(" \n\t@:!é*")),
    LABEL_NAMES.map(lambda n: n + "\n"),
)
BAD_KEYS = st.one_of(
    BAD_NAMES,
    LABEL_NAMES.map(lambda n: f"/{n}"),
    LABEL_NAMES.map(lambda n: f"a/b/{n}"),
    st.builds(lambda p, n: f"{p.upper()}/{n}", SUBDOMAINS.filter(lambda p: any(c.isalpha() for c in p)), LABEL_NAMES),
    st.builds(lambda p, n: f"{p}-/{n}", SUBDOMAINS, LABEL_NAMES),
    LABEL_NAMES.map(lambda n: f"{'a' * 254}/{n}"),
)
BAD_VALUES = BAD_NAMES.filter(bool)


@given(st.one_of(JSON, st.dictionaries(st.one_of(KEYS, BAD_KEYS), st.one_of(LABEL_VALUES, BAD_VALUES, JSON))))
def test_anything_is_accepted_or_a_validation_error(value: object) -> None:
    try:
        validate_labels(value)
    except ValidationError as exc:
        assert exc.code == "invalid_label"


@given(st.dictionaries(KEYS, LABEL_VALUES, max_size=64))
def test_what_kubernetes_accepts_is_accepted(labels: dict[str, str]) -> None:
    validate_labels(labels)


@given(BAD_KEYS, LABEL_VALUES)
@example("/app", "x")
@example("app\n", "x")
def test_keys_kubernetes_refuses_are_refused(key: str, value: str) -> None:
    with pytest.raises(ValidationError):
        validate_labels({key: value})


@given(KEYS, BAD_VALUES)
@example("app", "x\n")
def test_values_kubernetes_refuses_are_refused(key: str, value: str) -> None:
    with pytest.raises(ValidationError):
        validate_labels({key: value})
