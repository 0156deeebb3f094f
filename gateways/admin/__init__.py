"""The gateway console: lists with phase badges, detail pages with status, and the operations.

The operations mirror the REST API: retry resets the failure counter and backoff, resync only
enqueues, suspend and resume change the spec (so the generation moves), and delete marks the
gateway Deleting; the worker uninstalls it and removes the row. Every one of them enqueues a
reconcile once the transaction commits. Tenants (staff who are not superusers) see and change
only their own gateways.

- ``gateway``: the ModelAdmin (access, fieldsets, saving, actions);
- ``form``: the spec form (the database URI is write-only) and the checks the API makes too;
- ``display``: badge tones, the list columns and the detail page's read-only fields;
- ``views``: the operation buttons and the "Preview changes" pages;
- ``messages``: what the operations tell the user;
- ``dashboard``: the console dashboard's gateway panel (registered from ``GatewaysConfig.ready``).
"""

from gateways.admin.gateway import GatewayAdmin

__all__ = ["GatewayAdmin"]
