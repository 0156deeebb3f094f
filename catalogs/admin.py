"""Admin registration for catalogs; status fields are read-only."""

from django.contrib import admin

from catalogs.models import Catalog


@admin.register(Catalog)
class CatalogAdmin(admin.ModelAdmin):
    list_display = ("name", "image_ref", "availability_mode", "priority", "resolved_ref", "last_unpacked")
    list_filter = ("availability_mode",)
    search_fields = ("name", "image_ref")
    readonly_fields = (
        "generation", "conditions", "observed_generation", "resolved_ref", "base_url", "last_unpacked",
        "content_digest", "created_at", "updated_at",
    )
    exclude = ("pull_password",)
