from __future__ import annotations

import datetime
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, Self, TypeVar, cast
from uuid import UUID

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..models.cluster_flavour_enum import ClusterFlavourEnum
from ..types import UNSET, Unset

if TYPE_CHECKING:
    from ..models.cluster_status import ClusterStatus
    from ..models.image_policy import ImagePolicy
    from ..models.maintenance_windows import MaintenanceWindows


T = TypeVar("T", bound="Cluster")


@_attrs_define
class Cluster:
    """A Kubernetes or OpenShift cluster gateways are installed on, reached with the kubeconfig given at registration
    (write-only). Its status says whether the last probe reached it and which optional APIs it serves.

        Attributes:
            id (UUID):
            name (str):
            base_domain (str):
            status (ClusterStatus):
            created_at (datetime.datetime):
            updated_at (datetime.datetime):
            flavour (ClusterFlavourEnum | Unset): * `kubernetes` - Kubernetes
                * `openshift` - OpenShift
            allowed_route_domains (list[str] | Unset): Domains, besides base_domain, under which gateway route hosts may be
                placed.
            gateway_api (bool | Unset): Whether the cluster serves the Gateway API.
            network_policy (bool | Unset): Whether gateways here get the chart's sandbox NetworkPolicy (SSH to sandbox pods
                only from the gateway). Off by default, as in HyperShell; turning it off removes the policy from running
                gateways.
            trusted_ca_pem (str | Unset):
            image_policy (ImagePolicy | None | Unset): The cluster's image policy; null follows the platform setting
                (GATEWAY_IMAGE_OVERRIDES). A change that no longer allows a running gateway's image leaves it running, with
                ImagePolicy=False (NotAllowed).
            require_signed_releases (bool | Unset): Gateways here run only releases with a signature_policy (verified before
                use).
            maintenance_windows (MaintenanceWindows | Unset): When upgrades and rollout waves may start on the cluster:
                inside an allowed window (any time when there is none) and outside every freeze. New installs and deletes are
                held too with hold_installs_and_deletes.
            rollouts_require_approval (bool | Unset): Every rollout wave with gateways on this cluster waits for a platform
                admin's approval of its plan.
    """

    id: UUID
    name: str
    base_domain: str
    status: ClusterStatus
    created_at: datetime.datetime
    updated_at: datetime.datetime
    flavour: ClusterFlavourEnum | Unset = UNSET
    allowed_route_domains: list[str] | Unset = UNSET
    gateway_api: bool | Unset = UNSET
    network_policy: bool | Unset = UNSET
    trusted_ca_pem: str | Unset = UNSET
    image_policy: ImagePolicy | None | Unset = UNSET
    require_signed_releases: bool | Unset = UNSET
    maintenance_windows: MaintenanceWindows | Unset = UNSET
    rollouts_require_approval: bool | Unset = UNSET
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        from ..models.image_policy import ImagePolicy

        id = str(self.id)

        name = self.name

        base_domain = self.base_domain

        status = self.status.to_dict()

        created_at = self.created_at.isoformat()

        updated_at = self.updated_at.isoformat()

        flavour: str | Unset = UNSET
        if not isinstance(self.flavour, Unset):
            flavour = self.flavour.value

        allowed_route_domains: list[str] | Unset = UNSET
        if not isinstance(self.allowed_route_domains, Unset):
            allowed_route_domains = self.allowed_route_domains

        gateway_api = self.gateway_api

        network_policy = self.network_policy

        trusted_ca_pem = self.trusted_ca_pem

        image_policy: dict[str, Any] | None | Unset
        if isinstance(self.image_policy, Unset):
            image_policy = UNSET
        elif isinstance(self.image_policy, ImagePolicy):
            image_policy = self.image_policy.to_dict()
        else:
            image_policy = self.image_policy

        require_signed_releases = self.require_signed_releases

        maintenance_windows: dict[str, Any] | Unset = UNSET
        if not isinstance(self.maintenance_windows, Unset):
            maintenance_windows = self.maintenance_windows.to_dict()

        rollouts_require_approval = self.rollouts_require_approval

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "id": id,
                "name": name,
                "base_domain": base_domain,
                "status": status,
                "created_at": created_at,
                "updated_at": updated_at,
            }
        )
        if flavour is not UNSET:
            field_dict["flavour"] = flavour
        if allowed_route_domains is not UNSET:
            field_dict["allowed_route_domains"] = allowed_route_domains
        if gateway_api is not UNSET:
            field_dict["gateway_api"] = gateway_api
        if network_policy is not UNSET:
            field_dict["network_policy"] = network_policy
        if trusted_ca_pem is not UNSET:
            field_dict["trusted_ca_pem"] = trusted_ca_pem
        if image_policy is not UNSET:
            field_dict["image_policy"] = image_policy
        if require_signed_releases is not UNSET:
            field_dict["require_signed_releases"] = require_signed_releases
        if maintenance_windows is not UNSET:
            field_dict["maintenance_windows"] = maintenance_windows
        if rollouts_require_approval is not UNSET:
            field_dict["rollouts_require_approval"] = rollouts_require_approval

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        from ..models.cluster_status import ClusterStatus
        from ..models.image_policy import ImagePolicy
        from ..models.maintenance_windows import MaintenanceWindows

        d = dict(src_dict)
        id = UUID(d.pop("id"))

        name = d.pop("name")

        base_domain = d.pop("base_domain")

        status = ClusterStatus.from_dict(d.pop("status"))

        created_at = datetime.datetime.fromisoformat(d.pop("created_at"))

        updated_at = datetime.datetime.fromisoformat(d.pop("updated_at"))

        _flavour = d.pop("flavour", UNSET)
        flavour: ClusterFlavourEnum | Unset
        if isinstance(_flavour, Unset):
            flavour = UNSET
        else:
            flavour = ClusterFlavourEnum(_flavour)

        allowed_route_domains = cast(list[str], d.pop("allowed_route_domains", UNSET))

        gateway_api = d.pop("gateway_api", UNSET)

        network_policy = d.pop("network_policy", UNSET)

        trusted_ca_pem = d.pop("trusted_ca_pem", UNSET)

        def _parse_image_policy(data: object) -> ImagePolicy | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            try:
                if not isinstance(data, dict):
                    raise TypeError()
                image_policy_type_1 = ImagePolicy.from_dict(data)

                return image_policy_type_1
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(ImagePolicy | None | Unset, data)

        image_policy = _parse_image_policy(d.pop("image_policy", UNSET))

        require_signed_releases = d.pop("require_signed_releases", UNSET)

        _maintenance_windows = d.pop("maintenance_windows", UNSET)
        maintenance_windows: MaintenanceWindows | Unset
        if isinstance(_maintenance_windows, Unset):
            maintenance_windows = UNSET
        else:
            maintenance_windows = MaintenanceWindows.from_dict(_maintenance_windows)

        rollouts_require_approval = d.pop("rollouts_require_approval", UNSET)

        cluster = cls(
            id=id,
            name=name,
            base_domain=base_domain,
            status=status,
            created_at=created_at,
            updated_at=updated_at,
            flavour=flavour,
            allowed_route_domains=allowed_route_domains,
            gateway_api=gateway_api,
            network_policy=network_policy,
            trusted_ca_pem=trusted_ca_pem,
            image_policy=image_policy,
            require_signed_releases=require_signed_releases,
            maintenance_windows=maintenance_windows,
            rollouts_require_approval=rollouts_require_approval,
        )

        cluster.additional_properties = d
        return cluster

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
