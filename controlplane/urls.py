"""Project URLs: the REST API under /api/v1/, the schema and its docs (served from local static files),
the admin, and health."""

from django.contrib import admin
from django.urls import include, path
from drf_spectacular.views import SpectacularAPIView, SpectacularRedocView, SpectacularSwaggerSplitView

from controlplane.csp import DOCS_POLICY, csp
from controlplane.health import healthz, readyz
from controlplane.scrape import metrics_view

api_v1 = [
    path("", include("controlplane.api.urls")),
    path("", include("gateways.api.urls")),
    path("", include("catalogs.api.urls")),
    path("", include("rollouts.api.urls")),
    path("", include("notifications.api.urls")),
    path("schema/", SpectacularAPIView.as_view(), name="schema"),
    path(
        "schema/swagger-ui/",
        csp(DOCS_POLICY)(
            SpectacularSwaggerSplitView.as_view(
                url_name="schema",
                template_name="controlplane/docs/swagger_ui.html",
            )
        ),
        name="swagger-ui",
    ),
    path(
        "schema/redoc/",
        csp(DOCS_POLICY)(SpectacularRedocView.as_view(url_name="schema", template_name="controlplane/docs/redoc.html")),
        name="redoc",
    ),
]

urlpatterns = [
    path("api/v1/", include(api_v1)),
    path("admin/", admin.site.urls),
    path("healthz", healthz, name="healthz"),
    path("readyz", readyz, name="readyz"),
    path("catalogs/", include("catalogs.content.urls")),
    path("metrics", metrics_view, name="metrics"),
]

handler400 = "controlplane.http_errors.bad_request"
handler403 = "controlplane.http_errors.permission_denied"
handler404 = "controlplane.http_errors.not_found"
handler500 = "controlplane.http_errors.server_error"
