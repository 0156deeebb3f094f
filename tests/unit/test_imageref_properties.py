"""Properties of parse_image_ref over generated references: only its own error, exact round trips, digests kept."""

from __future__ import annotations

import re
import string

import pytest
from hypothesis import example, given
from hypothesis import strategies as st

from controlplane import imageref
from controlplane.imageref import InvalidImageRefError, parse_image_ref
from tests.regex_shape import ambiguous_repeats
from tests.unit.strategies import DIGESTS, IMAGE_REFS, REF_NOISE, image_ref

PRINTABLE_ASCII = set(string.ascii_letters + string.digits + string.punctuation)


def parsed_or_none(text: str):
    try:
        return parse_image_ref(text)
    except InvalidImageRefError:
        return None


@given(st.one_of(st.text(max_size=60), REF_NOISE))
@example("a\n@sha256:" + "0" * 64)
@example("registry.example.com\n/app:1")
@example("app:é")
@example("app@")
def test_anything_parses_or_is_refused_and_what_parses_round_trips(text: str) -> None:
    ref = parsed_or_none(text)
    if ref is not None:
        assert str(ref) == text
        assert set(text) <= PRINTABLE_ASCII, f"{text!r} has characters no registry accepts"
        assert parse_image_ref(str(ref)) == ref


@given(IMAGE_REFS, st.integers(0, 60), st.sampled_from([" ", "\n", "\x00", "é", "@@", "::", "//", "A", ".."]))
def test_a_mangled_valid_reference_still_raises_only_its_own_error(parts: dict, at: int, junk: str) -> None:
    text = parts["text"][:at] + junk + parts["text"][at:]
    ref = parsed_or_none(text)
    assert ref is None or str(ref) == text


def test_a_long_bad_registry_is_refused() -> None:
    with pytest.raises(InvalidImageRefError, match="Invalid registry"):
        parse_image_ref("a" * 400 + ".x!/app:1")


@pytest.mark.parametrize("name", [name for name, value in vars(imageref).items() if isinstance(value, re.Pattern)])
def test_no_pattern_can_split_its_input_two_ways(name: str) -> None:
    """What keeps a long near miss cheap to refuse (the registry pattern once took 9 s on 24 letters)."""
    assert ambiguous_repeats(getattr(imageref, name).pattern) == []


def test_the_shape_check_finds_the_registry_pattern_that_backtracked() -> None:
    assert ambiguous_repeats(r"^(?:[A-Za-z0-9](?:[A-Za-z0-9-]*[A-Za-z0-9])?\.?)+(?::[0-9]{1,5})?$") != []


@given(IMAGE_REFS)
def test_valid_references_parse_into_their_parts(parts: dict) -> None:
    ref = parse_image_ref(parts["text"])
    assert (ref.registry, ref.repository, ref.tag, ref.digest) == (
        parts["registry"],
        parts["repository"],
        parts["tag"],
        parts["digest"],
    )
    assert str(ref) == parts["text"]


@given(image_ref(digest=DIGESTS))
def test_a_digest_reference_keeps_its_digest(parts: dict) -> None:
    ref = parse_image_ref(parts["text"])
    assert ref.digest == parts["digest"] and str(ref).endswith("@" + parts["digest"])
