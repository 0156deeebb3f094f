"""Release tasks: verify and validate a new release, again with backoff while its registry cannot be reached."""

from __future__ import annotations

from celery import Task, shared_task

from controlplane.tasks import TaskName
from gateways.choices import ReleaseStatus
from gateways.models import GatewayRelease
from workers import releases, singletons
from workers.release_verification import needs_reverification
from workers.tasks.transient import retried_when_transient

__all__ = ["validate_release"]


@shared_task(bind=True, name=TaskName.VALIDATE_RELEASE, ignore_result=True)
def validate_release(self: Task, release_id: str) -> None:
    """Ready or Invalid once, and verified again when its keys change; a release left Pending (its chart or
    signatures unreachable), or not verified again yet, is tried again later (GATEWAY_RETRY_* backoff); meanwhile its
    gateways and rollouts wait, and never run it unverified."""
    with retried_when_transient(self):
        release = GatewayRelease.objects.filter(pk=release_id).first()
        if release is None:
            return
        release = releases.validate(release)
    if release.status == ReleaseStatus.PENDING or needs_reverification(release):
        countdown = singletons.pull_policy().delay(self.request.retries + 1).total_seconds()
        raise self.retry(countdown=countdown, max_retries=None)
