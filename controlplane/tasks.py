"""Every Celery task's name, in one place.

The API enqueues work by name (it never imports the workers), the workers register their tasks under the same
names, and ``controlplane.dispatch`` refuses a name that is not here, so a misspelt one fails loudly instead of
being dropped by the broker."""

from __future__ import annotations

from enum import StrEnum

__all__ = ["TaskName"]


class TaskName(StrEnum):
    PROBE_CLUSTER = "workers.tasks.probe_cluster"
    PROBE_ALL_CLUSTERS = "workers.tasks.probe_all_clusters"
    RECONCILE_GATEWAY = "workers.tasks.reconcile_gateway"
    RESYNC_CLUSTER = "workers.tasks.resync_cluster"
    RESYNC_GATEWAYS = "workers.tasks.resync_gateways"
    PLAN_GATEWAY = "workers.tasks.plan_gateway"
    RECONCILE_CATALOG = "workers.tasks.reconcile_catalog"
    POLL_CATALOGS = "workers.tasks.poll_catalogs"
    GC_CATALOG_CONTENT = "workers.tasks.gc_catalog_content"
    VALIDATE_RELEASE = "workers.tasks.validate_release"
    ADVANCE_ROLLOUT = "workers.tasks.advance_rollout"
    ADVANCE_ROLLOUTS = "workers.tasks.advance_rollouts"
    SAMPLE_FLEET = "workers.tasks.sample_fleet"
    DISPATCH_NOTIFICATIONS = "workers.tasks.dispatch_notifications"
    DELIVER_NOTIFICATION = "workers.tasks.deliver_notification"
    SWEEP_NOTIFICATIONS = "workers.tasks.sweep_notifications"
