from rest_framework.routers import DefaultRouter

from controlplane.api.clusters import ClusterViewSet

app_name = "controlplane-api"

router = DefaultRouter(trailing_slash=True)
router.include_root_view = False
router.register("clusters", ClusterViewSet, basename="cluster")
urlpatterns = router.urls
