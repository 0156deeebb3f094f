"""URLs of the slim content server: the content routes, wholesale, and health."""

from django.urls import include, path

from controlplane.health import healthz, readyz_content

urlpatterns = [
    path("healthz", healthz, name="healthz"),
    path("readyz", readyz_content, name="readyz"),
    path("catalogs/", include("catalogs.content.urls")),
]

handler400 = "controlplane.http_errors.bad_request"
handler403 = "controlplane.http_errors.permission_denied"
handler404 = "controlplane.http_errors.not_found"
handler500 = "controlplane.http_errors.server_error"
