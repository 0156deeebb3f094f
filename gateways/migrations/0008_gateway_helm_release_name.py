"""Gateways get a stored Helm release name. New gateways' releases are unique (`<name>-<id8>`), so the chart's
cluster-scoped objects (named after the release) are unique per gateway; every existing gateway keeps its
gateway name as its release name, so nothing installed is renamed or reinstalled."""

from django.db import migrations, models


def keep_existing_release_names(apps, schema_editor):
    Gateway = apps.get_model("gateways", "Gateway")
    Gateway.objects.filter(helm_release_name="").update(helm_release_name=models.F("name"))


class Migration(migrations.Migration):

    dependencies = [
        ("gateways", "0007_gateway_releases"),
    ]

    operations = [
        migrations.AddField(
            model_name="gateway",
            name="helm_release_name",
            field=models.CharField(default="", editable=False, max_length=53),
        ),
        migrations.RunPython(keep_existing_release_names, migrations.RunPython.noop),
    ]
