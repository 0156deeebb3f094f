"""The migration's plan (pure): releases take the images their gateways run; nothing a gateway runs changes."""

from __future__ import annotations

from gateways.image_migration import GatewayImages, clone_name, plan_images

A = ("ghcr.io/o/gw:1", "ghcr.io/o/sv:1")
B = ("ghcr.io/o/gw:2", "ghcr.io/o/sv:2")
MIXED = ("quay.io/x/gw:1", "ghcr.io/o/sv:1")


def gw(id_: str, release: str | None, pair: tuple[str, str], active: bool = False) -> GatewayImages:
    return GatewayImages(id_, release, *pair, in_active_rollout=active)


def test_the_most_common_pair_becomes_the_release_and_others_get_releases_of_their_own() -> None:
    gateways = [gw("1", "r", B), gw("2", "r", A), gw("3", "r", A), gw("4", "r", B), gw("5", "r", A)]
    plan = plan_images(gateways, {"r": ("v1", None)})
    assert plan.release_images == {"r": A}
    assert plan.clones == {("r", B): clone_name("v1", B)}
    assert plan.moves == {"1": ("r", B), "4": ("r", B)}
    assert plan.cleared == {"1", "2", "3", "4", "5"}


def test_a_tie_goes_to_the_earliest_gateway() -> None:
    plan = plan_images([gw("1", "r", B), gw("2", "r", A)], {"r": ("v1", None)})
    assert plan.release_images == {"r": B}


def test_overrides_are_kept_for_mixed_provenance_active_rollouts_and_gateways_without_a_release() -> None:
    gateways = [gw("1", "r", A), gw("2", "r", MIXED), gw("3", "r", B, active=True), gw("4", None, A)]
    plan = plan_images(gateways, {"r": ("v1", None)})
    assert plan.release_images == {"r": A} and plan.clones == {} and plan.moves == {}
    assert plan.cleared == {"1"}


def test_a_release_with_images_keeps_them() -> None:
    plan = plan_images([gw("1", "r", A), gw("2", "r", B)], {"r": ("v1", B)})
    assert plan.release_images == {} and plan.cleared == {"1", "2"} and plan.moves == {"1": ("r", A)}


def test_clone_names_are_dns_labels_of_at_most_63_characters() -> None:
    name = clone_name("x" * 60 + "-", A)
    assert len(name) == 63 and name[54] == "-" and "--" not in name
    assert clone_name("v1", A) != clone_name("v1", B) and clone_name("v1", A) == clone_name("v1", A)
