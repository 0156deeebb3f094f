"""What a release's verification checks (pure): which artefacts, where their signatures are, and how gateways
are pinned to what was verified; the trust policy's rules on write."""

from __future__ import annotations

from types import SimpleNamespace

import pytest

from controlplane.imageref import pinned_image
from gateways.release_trust import release_trust_problems
from gateways.values import image_values
from workers.release_verification import Artefact, VerificationFailed, artefacts_to_verify, chart_pinned

DIGEST = "sha256:" + "ab" * 32
KEYS = "-----BEGIN PUBLIC KEY-----\nAAAA\n-----END PUBLIC KEY-----"


def release(**fields: object) -> SimpleNamespace:
    base = {
        "chart": "oci://reg.test:5000/charts/openshell",
        "version": "0.7.0+build.1",
        "chart_digest": "",
        "image": "reg.test:5000/openshell/gateway:0.7.0",
        "supervisor_image": f"reg.test:5000/openshell/sv@{DIGEST}",
        "signature_keys": KEYS,
        "verified_digests": {},
    }
    return SimpleNamespace(**{**base, **fields})


def test_the_oci_chart_and_both_images_are_verified_where_cosign_keeps_their_signatures() -> None:
    assert artefacts_to_verify(release()) == (
        Artefact(
            "chart",
            "reg.test:5000",
            "charts/openshell",
            "0.7.0_build.1",
            "oci://reg.test:5000/charts/openshell:0.7.0+build.1",
        ),  # helm pushes `+` as `_`
        Artefact("image", "reg.test:5000", "openshell/gateway", "0.7.0", "reg.test:5000/openshell/gateway:0.7.0"),
        Artefact("supervisor_image", "reg.test:5000", "openshell/sv", DIGEST, f"reg.test:5000/openshell/sv@{DIGEST}"),
    )
    pinned_chart = artefacts_to_verify(release(chart=f"oci://reg.test/charts/gw@{DIGEST}", version=""))[0]
    assert (pinned_chart.reference, pinned_chart.pinned) == (DIGEST, True)
    local = artefacts_to_verify(release(chart="/charts/gw.tgz", chart_digest=DIGEST))
    assert [a.kind for a in local] == ["image", "supervisor_image"]  # a local chart is checked by its digest
    assert artefacts_to_verify(release(signature_keys="")) == ()


def test_an_image_without_a_registry_cannot_be_verified() -> None:
    with pytest.raises(VerificationFailed, match="image openshell/gateway:1: names no registry"):
        artefacts_to_verify(release(image="openshell/gateway:1"))


@pytest.mark.parametrize(
    ("reference", "digest", "pinned"),
    [
        ("reg.test:5000/openshell/gateway:0.7.0", DIGEST, f"reg.test:5000/openshell/gateway@{DIGEST}"),
        (f"reg.test/gw:1@sha256:{'cd' * 32}", DIGEST, f"reg.test/gw@{DIGEST}"),
        ("reg.test/gw:1", None, "reg.test/gw:1"),
        ("", DIGEST, ""),
    ],
)
def test_pinned_image(reference: str, digest: str | None, pinned: str) -> None:
    assert pinned_image(reference, digest) == pinned


def test_the_chart_renders_a_pinned_image_by_its_digest() -> None:
    values = image_values(pinned_image("reg.test:5000/openshell/gateway:0.7.0", DIGEST))
    rendered = f"{values['repository']}:{values['tag']}"  # the chart's printf "%s:%s" repository tag
    assert rendered == f"reg.test:5000/openshell/gateway@{DIGEST}"


def test_a_verified_oci_chart_is_loaded_by_its_digest() -> None:
    assert chart_pinned(release()) == ("oci://reg.test:5000/charts/openshell", "0.7.0+build.1")
    verified = {"chart": DIGEST}
    assert chart_pinned(release(), verified) == (f"oci://reg.test:5000/charts/openshell@{DIGEST}", None)
    assert chart_pinned(release(chart=f"oci://r.test/c@sha256:{'cd' * 32}", verified_digests=verified)) == (
        f"oci://r.test/c@{DIGEST}",
        None,
    )


@pytest.mark.parametrize(
    ("fields", "had_keys", "required", "field"),
    [
        ({}, None, True, None),
        ({"signature_keys": ""}, None, True, "signature_keys"),
        ({"signature_keys": ""}, False, True, None),  # releases from before the setting stay
        ({"signature_keys": ""}, None, False, None),
        ({}, True, False, None),  # its keys changed
        ({}, False, False, "signature_keys"),  # a policy added to a release
        ({"signature_keys": ""}, True, False, "signature_keys"),  # or removed from one
        ({"image": ""}, None, False, "image"),
        ({"chart_digest": DIGEST}, None, False, "chart_digest"),
        ({"chart_digest": DIGEST, "signature_keys": ""}, None, False, "chart_digest"),
        ({"chart": "/charts/gw"}, None, False, "chart_digest"),
        ({"chart": "/charts/gw", "chart_digest": DIGEST}, None, False, None),
        ({"chart": "/charts/gw", "chart_digest": DIGEST, "signature_keys": ""}, None, False, None),
    ],
)
def test_trust_rules(fields: dict, had_keys: bool | None, required: bool, field: str | None) -> None:
    problems = release_trust_problems(release(**fields), had_keys=had_keys, required=required)
    assert list(problems) == ([field] if field else [])
