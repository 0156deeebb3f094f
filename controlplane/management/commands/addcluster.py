"""``manage.py addcluster NAME --kubeconfig FILE``: register (or update) a managed cluster."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from django.core.exceptions import ValidationError
from django.core.management.base import BaseCommand, CommandError, CommandParser

from controlplane.choices import Flavour
from controlplane.dispatch import send
from controlplane.models import ManagedCluster
from controlplane.tasks import TaskName


class Command(BaseCommand):
    help = "Register a Kubernetes cluster from a kubeconfig file, or update the one with that name."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("name")
        parser.add_argument("--kubeconfig", required=True, type=Path)
        parser.add_argument("--flavour", choices=Flavour.values, default=Flavour.KUBERNETES)
        parser.add_argument("--base-domain", default="apps.example.test")
        parser.add_argument("--no-gateway-api", action="store_true", help="The cluster does not serve the Gateway API.")
        parser.add_argument("--trusted-ca", type=Path, help="A PEM bundle to trust inside gateways.")

    def handle(self, *args: Any, **options: Any) -> None:
        try:
            kubeconfig = options["kubeconfig"].read_text()
            trusted_ca = options["trusted_ca"].read_text() if options["trusted_ca"] else ""
        except OSError as exc:
            raise CommandError(f"cannot read {exc.filename}: {exc.strerror}") from None
        cluster = ManagedCluster.objects.filter(name=options["name"]).first() or ManagedCluster(name=options["name"])
        cluster.flavour = options["flavour"]
        cluster.kubeconfig = kubeconfig
        cluster.base_domain = options["base_domain"]
        cluster.gateway_api = not options["no_gateway_api"]
        cluster.trusted_ca_pem = trusted_ca
        try:
            cluster.full_clean()
        except ValidationError as exc:
            problems = "; ".join(f"{field}: {' '.join(msgs)}" for field, msgs in exc.message_dict.items())
            raise CommandError(problems) from None
        cluster.save()
        send(TaskName.PROBE_CLUSTER, cluster.pk)
        self.stdout.write(f"cluster {cluster.name} registered with id {cluster.pk}")
