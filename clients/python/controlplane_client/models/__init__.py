"""Contains all the data models used in inputs/outputs"""

from .action_enum import ActionEnum
from .availability_mode_enum import AvailabilityModeEnum
from .catalog import Catalog
from .catalog_labels import CatalogLabels
from .catalog_request import CatalogRequest
from .catalog_request_labels import CatalogRequestLabels
from .catalog_status import CatalogStatus
from .catalogs_list_availability_mode import CatalogsListAvailabilityMode
from .change_enum import ChangeEnum
from .check import Check
from .cluster import Cluster
from .cluster_capabilities import ClusterCapabilities
from .cluster_flavour_enum import ClusterFlavourEnum
from .cluster_request import ClusterRequest
from .cluster_status import ClusterStatus
from .clusters_list_flavour import ClustersListFlavour
from .condition import Condition
from .condition_request import ConditionRequest
from .condition_status_enum import ConditionStatusEnum
from .database import Database
from .database_request import DatabaseRequest
from .deployed_release import DeployedRelease
from .error import Error
from .error_detail import ErrorDetail
from .error_detail_fields import ErrorDetailFields
from .event_type_enum import EventTypeEnum
from .field_change import FieldChange
from .gateway import Gateway
from .gateway_event import GatewayEvent
from .gateway_labels import GatewayLabels
from .gateway_phase_enum import GatewayPhaseEnum
from .gateway_plan import GatewayPlan
from .gateway_plan_status_enum import GatewayPlanStatusEnum
from .gateway_request import GatewayRequest
from .gateway_request_labels import GatewayRequestLabels
from .gateway_status import GatewayStatus
from .gateways_list_phase import GatewaysListPhase
from .image_source import ImageSource
from .image_source_request import ImageSourceRequest
from .object_diff import ObjectDiff
from .oidc import Oidc
from .oidc_request import OidcRequest
from .paginated_catalog_list import PaginatedCatalogList
from .paginated_cluster_list import PaginatedClusterList
from .paginated_gateway_event_list import PaginatedGatewayEventList
from .paginated_gateway_list import PaginatedGatewayList
from .patched_catalog_request import PatchedCatalogRequest
from .patched_catalog_request_labels import PatchedCatalogRequestLabels
from .patched_cluster_request import PatchedClusterRequest
from .patched_gateway_request import PatchedGatewayRequest
from .patched_gateway_request_labels import PatchedGatewayRequestLabels
from .plan_result import PlanResult
from .provider_enum import ProviderEnum
from .pull_secret import PullSecret
from .pull_secret_request import PullSecretRequest
from .release import Release
from .route import Route
from .route_request import RouteRequest
from .source import Source
from .source_request import SourceRequest
from .state_enum import StateEnum
from .urls import Urls

__all__ = (
    "ActionEnum",
    "AvailabilityModeEnum",
    "Catalog",
    "CatalogLabels",
    "CatalogRequest",
    "CatalogRequestLabels",
    "CatalogStatus",
    "CatalogsListAvailabilityMode",
    "ChangeEnum",
    "Check",
    "Cluster",
    "ClusterCapabilities",
    "ClusterFlavourEnum",
    "ClusterRequest",
    "ClusterStatus",
    "ClustersListFlavour",
    "Condition",
    "ConditionRequest",
    "ConditionStatusEnum",
    "Database",
    "DatabaseRequest",
    "DeployedRelease",
    "Error",
    "ErrorDetail",
    "ErrorDetailFields",
    "EventTypeEnum",
    "FieldChange",
    "Gateway",
    "GatewayEvent",
    "GatewayLabels",
    "GatewayPhaseEnum",
    "GatewayPlan",
    "GatewayPlanStatusEnum",
    "GatewayRequest",
    "GatewayRequestLabels",
    "GatewayStatus",
    "GatewaysListPhase",
    "ImageSource",
    "ImageSourceRequest",
    "ObjectDiff",
    "Oidc",
    "OidcRequest",
    "PaginatedCatalogList",
    "PaginatedClusterList",
    "PaginatedGatewayEventList",
    "PaginatedGatewayList",
    "PatchedCatalogRequest",
    "PatchedCatalogRequestLabels",
    "PatchedClusterRequest",
    "PatchedGatewayRequest",
    "PatchedGatewayRequestLabels",
    "PlanResult",
    "ProviderEnum",
    "PullSecret",
    "PullSecretRequest",
    "Release",
    "Route",
    "RouteRequest",
    "Source",
    "SourceRequest",
    "StateEnum",
    "Urls",
)
