from django.apps import AppConfig
from django.db.models.signals import post_delete


class CatalogsConfig(AppConfig):
    name = "catalogs"
    default_auto_field = "django.db.models.BigAutoField"

    def ready(self) -> None:
        from catalogs.cleanup import on_catalog_deleted, on_revision_deleted
        from catalogs.dashboard import catalog_panel
        from catalogs.metrics import CatalogCollector
        from catalogs.models import Catalog, CatalogRevision
        from controlplane.dashboard import register_panel
        from controlplane.metrics import scraped_by_api

        scraped_by_api(CatalogCollector())
        register_panel("catalogs", catalog_panel)

        post_delete.connect(on_catalog_deleted, sender=Catalog, dispatch_uid="catalogs.cleanup.on_catalog_deleted")
        post_delete.connect(
            on_revision_deleted, sender=CatalogRevision, dispatch_uid="catalogs.cleanup.on_revision_deleted"
        )
