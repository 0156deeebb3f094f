"""Existing gateways keep running exactly what they run: their images become their releases' (see
``gateways.image_migration``). Chart values stay identical, so no gateway is upgraded and Helm adds no revision."""

from typing import Any

from django.db import migrations

from gateways.image_migration import GatewayImages, plan_images

ACTIVE_ROLLOUT_PHASES = ("Pending", "Progressing", "Paused", "Halted")
RELEASE_COPIED = ("chart", "version", "values", "status", "reason", "message", "chart_version", "validated_at")


def forwards(apps: Any, schema_editor: Any) -> None:
    Gateway = apps.get_model("gateways", "Gateway")
    GatewayRelease = apps.get_model("gateways", "GatewayRelease")
    RolloutTarget = apps.get_model("rollouts", "RolloutTarget")
    releases = {r.pk: r for r in GatewayRelease.objects.all()}
    in_rollout = set(
        RolloutTarget.objects.filter(rollout__phase__in=ACTIVE_ROLLOUT_PHASES, gateway__isnull=False)
        .values_list("gateway_id", flat=True)
    )
    rows = Gateway.objects.order_by("created_at", "pk").values_list("pk", "release_id", "image", "supervisor_image")
    gateways = [GatewayImages(pk, rel, image, sup, pk in in_rollout) for pk, rel, image, sup in rows]
    plan = plan_images(
        gateways, {pk: (r.name, (r.image, r.supervisor_image) if r.image else None) for pk, r in releases.items()}
    )
    for release_id, (image, supervisor_image) in plan.release_images.items():
        GatewayRelease.objects.filter(pk=release_id).update(image=image, supervisor_image=supervisor_image)
    clone_ids = {}
    for (source_id, (image, supervisor_image)), name in plan.clones.items():
        source = releases[source_id]
        clone, _ = GatewayRelease.objects.get_or_create(
            name=name,
            defaults={**{f: getattr(source, f) for f in RELEASE_COPIED}, "image": image,
                      "supervisor_image": supervisor_image, "default": False},
        )
        clone_ids[(source_id, (image, supervisor_image))] = clone.pk
    for gateway_id, key in plan.moves.items():
        source_id, clone_id = key[0], clone_ids[key]
        Gateway.objects.filter(pk=gateway_id, deployed_release_id=source_id).update(deployed_release_id=clone_id)
        Gateway.objects.filter(pk=gateway_id).update(release_id=clone_id)
    Gateway.objects.filter(pk__in=plan.cleared).update(image="", supervisor_image="")


def backwards(apps: Any, schema_editor: Any) -> None:
    """Every gateway names its images again (the releases made forwards stay, as harmless rows)."""
    Gateway = apps.get_model("gateways", "Gateway")
    for field in ("image", "supervisor_image"):
        for gateway in Gateway.objects.filter(**{field: ""}).select_related("release"):
            value = getattr(gateway.release, field) if gateway.release else ""
            Gateway.objects.filter(pk=gateway.pk).update(**{field: value})


class Migration(migrations.Migration):

    dependencies = [
        ("gateways", "0010_release_images"),
        ("rollouts", "0001_initial"),
    ]

    operations = [migrations.RunPython(forwards, backwards)]
