"""Admin registration for gateways; status fields are read-only."""

from django.contrib import admin

from gateways.models import Gateway, GatewayEvent

STATUS_FIELDS = (
    "namespace", "generation", "phase", "conditions", "observed_generation", "route_address", "release_name",
    "release_revision", "release_status", "chart_version", "failure_count", "next_attempt_at",
    "deletion_requested_at", "created_at", "updated_at",
)


class GatewayEventInline(admin.TabularInline):
    model = GatewayEvent
    extra = 0
    can_delete = False
    readonly_fields = ("timestamp", "type", "reason", "message")

    def has_add_permission(self, request, obj=None) -> bool:
        return False


@admin.register(Gateway)
class GatewayAdmin(admin.ModelAdmin):
    list_display = ("name", "owner", "cluster", "phase", "route_address", "suspended", "generation")
    list_filter = ("phase", "suspended", "cluster")
    search_fields = ("name", "namespace", "image")
    readonly_fields = STATUS_FIELDS
    exclude = ("database_uri",)
    inlines = (GatewayEventInline,)
