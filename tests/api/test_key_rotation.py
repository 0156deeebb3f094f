"""Encryption keys: a list (the first encrypts, all decrypt), and rotate_encryption_keys re-encrypts every row."""

from __future__ import annotations

import pytest
from cryptography.fernet import Fernet
from django.core.exceptions import ImproperlyConfigured
from django.core.management import call_command
from django.db import connection

from catalogs.models import Catalog
from controlplane.crypto import validate_keys
from controlplane.models import ManagedCluster
from gateways.models import Gateway
from tests.helpers import KUBECONFIG

pytestmark = pytest.mark.django_db

OLD, NEW = Fernet.generate_key().decode(), Fernet.generate_key().decode()
URI = "postgresql://gw:db-secret@db.example.com/gw"


def raw(table: str, column: str, pk: object) -> str:
    with connection.cursor() as cursor:
        cursor.execute(f"SELECT {column} FROM {table} WHERE id = %s", [pk])
        return cursor.fetchone()[0]


def test_validate_keys_names_the_bad_one() -> None:
    assert validate_keys("K", f"{NEW}, {OLD}") == (NEW, OLD)
    with pytest.raises(ImproperlyConfigured, match="K is not a valid Fernet key \\(key 2 of 2"):
        validate_keys("K", f"{NEW},short")


def test_rotation_reencrypts_every_row_for_the_new_key_alone(settings, alice, capsys) -> None:
    settings.FIELD_ENCRYPTION_KEYS = (OLD,)
    cluster = ManagedCluster.objects.create(name="east", kubeconfig=KUBECONFIG, base_domain="apps.example.com")
    gateway = Gateway(
        owner=alice,
        cluster=cluster,
        name="edge",
        image="r.io/gw:1",
        supervisor_image="r.io/sv:1",
        database_provider="external",
        database_uri=URI,
    )
    gateway.assign_namespace()
    gateway.save()
    catalog = Catalog.objects.create(name="ops", image_ref="r.io/ops:v1", pull_password="registry-secret")
    before = Gateway.objects.get(pk=gateway.pk)

    settings.FIELD_ENCRYPTION_KEYS = (NEW, OLD)
    assert Gateway.objects.get(pk=gateway.pk).database_uri == URI  # old rows still read
    call_command("rotate_encryption_keys")
    assert "gateways.Gateway: re-encrypted database_uri in 1 rows" in capsys.readouterr().out

    settings.FIELD_ENCRYPTION_KEYS = (NEW,)
    assert ManagedCluster.objects.get(pk=cluster.pk).kubeconfig == KUBECONFIG
    after = Gateway.objects.get(pk=gateway.pk)
    assert after.database_uri == URI
    assert (after.generation, after.updated_at) == (before.generation, before.updated_at)
    assert Catalog.objects.get(pk=catalog.pk).pull_password == "registry-secret"
    for table, column, pk in (
        ("controlplane_managedcluster", "kubeconfig", cluster.pk),
        ("gateways_gateway", "database_uri", gateway.pk),
        ("catalogs_catalog", "pull_password", catalog.pk),
    ):
        Fernet(NEW.encode()).decrypt(raw(table, column, pk).encode())  # raises unless the new key wrote it


def test_a_row_no_key_can_read_is_a_clear_error(settings, alice) -> None:
    settings.FIELD_ENCRYPTION_KEYS = (OLD,)
    cluster = ManagedCluster.objects.create(name="east", kubeconfig=KUBECONFIG, base_domain="apps.example.com")
    settings.FIELD_ENCRYPTION_KEYS = (NEW,)
    with pytest.raises(ImproperlyConfigured, match="cannot be decrypted with any key"):
        call_command("rotate_encryption_keys")
    settings.FIELD_ENCRYPTION_KEYS = (OLD,)
    assert ManagedCluster.objects.get(pk=cluster.pk).kubeconfig == KUBECONFIG
