from rest_framework.routers import DefaultRouter

from gateways.api.plans import GatewayPlanViewSet
from gateways.api.releases import GatewayReleaseViewSet
from gateways.api.views import GatewayViewSet

app_name = "gateways-api"

router = DefaultRouter(trailing_slash=True)
router.include_root_view = False
# Before "gateways", so that "gateways/plans/..." is never read as a gateway id.
router.register("gateways/plans", GatewayPlanViewSet, basename="gateway-plan")
router.register("gateways", GatewayViewSet, basename="gateway")
router.register("releases", GatewayReleaseViewSet, basename="release")
urlpatterns = router.urls
