"""Clusters that already have gateways keep the chart's sandbox NetworkPolicy (`network_policy=True`).

Before `ManagedCluster.network_policy` the mapping left the chart's default (on), so every installed gateway has
the policy. New clusters default to off; an upgrade removes a running gateway's policy only when a platform admin
turns its cluster's setting off. The values mapped for these clusters are what they were, so nothing is upgraded.
"""

from typing import Any

from django.db import migrations


def forwards(apps: Any, schema_editor: Any) -> None:
    ManagedCluster = apps.get_model("controlplane", "ManagedCluster")
    Gateway = apps.get_model("gateways", "Gateway")
    with_gateways = Gateway.objects.values("cluster_id")
    ManagedCluster.objects.filter(pk__in=with_gateways).update(network_policy=True)


class Migration(migrations.Migration):

    dependencies = [
        ("controlplane", "0010_cluster_network_policy"),
        ("gateways", "0014_gateway_force_deletion"),
    ]

    operations = [migrations.RunPython(forwards, migrations.RunPython.noop)]
