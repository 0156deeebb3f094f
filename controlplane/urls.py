"""Project URLs: the REST API under /api/v1/, the schema and its docs, the admin, and health."""

from django.contrib import admin
from django.urls import include, path
from drf_spectacular.views import SpectacularAPIView, SpectacularRedocView, SpectacularSwaggerView

from controlplane.health import healthz, readyz
from controlplane.scrape import metrics_view

api_v1 = [
    path("", include("controlplane.api.urls")),
    path("", include("gateways.api.urls")),
    path("", include("catalogs.api.urls")),
    path("", include("rollouts.api.urls")),
    path("schema/", SpectacularAPIView.as_view(), name="schema"),
    path("schema/swagger-ui/", SpectacularSwaggerView.as_view(url_name="schema"), name="swagger-ui"),
    path("schema/redoc/", SpectacularRedocView.as_view(url_name="schema"), name="redoc"),
]

urlpatterns = [
    path("api/v1/", include(api_v1)),
    path("admin/", admin.site.urls),
    path("healthz", healthz, name="healthz"),
    path("readyz", readyz, name="readyz"),
    path("catalogs/", include("catalogs.content.urls")),
    path("metrics", metrics_view, name="metrics"),
]

handler400 = "controlplane.api.errors.bad_request"
handler403 = "controlplane.api.errors.permission_denied"
handler404 = "controlplane.api.errors.not_found"
handler500 = "controlplane.api.errors.server_error"
