from rest_framework.routers import DefaultRouter

from catalogs.api.views import CatalogViewSet

app_name = "catalogs-api"

router = DefaultRouter(trailing_slash=True)
router.include_root_view = False
router.register("catalogs", CatalogViewSet, basename="catalog")
urlpatterns = router.urls
