"""Gateway images against the platform's rules: what a write may set, and the ImagePolicy condition.

The rules themselves are pure (``controlplane.image_policy``); this module reads the gateway's cluster and
release. Platform admins may override images anywhere; tenants only as their cluster's policy allows. An
admin's override that the policy would refuse is an audited exception: it is kept (``ImagePolicy=True``, reason
``AdminOverride``) until someone changes the images. A policy that no longer allows a tenant's override leaves
the gateway running, with ``ImagePolicy=False`` (reason ``NotAllowed``); its next spec change must fix it, and
the next rollout removes the override.
"""

from __future__ import annotations

from datetime import datetime

from django.db import transaction

from cluster_vocabulary.kubernetes import ConditionStatus
from controlplane.conditions import find_condition, set_condition
from controlplane.image_policy import IMAGE_FIELDS, override_problem, provenance_problem
from controlplane.models import ManagedCluster
from gateways.choices import ImagePolicyReason
from gateways.models import Gateway, GatewayRelease
from gateways.states import ConditionType

__all__ = [
    "admin_exception",
    "disallowed_overrides",
    "enforced_overrides",
    "image_errors",
    "policy_condition",
    "refresh_policy_conditions",
    "with_policy_condition",
]


def disallowed_overrides(gateway: Gateway) -> dict[str, str]:
    """Each image the gateway overrides that its cluster's policy does not allow, with the rule it breaks."""
    policy = gateway.cluster.effective_image_policy()
    problems = {}
    for field in IMAGE_FIELDS:
        reference = getattr(gateway, field)
        problem = override_problem(policy, field, reference) if reference else None
        if problem:
            problems[field] = problem
    return problems


def enforced_overrides(gateway: Gateway) -> dict[str, str]:
    """``disallowed_overrides``, unless they are a platform admin's exception (then none)."""
    return {} if gateway.image_override_by_admin else disallowed_overrides(gateway)


def admin_exception(gateway: Gateway, before: Gateway | None, *, admin: bool, sets_images: bool) -> bool:
    """Whether ``gateway``'s overrides are a platform admin's exception after a write (``before`` is the stored
    gateway, None on create): an admin's write that sends images makes them one; any other write keeps the flag
    while the images stay as they were, and drops it when they change."""
    if not gateway.image_overridden:
        return False
    if admin and sets_images:
        return True
    unchanged = before is not None and all(getattr(gateway, f) == getattr(before, f) for f in IMAGE_FIELDS)
    return unchanged and before is not None and before.image_override_by_admin


def image_errors(gateway: Gateway, release: GatewayRelease | None, *, admin: bool) -> dict[str, str]:
    """Why a write may not store ``gateway``'s images (empty when it may): the policy (tenants only) and mixed
    provenance of overridden images. A missing image is a spec rule (``gateways.spec_rules``), checked by the
    model's ``clean``."""
    errors = {} if admin else enforced_overrides(gateway)
    if errors:
        return errors
    image, supervisor_image = gateway.desired_images(release)
    if image and supervisor_image and gateway.image_overridden:
        mixed = provenance_problem(image, supervisor_image)
        if mixed:
            errors["supervisor_image"] = mixed
    return errors


def policy_condition(gateway: Gateway) -> tuple[str, str, str] | None:
    """The ImagePolicy condition (status, reason, message); None for a gateway that overrides nothing and never
    had the condition."""
    problems = disallowed_overrides(gateway) if gateway.image_overridden else {}
    if problems and gateway.image_override_by_admin:
        message = "A platform admin's override, kept as an exception to the policy: " + " ".join(problems.values())
        return (ConditionStatus.TRUE, ImagePolicyReason.ADMIN_OVERRIDE, message)
    if problems:
        return (ConditionStatus.FALSE, ImagePolicyReason.NOT_ALLOWED, " ".join(problems.values()))
    if gateway.image_overridden:
        return (ConditionStatus.TRUE, ImagePolicyReason.ALLOWED, "The image overrides are allowed")
    if find_condition(gateway.conditions or [], ConditionType.IMAGE_POLICY):
        return (ConditionStatus.TRUE, ImagePolicyReason.RELEASE_IMAGES, "The gateway runs its release's images")
    return None


def with_policy_condition(gateway: Gateway, conditions: list, generation: int, now: datetime) -> list:
    """``conditions`` with the gateway's ImagePolicy condition set (unchanged when it has none)."""
    condition = policy_condition(gateway)
    if condition is None:
        return conditions
    status, reason, message = condition
    return set_condition(
        conditions,
        type_=ConditionType.IMAGE_POLICY,
        status=status,
        reason=reason,
        message=message[:1024],
        generation=generation,
        now=now,
    )


def refresh_policy_conditions(cluster: ManagedCluster, now: datetime) -> int:
    """Set ImagePolicy on the cluster's gateways that override images (after a policy change); returns how many
    changed. Nothing else changes: a gateway whose image is no longer allowed keeps running it."""
    changed = 0
    with transaction.atomic():
        gateways = Gateway.objects.select_for_update().filter(cluster=cluster).exclude(image="", supervisor_image="")
        for gateway in gateways:
            gateway.cluster = cluster
            conditions = with_policy_condition(gateway, gateway.conditions, gateway.generation, now)
            if conditions != gateway.conditions:
                Gateway.objects.filter(pk=gateway.pk).update(conditions=conditions)
                changed += 1
    return changed
