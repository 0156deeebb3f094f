from __future__ import annotations

import datetime
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, Self, TypeVar, cast
from uuid import UUID

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

if TYPE_CHECKING:
    from ..models.database import Database
    from ..models.desired_images import DesiredImages
    from ..models.gateway_labels import GatewayLabels
    from ..models.gateway_status import GatewayStatus
    from ..models.oidc import Oidc
    from ..models.route import Route


T = TypeVar("T", bound="Gateway")


@_attrs_define
class Gateway:
    """A tenant gateway on one cluster: its route, OIDC and database settings, and optional overrides of its release's
    images (where the image policy allows them). A gateway gets a route by default; send "route": {"enabled": false} to
    remove it and "oidc": {"enabled": false} to clear the OIDC settings. Workers reconcile it and report status.phase,
    status.conditions, status.route_address and status.deployed_images.

        Attributes:
            id (UUID):
            name (str):
            owner (str):
            cluster (str):
            namespace (str):
            release (None | str): The chart release to run (desired); new gateways get the default, rollouts change it.
            desired_images (DesiredImages): The images the gateway should run: its overrides, else its release's.
            generation (int):
            status (GatewayStatus):
            created_at (datetime.datetime):
            updated_at (datetime.datetime):
            image (str | Unset): Overrides the release's gateway image (omit or "" to run the release's). Tenants may
                override only where the image policy allows (GATEWAY_IMAGE_OVERRIDES, or the cluster's image_policy); any
                reference form is kept exactly (tag, digest, tag@digest, a registry with a port).
            supervisor_image (str | Unset): Overrides the release's supervisor image (omit or "" to run the release's).
                Tenants may override only where the image policy allows (GATEWAY_IMAGE_OVERRIDES, or the cluster's
                image_policy); any reference form is kept exactly (tag, digest, tag@digest, a registry with a port).
            route (Route | Unset):
            oidc (Oidc | Unset):
            database (Database | Unset):
            suspended (bool | Unset):
            labels (GatewayLabels | Unset):
    """

    id: UUID
    name: str
    owner: str
    cluster: str
    namespace: str
    release: None | str
    desired_images: DesiredImages
    generation: int
    status: GatewayStatus
    created_at: datetime.datetime
    updated_at: datetime.datetime
    image: str | Unset = UNSET
    supervisor_image: str | Unset = UNSET
    route: Route | Unset = UNSET
    oidc: Oidc | Unset = UNSET
    database: Database | Unset = UNSET
    suspended: bool | Unset = UNSET
    labels: GatewayLabels | Unset = UNSET
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        id = str(self.id)

        name = self.name

        owner = self.owner

        cluster = self.cluster

        namespace = self.namespace

        release: None | str
        release = self.release

        desired_images = self.desired_images.to_dict()

        generation = self.generation

        status = self.status.to_dict()

        created_at = self.created_at.isoformat()

        updated_at = self.updated_at.isoformat()

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
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "id": id,
                "name": name,
                "owner": owner,
                "cluster": cluster,
                "namespace": namespace,
                "release": release,
                "desired_images": desired_images,
                "generation": generation,
                "status": status,
                "created_at": created_at,
                "updated_at": updated_at,
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
        from ..models.database import Database
        from ..models.desired_images import DesiredImages
        from ..models.gateway_labels import GatewayLabels
        from ..models.gateway_status import GatewayStatus
        from ..models.oidc import Oidc
        from ..models.route import Route

        d = dict(src_dict)
        id = UUID(d.pop("id"))

        name = d.pop("name")

        owner = d.pop("owner")

        cluster = d.pop("cluster")

        namespace = d.pop("namespace")

        def _parse_release(data: object) -> None | str:
            if data is None:
                return data
            return cast(None | str, data)

        release = _parse_release(d.pop("release"))

        desired_images = DesiredImages.from_dict(d.pop("desired_images"))

        generation = d.pop("generation")

        status = GatewayStatus.from_dict(d.pop("status"))

        created_at = datetime.datetime.fromisoformat(d.pop("created_at"))

        updated_at = datetime.datetime.fromisoformat(d.pop("updated_at"))

        image = d.pop("image", UNSET)

        supervisor_image = d.pop("supervisor_image", UNSET)

        _route = d.pop("route", UNSET)
        route: Route | Unset
        if isinstance(_route, Unset):
            route = UNSET
        else:
            route = Route.from_dict(_route)

        _oidc = d.pop("oidc", UNSET)
        oidc: Oidc | Unset
        if isinstance(_oidc, Unset):
            oidc = UNSET
        else:
            oidc = Oidc.from_dict(_oidc)

        _database = d.pop("database", UNSET)
        database: Database | Unset
        if isinstance(_database, Unset):
            database = UNSET
        else:
            database = Database.from_dict(_database)

        suspended = d.pop("suspended", UNSET)

        _labels = d.pop("labels", UNSET)
        labels: GatewayLabels | Unset
        if isinstance(_labels, Unset):
            labels = UNSET
        else:
            labels = GatewayLabels.from_dict(_labels)

        gateway = cls(
            id=id,
            name=name,
            owner=owner,
            cluster=cluster,
            namespace=namespace,
            release=release,
            desired_images=desired_images,
            generation=generation,
            status=status,
            created_at=created_at,
            updated_at=updated_at,
            image=image,
            supervisor_image=supervisor_image,
            route=route,
            oidc=oidc,
            database=database,
            suspended=suspended,
            labels=labels,
        )

        gateway.additional_properties = d
        return gateway

    @property
    def additional_keys(self) -> list[str]:
        return list(self.additional_properties.keys())

    def __getitem__(self, key: str) -> Any:
        return self.additional_properties[key]

    def __setitem__(self, key: str, value: Any) -> None:
        self.additional_properties[key] = value

    def __delitem__(self, key: str) -> None:
        del self.additional_properties[key]

    def __contains__(self, key: str) -> bool:
        return key in self.additional_properties
