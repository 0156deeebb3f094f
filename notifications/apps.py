from django.apps import AppConfig


class NotificationsConfig(AppConfig):
    name = "notifications"
    default_auto_field = "django.db.models.BigAutoField"

    def ready(self) -> None:
        from controlplane.metrics import scraped_by_api
        from controlplane.models import events_recorded
        from notifications import outbox
        from notifications.metrics import DeliveryCollector

        events_recorded.connect(outbox.on_events_recorded, dispatch_uid="notifications.outbox")
        scraped_by_api(DeliveryCollector())
