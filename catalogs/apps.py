from django.apps import AppConfig


class CatalogsConfig(AppConfig):
    name = "catalogs"
    default_auto_field = "django.db.models.BigAutoField"
