"""Contains all the data models used in inputs/outputs"""

from .action_enum import ActionEnum
from .approval_summary import ApprovalSummary
from .approve_request import ApproveRequest
from .availability_mode_enum import AvailabilityModeEnum
from .blocked import Blocked
from .catalog import Catalog
from .catalog_diff import CatalogDiff
from .catalog_event import CatalogEvent
from .catalog_labels import CatalogLabels
from .catalog_request import CatalogRequest
from .catalog_request_labels import CatalogRequestLabels
from .catalog_revision import CatalogRevision
from .catalog_status import CatalogStatus
from .catalogs_list_availability_mode import CatalogsListAvailabilityMode
from .change_enum import ChangeEnum
from .channel_entries_diff import ChannelEntriesDiff
from .channel_entry import ChannelEntry
from .check import Check
from .check_state_enum import CheckStateEnum
from .cluster import Cluster
from .cluster_capabilities import ClusterCapabilities
from .cluster_event import ClusterEvent
from .cluster_flavour_enum import ClusterFlavourEnum
from .cluster_request import ClusterRequest
from .cluster_status import ClusterStatus
from .clusters_list_flavour import ClustersListFlavour
from .condition import Condition
from .condition_request import ConditionRequest
from .condition_status_enum import ConditionStatusEnum
from .counts import Counts
from .database import Database
from .database_request import DatabaseRequest
from .deliveries_list_event_kind import DeliveriesListEventKind
from .deliveries_list_severity import DeliveriesListSeverity
from .deliveries_list_status import DeliveriesListStatus
from .delivery import Delivery
from .delivery_status_enum import DeliveryStatusEnum
from .deployed_images import DeployedImages
from .deployed_release import DeployedRelease
from .desired_images import DesiredImages
from .diff_add_remove_counts import DiffAddRemoveCounts
from .diff_changed_object import DiffChangedObject
from .diff_changed_package import DiffChangedPackage
from .diff_counts import DiffCounts
from .diff_object import DiffObject
from .diff_package import DiffPackage
from .error import Error
from .error_detail import ErrorDetail
from .error_detail_fields import ErrorDetailFields
from .event_type_enum import EventTypeEnum
from .failure_policy_enum import FailurePolicyEnum
from .field_change import FieldChange
from .freeze import Freeze
from .freeze_request import FreezeRequest
from .gateway import Gateway
from .gateway_event import GatewayEvent
from .gateway_labels import GatewayLabels
from .gateway_phase_enum import GatewayPhaseEnum
from .gateway_plan import GatewayPlan
from .gateway_plan_status_enum import GatewayPlanStatusEnum
from .gateway_release import GatewayRelease
from .gateway_release_request import GatewayReleaseRequest
from .gateway_release_request_values import GatewayReleaseRequestValues
from .gateway_release_values import GatewayReleaseValues
from .gateway_request import GatewayRequest
from .gateway_request_labels import GatewayRequestLabels
from .gateway_status import GatewayStatus
from .gateways_list_phase import GatewaysListPhase
from .image_overrides_enum import ImageOverridesEnum
from .image_policy import ImagePolicy
from .image_policy_request import ImagePolicyRequest
from .image_source import ImageSource
from .image_source_request import ImageSourceRequest
from .kind_enum import KindEnum
from .maintenance_window_status import MaintenanceWindowStatus
from .maintenance_windows import MaintenanceWindows
from .maintenance_windows_request import MaintenanceWindowsRequest
from .notification_event_kind_enum import NotificationEventKindEnum
from .notification_severity_enum import NotificationSeverityEnum
from .object_diff import ObjectDiff
from .objects_diff import ObjectsDiff
from .oidc import Oidc
from .oidc_request import OidcRequest
from .override_window_request import OverrideWindowRequest
from .packages_diff import PackagesDiff
from .paginated_catalog_event_list import PaginatedCatalogEventList
from .paginated_catalog_list import PaginatedCatalogList
from .paginated_cluster_event_list import PaginatedClusterEventList
from .paginated_cluster_list import PaginatedClusterList
from .paginated_delivery_list import PaginatedDeliveryList
from .paginated_gateway_event_list import PaginatedGatewayEventList
from .paginated_gateway_list import PaginatedGatewayList
from .paginated_gateway_release_list import PaginatedGatewayReleaseList
from .paginated_receiver_list import PaginatedReceiverList
from .paginated_release_event_list import PaginatedReleaseEventList
from .paginated_rollout_event_list import PaginatedRolloutEventList
from .paginated_rollout_list import PaginatedRolloutList
from .paginated_rollout_target_list import PaginatedRolloutTargetList
from .paginated_subscription_list import PaginatedSubscriptionList
from .patched_catalog_request import PatchedCatalogRequest
from .patched_catalog_request_labels import PatchedCatalogRequestLabels
from .patched_cluster_request import PatchedClusterRequest
from .patched_gateway_release_request import PatchedGatewayReleaseRequest
from .patched_gateway_release_request_values import PatchedGatewayReleaseRequestValues
from .patched_gateway_request import PatchedGatewayRequest
from .patched_gateway_request_labels import PatchedGatewayRequestLabels
from .patched_receiver_request import PatchedReceiverRequest
from .patched_subscription_request import PatchedSubscriptionRequest
from .patched_subscription_request_labels import PatchedSubscriptionRequestLabels
from .plan_result import PlanResult
from .planned_gateway import PlannedGateway
from .planned_gateway_plan import PlannedGatewayPlan
from .provider_enum import ProviderEnum
from .pull_secret import PullSecret
from .pull_secret_request import PullSecretRequest
from .reason_enum import ReasonEnum
from .receiver import Receiver
from .receiver_check import ReceiverCheck
from .receiver_kind_enum import ReceiverKindEnum
from .receiver_request import ReceiverRequest
from .receivers_list_kind import ReceiversListKind
from .recurring_window import RecurringWindow
from .recurring_window_request import RecurringWindowRequest
from .reject_request import RejectRequest
from .release import Release
from .release_event import ReleaseEvent
from .release_status import ReleaseStatus
from .release_status_enum import ReleaseStatusEnum
from .releases_list_status import ReleasesListStatus
from .rollout import Rollout
from .rollout_event import RolloutEvent
from .rollout_phase_enum import RolloutPhaseEnum
from .rollout_request import RolloutRequest
from .rollout_status import RolloutStatus
from .rollout_target import RolloutTarget
from .rollout_target_state_enum import RolloutTargetStateEnum
from .rollouts_list_phase import RolloutsListPhase
from .route import Route
from .route_request import RouteRequest
from .selector import Selector
from .selector_labels import SelectorLabels
from .selector_request import SelectorRequest
from .selector_request_labels import SelectorRequestLabels
from .signature_policy import SignaturePolicy
from .signature_policy_request import SignaturePolicyRequest
from .source import Source
from .source_request import SourceRequest
from .source_type_enum import SourceTypeEnum
from .subscription import Subscription
from .subscription_labels import SubscriptionLabels
from .subscription_request import SubscriptionRequest
from .subscription_request_labels import SubscriptionRequestLabels
from .subscriptions_list_min_severity import SubscriptionsListMinSeverity
from .total import Total
from .upgrade_edge import UpgradeEdge
from .upgrade_edges_diff import UpgradeEdgesDiff
from .urls import Urls
from .verified_digests import VerifiedDigests
from .wave_approval_state_enum import WaveApprovalStateEnum
from .wave_plan import WavePlan
from .wave_status import WaveStatus
from .waves import Waves
from .waves_request import WavesRequest

