"""Spec files: JSON or YAML mappings, checked against the generated request model."""

from __future__ import annotations

import io

import pytest
from controlplane_client.models import GatewayRequest

from cpctl.exits import USAGE, CliError
from cpctl.specs import load_body, to_request, unknown_keys

SPEC = {"name": "edge", "cluster": "east", "image": "gw:1", "supervisor_image": "sv:1"}


def named(text: str, name: str = "spec.yaml") -> io.StringIO:
    source = io.StringIO(text)
    source.name = name
    return source


def test_yaml_and_json_give_the_same_body() -> None:
    yaml_text = "name: edge\ncluster: east\nimage: gw:1\nsupervisor_image: sv:1\nroute: {host: e.example.com}\n"
    json_text = (
        '{"name": "edge", "cluster": "east", "image": "gw:1", "supervisor_image": "sv:1", '
        '"route": {"host": "e.example.com"}}'
    )
    assert (
        load_body(named(yaml_text))
        == load_body(named(json_text, "spec.json"))
        == {
            **SPEC,
            "route": {"host": "e.example.com"},
        }
    )


@pytest.mark.parametrize("text", ["- a\n- b\n", "just text\n", "{not json", ""])
def test_anything_but_a_mapping_is_a_usage_error(text: str) -> None:
    with pytest.raises(CliError) as raised:
        load_body(named(text))
    assert raised.value.exit_code == USAGE and raised.value.message.startswith("spec.yaml: ")


def test_a_full_spec_becomes_the_request_with_nested_groups_and_labels() -> None:
    body = {
        **SPEC,
        "route": {"enabled": False},
        "oidc": {"issuer": "https://id.example.com"},
        "labels": {"team": "blue"},
    }
    request = to_request(GatewayRequest, body, "spec.yaml")
    assert request.to_dict() == body


def test_a_missing_required_field_is_named() -> None:
    with pytest.raises(CliError) as raised:
        to_request(GatewayRequest, {k: v for k, v in SPEC.items() if k != "cluster"}, "spec.yaml")
    assert raised.value.exit_code == USAGE and "'cluster'" in raised.value.message


def test_the_images_are_optional_overrides() -> None:
    """Without them the gateway runs its release's images; with them, they are sent as written."""
    bare = {k: v for k, v in SPEC.items() if k not in ("image", "supervisor_image")}
    assert to_request(GatewayRequest, bare, "spec.yaml").to_dict() == bare
    pinned = {**bare, "supervisor_image": "ghcr.io/nvidia/openshell/supervisor@sha256:" + "0" * 64}
    assert to_request(GatewayRequest, pinned, "spec.yaml").to_dict() == pinned


def test_unknown_fields_are_refused_not_dropped() -> None:
    with pytest.raises(CliError) as raised:
        to_request(GatewayRequest, {**SPEC, "rout": {"host": "x"}, "oidc": {"issuer": "i", "issuer_url": "u"}}, "f")
    assert raised.value.message == "f: unknown fields: rout, oidc.issuer_url"


def test_labels_are_a_free_form_map() -> None:
    body = {**SPEC, "labels": {"anything": "goes"}, "route": {"host": "h", "tls": True}}
    assert unknown_keys(body, GatewayRequest.from_dict(body)) == ["route.tls"]
