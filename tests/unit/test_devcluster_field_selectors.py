"""devcluster's field selectors parse and refuse as kube-apiserver does: values with `/`, escapes, and only the
field labels a resource selects on."""

from __future__ import annotations

import pytest

from devcluster.errors import ApiError
from devcluster.field_selectors import field_matcher

SECRETS, CONFIGMAPS = ("", "secrets"), ("", "configmaps")
TLS = {"metadata": {"name": "a,b", "namespace": "ns"}, "type": "kubernetes.io/tls"}
OPAQUE = {"metadata": {"name": "c", "namespace": "ns"}, "type": "Opaque"}


@pytest.mark.parametrize(
    ("selector", "selected"),
    [
        ("type=kubernetes.io/tls", [TLS]),
        ("type!=kubernetes.io/tls", [OPAQUE]),
        ("type==Opaque", [OPAQUE]),
        (r"metadata.name=a\,b", [TLS]),
        (r"metadata.name=a\,b,metadata.namespace=ns", [TLS]),
        ("", [TLS, OPAQUE]),
    ],
)
def test_secrets_select_on_their_type_and_names(selector: str, selected: list[dict]) -> None:
    matches = field_matcher(selector, SECRETS)
    assert [obj for obj in (TLS, OPAQUE) if matches(obj)] == selected


@pytest.mark.parametrize(
    ("selector", "resource", "message"),
    [
        ("type=kubernetes.io/tls", CONFIGMAPS, "field label not supported: type"),
        ("spec.replicas=1", ("apps", "deployments"), "field label not supported: spec.replicas"),
        ("metadata.name", SECRETS, "can't understand"),
        (r"metadata.name=a\b", SECRETS, "invalid escape sequence"),
    ],
)
def test_what_the_api_server_refuses_is_refused(selector: str, resource: tuple[str, str], message: str) -> None:
    with pytest.raises(ApiError, match=message):
        field_matcher(selector, resource)
