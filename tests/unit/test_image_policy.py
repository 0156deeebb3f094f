"""The image rules (pure): provenance, tenant overrides under a policy, the policy's JSON form, images from values."""

from __future__ import annotations

import pytest

from controlplane.image_policy import (
    DeployedImages,
    ImagePolicy,
    OverrideMode,
    PolicyError,
    images_from_values,
    override_problem,
    parse_policy,
    provenance_problem,
)
from gateways.values import image_values

DIGEST = "sha256:" + "b" * 64


@pytest.mark.parametrize(
    ("image", "supervisor", "mixed"),
    [
        ("ghcr.io/nvidia/openshell/gateway:1", "ghcr.io/nvidia/openshell/supervisor:1", False),
        ("ghcr.io/nvidia/openshell/gateway:1", f"ghcr.io/nvidia/openshell/supervisor@{DIGEST}", False),
        ("reg:5000/o/gw:1@" + DIGEST, "reg:5000/o/sv", False),
        ("gw:1", "docker.io/library/sv:1", False),  # Docker Hub's implied registry and library/
        ("quay.io/someone/openshell-gateway:16112bc", "ghcr.io/nvidia/openshell/supervisor:16112bc", True),
        ("ghcr.io/nvidia/openshell/gateway:1", "ghcr.io/nvidia/other/supervisor:1", True),
        ("reg:5000/o/gw:1", "reg:5001/o/sv:1", True),
    ],
)
def test_provenance_is_one_registry_and_namespace(image: str, supervisor: str, mixed: bool) -> None:
    problem = provenance_problem(image, supervisor)
    assert (problem is not None) is mixed
    if mixed:
        assert "Mixed provenance" in problem and "one registry and repository namespace" in problem


ALLOW = ImagePolicy(OverrideMode.ALLOW, ("ghcr.io/nvidia/", "quay.io/team/gw"), source="cluster east")


@pytest.mark.parametrize(
    ("policy", "reference", "rule"),
    [
        (ImagePolicy(), "ghcr.io/nvidia/openshell/gateway:1", "overrides=deny"),
        (ALLOW, "docker.io/attacker/miner:latest", "rule repositories: ghcr.io/nvidia/, quay.io/team/gw"),
        (ALLOW, "attacker/miner", "repositories"),
        (ALLOW, "quay.io/team/gw2:1", "repositories"),  # an exact rule is not a prefix
        (ALLOW, "ghcr.io/nvidia/openshell/gateway:1", None),
        (ALLOW, "quay.io/team/gw@" + DIGEST, None),
        (ImagePolicy(OverrideMode.ALLOW, ("*",)), "anything.example/x/y:1", None),
        (ImagePolicy(OverrideMode.ALLOW, ("*",), require_digest=True), "r.example/x:1", "rule require_digest"),
        (ImagePolicy(OverrideMode.ALLOW, ("*",), require_digest=True), f"r.example/x:1@{DIGEST}", None),
    ],
)
def test_overrides_are_checked_against_the_policy_naming_the_rule(
    policy: ImagePolicy, reference: str, rule: str | None
) -> None:
    problem = override_problem(policy, "image", reference)
    if rule is None:
        assert problem is None
    else:
        assert problem is not None and rule in problem and problem.startswith("image:")


def test_the_policy_names_where_it_comes_from() -> None:
    problem = override_problem(ALLOW, "supervisor_image", "docker.io/x/y:1")
    assert problem is not None and "cluster east" in problem
    assert "not allowed" in ImagePolicy(source="s").describe()
    assert "ghcr.io/nvidia/" in ALLOW.describe() and "digest" not in ALLOW.describe()


@pytest.mark.parametrize(
    ("data", "expected"),
    [
        ({}, ImagePolicy(source="t")),
        ({"overrides": "deny"}, ImagePolicy(source="t")),
        (
            {"overrides": "allow", "repositories": ["*"], "require_digest": True},
            ImagePolicy(OverrideMode.ALLOW, ("*",), True, "t"),
        ),
        (
            {"overrides": "allow", "repositories": ["reg:5000/team/"]},
            ImagePolicy(OverrideMode.ALLOW, ("reg:5000/team/",), source="t"),
        ),
    ],
)
def test_policies_parse(data: dict, expected: ImagePolicy) -> None:
    assert parse_policy(data, "t") == expected


@pytest.mark.parametrize(
    ("data", "message"),
    [
        ([], "JSON object"),
        ({"overides": "allow"}, "Unknown image policy keys: overides"),
        ({"overrides": "maybe"}, "overrides must be one of deny, allow"),
        ({"overrides": "allow"}, "needs repositories"),
        ({"overrides": "allow", "repositories": "ghcr.io/x/"}, "list"),
        ({"overrides": "allow", "repositories": ["ghcr.io/x:1"]}, "is not a repository"),
        ({"overrides": "allow", "repositories": ["nginx"]}, "is not a repository"),
        ({"overrides": "allow", "repositories": [" ghcr.io/x/"]}, "is not a repository rule"),
        ({"overrides": "allow", "repositories": ["*"], "require_digest": "yes"}, "true or false"),
    ],
)
def test_unusable_policies_say_why(data: object, message: str) -> None:
    with pytest.raises(PolicyError, match=message):
        parse_policy(data, "t")  # type: ignore[arg-type]


@pytest.mark.parametrize(
    "pair",
    [
        ("ghcr.io/o/gw:1", "ghcr.io/o/sv:1"),
        (f"reg:5000/o/gw:1@{DIGEST}", f"reg:5000/o/sv@{DIGEST}"),
        ("gw", "sv:2"),
    ],
)
def test_images_from_values_invert_the_mapping(pair: tuple[str, str]) -> None:
    values = {"image": image_values(pair[0]), "supervisor": {"image": image_values(pair[1])}}
    expected = tuple(ref if (":" in ref.rsplit("/", 1)[-1] or "@" in ref) else f"{ref}:latest" for ref in pair)
    assert images_from_values(values) == DeployedImages(*expected)


@pytest.mark.parametrize(
    "values", [None, {}, {"image": {"repository": "r"}}, {"image": {"repository": "r", "tag": "1"}}]
)
def test_values_without_both_images_name_none(values: dict | None) -> None:
    assert images_from_values(values) is None
