from rest_framework.routers import DefaultRouter

from gateways.api.views import GatewayViewSet

app_name = "gateways-api"

router = DefaultRouter(trailing_slash=True)
router.include_root_view = False
router.register("gateways", GatewayViewSet, basename="gateway")
urlpatterns = router.urls
