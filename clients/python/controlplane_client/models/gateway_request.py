from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, Self, TypeVar

from attrs import define as _attrs_define

from ..types import UNSET, Unset

if TYPE_CHECKING:
    from ..models.database_request import DatabaseRequest
    from ..models.gateway_request_labels import GatewayRequestLabels
    from ..models.oidc_request import OidcRequest
    from ..models.route_request import RouteRequest


T = TypeVar("T", bound="GatewayRequest")


@_attrs_define
class GatewayRequest:
    """A tenant gateway on one cluster: its route, OIDC and database settings, and optional overrides of its release's
    images (where the image policy allows them). A gateway gets a route by default; send "route": {"enabled": false} to
    remove it and "oidc": {"enabled": false} to clear the OIDC settings. Workers reconcile it and report status.phase,
    status.conditions, status.route_address and status.deployed_images.

        Attributes:
            name (str):
            cluster (str):
            image (str | Unset): Overrides the release's gateway image (omit or "" to run the release's). Tenants may
                override only where the image policy allows (GATEWAY_IMAGE_OVERRIDES, or the cluster's image_policy); any
                reference form is kept exactly (tag, digest, tag@digest, a registry with a port).
            supervisor_image (str | Unset): Overrides the release's supervisor image (omit or "" to run the release's).
                Tenants may override only where the image policy allows (GATEWAY_IMAGE_OVERRIDES, or the cluster's
                image_policy); any reference form is kept exactly (tag, digest, tag@digest, a registry with a port).
            route (RouteRequest | Unset):
            oidc (OidcRequest | Unset):
            database (DatabaseRequest | Unset):
            suspended (bool | Unset):
            labels (GatewayRequestLabels | Unset):
    """

    name: str
    cluster: str
    image: str | Unset = UNSET
    supervisor_image: str | Unset = UNSET
    route: RouteRequest | Unset = UNSET
    oidc: OidcRequest | Unset = UNSET
    database: DatabaseRequest | Unset = UNSET
    suspended: bool | Unset = UNSET
    labels: GatewayRequestLabels | Unset = UNSET

    def to_dict(self) -> dict[str, Any]:
        name = self.name

        cluster = self.cluster

        image = self.image

        supervisor_image = self.supervisor_image

        route: dict[str, Any] | Unset = UNSET
        if not isinstance(self.route, Unset):
            route = self.route.to_dict()

        oidc: dict[str, Any] | Unset = UNSET
        if not isinstance(self.oidc, Unset):
            oidc = self.oidc.to_dict()

        database: dict[str, Any] | Unset = UNSET
        if not isinstance(self.database, Unset):
            database = self.database.to_dict()

        suspended = self.suspended

        labels: dict[str, Any] | Unset = UNSET
        if not isinstance(self.labels, Unset):
            labels = self.labels.to_dict()

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "name": name,
                "cluster": cluster,
            }
        )
        if image is not UNSET:
            field_dict["image"] = image
        if supervisor_image is not UNSET:
            field_dict["supervisor_image"] = supervisor_image
        if route is not UNSET:
            field_dict["route"] = route
        if oidc is not UNSET:
            field_dict["oidc"] = oidc
        if database is not UNSET:
            field_dict["database"] = database
        if suspended is not UNSET:
            field_dict["suspended"] = suspended
        if labels is not UNSET:
            field_dict["labels"] = labels

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        from ..models.database_request import DatabaseRequest
        from ..models.gateway_request_labels import GatewayRequestLabels
        from ..models.oidc_request import OidcRequest
        from ..models.route_request import RouteRequest

        d = dict(src_dict)
        name = d.pop("name")

        cluster = d.pop("cluster")

        image = d.pop("image", UNSET)

        supervisor_image = d.pop("supervisor_image", UNSET)

        _route = d.pop("route", UNSET)
        route: RouteRequest | Unset
        if isinstance(_route, Unset):
            route = UNSET
        else:
            route = RouteRequest.from_dict(_route)

        _oidc = d.pop("oidc", UNSET)
        oidc: OidcRequest | Unset
        if isinstance(_oidc, Unset):
            oidc = UNSET
        else:
            oidc = OidcRequest.from_dict(_oidc)

        _database = d.pop("database", UNSET)
        database: DatabaseRequest | Unset
        if isinstance(_database, Unset):
            database = UNSET
        else:
            database = DatabaseRequest.from_dict(_database)

        suspended = d.pop("suspended", UNSET)

        _labels = d.pop("labels", UNSET)
        labels: GatewayRequestLabels | Unset
        if isinstance(_labels, Unset):
            labels = UNSET
        else:
            labels = GatewayRequestLabels.from_dict(_labels)

        gateway_request = cls(
            name=name,
            cluster=cluster,
            image=image,
            supervisor_image=supervisor_image,
            route=route,
            oidc=oidc,
            database=database,
            suspended=suspended,
            labels=labels,
        )

        return gateway_request
