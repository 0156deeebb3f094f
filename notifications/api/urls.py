from rest_framework.routers import DefaultRouter

from notifications.api.views import DeliveryViewSet, ReceiverViewSet, SubscriptionViewSet

app_name = "notifications-api"

router = DefaultRouter(trailing_slash=True)
router.include_root_view = False
router.register("receivers", ReceiverViewSet, basename="receiver")
router.register("subscriptions", SubscriptionViewSet, basename="subscription")
router.register("deliveries", DeliveryViewSet, basename="delivery")
urlpatterns = router.urls
