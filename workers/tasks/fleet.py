"""Fleet task: sample how many gateways each cluster has in each phase, for the console's plots."""

from __future__ import annotations

import logging

from celery import shared_task
from django.utils import timezone

from controlplane.tasks import TaskName
from gateways.fleet_sampling import take_sample

__all__ = ["sample_fleet"]

log = logging.getLogger(__name__)


@shared_task(name=TaskName.SAMPLE_FLEET, ignore_result=True)
def sample_fleet() -> None:
    """Beat's tick (FLEET_SAMPLE_INTERVAL_SECONDS): this slot's sample of every cluster, and the pruning.

    Not retried: a sample that fails leaves one gap in the plots, and the next tick is one interval away
    (beat's schedule makes a tick that waited longer than that expire)."""
    run = take_sample(timezone.now())
    log.debug("fleet sample: %d written, %d pruned", run.written, run.pruned)