__all__ = (
    "ActionEnum",
    "ApprovalSummary",
    "ApproveRequest",
    "AvailabilityModeEnum",
    "Blocked",
    "Catalog",
    "CatalogDiff",
    "CatalogEvent",
    "CatalogLabels",
    "CatalogRequest",
    "CatalogRequestLabels",
    "CatalogRevision",
    "CatalogStatus",
    "CatalogsListAvailabilityMode",
    "ChangeEnum",
    "ChannelEntriesDiff",
    "ChannelEntry",
    "Check",
    "CheckStateEnum",
    "Cluster",
    "ClusterCapabilities",
    "ClusterEvent",
    "ClusterFlavourEnum",
    "ClusterRequest",
    "ClusterStatus",
    "ClustersListFlavour",
    "Condition",
    "ConditionRequest",
    "ConditionStatusEnum",
    "Counts",
    "Database",
    "DatabaseRequest",
    "DeliveriesListEventKind",
    "DeliveriesListSeverity",
    "DeliveriesListStatus",
    "Delivery",
    "DeliveryStatusEnum",
    "DeployedImages",
    "DeployedRelease",
    "DesiredImages",
    "DiffAddRemoveCounts",
    "DiffChangedObject",
    "DiffChangedPackage",
    "DiffCounts",
    "DiffObject",
    "DiffPackage",
    "Error",
    "ErrorDetail",
    "ErrorDetailFields",
    "EventTypeEnum",
    "FailurePolicyEnum",
    "FieldChange",
    "Freeze",
    "FreezeRequest",
    "Gateway",
    "GatewayEvent",
    "GatewayLabels",
    "GatewayPhaseEnum",
    "GatewayPlan",
    "GatewayPlanStatusEnum",
    "GatewayRelease",
    "GatewayReleaseRequest",
    "GatewayReleaseRequestValues",
    "GatewayReleaseValues",
    "GatewayRequest",
    "GatewayRequestLabels",
    "GatewayStatus",
    "GatewaysListPhase",
    "ImageOverridesEnum",
    "ImagePolicy",
    "ImagePolicyRequest",
    "ImageSource",
    "ImageSourceRequest",
    "KindEnum",
    "MaintenanceWindowStatus",
    "MaintenanceWindows",
    "MaintenanceWindowsRequest",
    "NotificationEventKindEnum",
    "NotificationSeverityEnum",
    "ObjectDiff",
    "ObjectsDiff",
    "Oidc",
    "OidcRequest",
    "OverrideWindowRequest",
    "PackagesDiff",
    "PaginatedCatalogEventList",
    "PaginatedCatalogList",
    "PaginatedClusterEventList",
    "PaginatedClusterList",
    "PaginatedDeliveryList",
    "PaginatedGatewayEventList",
    "PaginatedGatewayList",
    "PaginatedGatewayReleaseList",
    "PaginatedReceiverList",
    "PaginatedReleaseEventList",
    "PaginatedRolloutEventList",
    "PaginatedRolloutList",
    "PaginatedRolloutTargetList",
    "PaginatedSubscriptionList",
    "PatchedCatalogRequest",
    "PatchedCatalogRequestLabels",
    "PatchedClusterRequest",
    "PatchedGatewayReleaseRequest",
    "PatchedGatewayReleaseRequestValues",
    "PatchedGatewayRequest",
    "PatchedGatewayRequestLabels",
    "PatchedReceiverRequest",
    "PatchedSubscriptionRequest",
    "PatchedSubscriptionRequestLabels",
    "PlanResult",
    "PlannedGateway",
    "PlannedGatewayPlan",
    "ProviderEnum",
    "PullSecret",
    "PullSecretRequest",
    "ReasonEnum",
    "Receiver",
    "ReceiverCheck",
    "ReceiverKindEnum",
    "ReceiverRequest",
    "ReceiversListKind",
    "RecurringWindow",
    "RecurringWindowRequest",
    "RejectRequest",
    "Release",
    "ReleaseEvent",
    "ReleaseStatus",
    "ReleaseStatusEnum",
    "ReleasesListStatus",
    "Rollout",
    "RolloutEvent",
    "RolloutPhaseEnum",
    "RolloutRequest",
    "RolloutStatus",
    "RolloutTarget",
    "RolloutTargetStateEnum",
    "RolloutsListPhase",
    "Route",
    "RouteRequest",
    "Selector",
    "SelectorLabels",
    "SelectorRequest",
    "SelectorRequestLabels",
    "SignaturePolicy",
    "SignaturePolicyRequest",
    "Source",
    "SourceRequest",
    "SourceTypeEnum",
    "Subscription",
    "SubscriptionLabels",
    "SubscriptionRequest",
    "SubscriptionRequestLabels",
    "SubscriptionsListMinSeverity",
    "Total",
    "UpgradeEdge",
    "UpgradeEdgesDiff",
    "Urls",
    "VerifiedDigests",
    "WaveApprovalStateEnum",
    "WavePlan",
    "WaveStatus",
    "Waves",
    "WavesRequest",
)
