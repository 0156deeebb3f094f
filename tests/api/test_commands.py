"""Operator CLI: addcluster and createtoken, as scripts would call them."""

from __future__ import annotations

import pytest
from django.core.management import CommandError, call_command
from rest_framework.test import APIClient

from controlplane.models import ManagedCluster
from tests.helpers import KUBECONFIG

pytestmark = pytest.mark.django_db


def test_addcluster_registers_and_updates(tmp_path, capsys) -> None:
    kubeconfig = tmp_path / "kc.yaml"
    kubeconfig.write_text(KUBECONFIG)
    call_command(
        "addcluster", "lab", "--kubeconfig", str(kubeconfig), "--flavour=openshift", "--base-domain=lab.example.com"
    )
    cluster = ManagedCluster.objects.get(name="lab")
    assert (cluster.flavour, cluster.base_domain, cluster.kubeconfig) == ("openshift", "lab.example.com", KUBECONFIG)
    assert "super-secret-token-value" not in capsys.readouterr().out
    call_command("addcluster", "lab", "--kubeconfig", str(kubeconfig), "--base-domain", "new.example.com")
    assert ManagedCluster.objects.get(name="lab").base_domain == "new.example.com"
    assert ManagedCluster.objects.count() == 1


@pytest.mark.parametrize(
    ("name", "content", "message"),
    [("lab", "not: [yaml", "not valid YAML"), ("Bad_Name", KUBECONFIG, "DNS-1123"), ("lab", None, "cannot read")],
)
def test_addcluster_rejects_bad_input(tmp_path, name: str, content: str | None, message: str) -> None:
    kubeconfig = tmp_path / "kc.yaml"
    if content is not None:
        kubeconfig.write_text(content)
    with pytest.raises(CommandError, match=message):
        call_command("addcluster", name, "--kubeconfig", str(kubeconfig))
    assert not ManagedCluster.objects.exists()


def test_createtoken_prints_a_working_token(admin_user, capsys) -> None:
    call_command("createtoken", admin_user.username)
    token = capsys.readouterr().out.strip()
    call_command("createtoken", admin_user.username)
    assert capsys.readouterr().out.strip() == token
    client = APIClient()
    client.credentials(HTTP_AUTHORIZATION=f"Token {token}")
    assert client.get("/api/v1/clusters/").status_code == 200
    call_command("createtoken", admin_user.username, "--rotate")
    assert capsys.readouterr().out.strip() != token
    assert client.get("/api/v1/clusters/").status_code == 401


def test_createtoken_unknown_user() -> None:
    with pytest.raises(CommandError, match="no user named"):
        call_command("createtoken", "ghost")
