from rest_framework.routers import DefaultRouter

from rollouts.api.views import RolloutViewSet

app_name = "rollouts-api"

router = DefaultRouter(trailing_slash=True)
router.include_root_view = False
router.register("rollouts", RolloutViewSet, basename="rollout")
urlpatterns = router.urls
