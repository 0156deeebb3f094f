"""Hypothesis strategies shared by the property tests: OCI image references and Kubernetes label parts."""

from __future__ import annotations

import string

from hypothesis import strategies as st

__all__ = ["DIGESTS", "IMAGE_REFS", "LABEL_NAMES", "LABEL_VALUES", "REF_NOISE", "SUBDOMAINS", "image_ref"]

_LOWER = string.ascii_lowercase + string.digits
_ALNUM = string.ascii_letters + string.digits


def _joined(parts: st.SearchStrategy[list[str]], separators: st.SearchStrategy[str]) -> st.SearchStrategy[str]:
    """``parts`` joined by a separator drawn for each gap."""
    return st.builds(
        lambda items, seps: items[0] + "".join(s + p for s, p in zip(seps, items[1:], strict=False)),
        parts,
        st.lists(separators, min_size=4, max_size=4),
    )


_WORDS = st.lists(st.text(_LOWER, min_size=1, max_size=5), min_size=1, max_size=4)
COMPONENTS = _joined(_WORDS, st.sampled_from([".", "_", "__", "-", "--"]))
PATHS = st.lists(COMPONENTS, min_size=1, max_size=3).map("/".join).filter(lambda p: ".." not in p)
_DNS_LABELS = _joined(st.lists(st.text(_LOWER, min_size=1, max_size=6), min_size=1, max_size=3), st.just("-"))
SUBDOMAINS = st.lists(_DNS_LABELS, min_size=1, max_size=4).map(".".join)
_PORTS = st.one_of(st.just(""), st.integers(1, 65535).map(lambda p: f":{p}"))
REGISTRIES = st.one_of(
    st.just(""),
    st.builds(lambda host, port: host + port, SUBDOMAINS.filter(lambda d: "." in d), _PORTS),
    st.builds(lambda port: "localhost" + port, _PORTS),
    st.builds(lambda port: "[::1]" + port, _PORTS),
)
TAGS = st.one_of(
    st.none(),
    st.builds(
        lambda first, rest: first + rest,
        st.sampled_from(_ALNUM + "_"),
        st.text(_ALNUM + "_.-", max_size=20),
    ),
)
DIGESTS = st.one_of(
    st.text("0123456789abcdef", min_size=64, max_size=64).map(lambda h: f"sha256:{h}"),
    st.builds(
        lambda algo, hex_: f"{algo}:{hex_}",
        st.sampled_from(["sha512", "blake3", "multi+hash"]),
        st.text("0123456789abcdefABCDEF", min_size=32, max_size=80),
    ),
)

OPTIONAL_DIGESTS = st.one_of(st.none(), DIGESTS)


def _hostlike(component: str) -> bool:
    return "." in component or component == "localhost"


@st.composite
def image_ref(draw: st.DrawFn, digest: st.SearchStrategy[str | None] = OPTIONAL_DIGESTS) -> dict:
    """The parts of a valid reference and its ``text``."""
    registry = draw(REGISTRIES)
    # Without a registry, a first component with a dot (or `localhost`) would be read as one.
    paths = PATHS if registry else PATHS.filter(lambda p: "/" not in p or not _hostlike(p.split("/")[0]))
    parts = {"registry": registry, "repository": draw(paths), "tag": draw(TAGS), "digest": draw(digest)}
    text = f"{parts['registry']}/{parts['repository']}" if parts["registry"] else parts["repository"]
    text += f":{parts['tag']}" if parts["tag"] else ""
    text += f"@{parts['digest']}" if parts["digest"] else ""
    return {**parts, "text": text}


IMAGE_REFS = image_ref()
# Characters a reference is made of, and some that must never get through.
REF_NOISE = st.text(_LOWER + "ABC:/@._-[]+ \n\t\x00é", max_size=40)

_ALNUM_CHARS = st.sampled_from(_ALNUM)
LABEL_NAMES = st.one_of(
    _ALNUM_CHARS,
    st.builds(
        lambda first, middle, last: first + middle + last,
        _ALNUM_CHARS,
        st.text(_ALNUM + "-_.", max_size=61),
        _ALNUM_CHARS,
    ),
)
LABEL_VALUES = st.one_of(st.just(""), LABEL_NAMES)
