"""Notifications: receivers (signed webhooks, Slack-compatible webhooks), subscriptions to recorded events,
and a delivery log. Events are matched after they commit; Celery delivers each at least once."""
