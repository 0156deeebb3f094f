from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Self, TypeVar, cast

from attrs import define as _attrs_define

from ..models.cluster_flavour_enum import ClusterFlavourEnum
from ..types import UNSET, Unset

T = TypeVar("T", bound="ClusterRequest")


@_attrs_define
class ClusterRequest:
    """A Kubernetes or OpenShift cluster gateways are installed on, reached with the kubeconfig given at registration
    (write-only). Its status says whether the last probe reached it and which optional APIs it serves.

        Attributes:
            name (str):
            kubeconfig (str):
            base_domain (str):
            flavour (ClusterFlavourEnum | Unset): * `kubernetes` - Kubernetes
                * `openshift` - OpenShift
            allowed_route_domains (list[str] | Unset): Domains, besides base_domain, under which gateway route hosts may be
                placed.
            gateway_api (bool | Unset): Whether the cluster serves the Gateway API.
            trusted_ca_pem (str | Unset):
    """

    name: str
    kubeconfig: str
    base_domain: str
    flavour: ClusterFlavourEnum | Unset = UNSET
    allowed_route_domains: list[str] | Unset = UNSET
    gateway_api: bool | Unset = UNSET
    trusted_ca_pem: str | Unset = UNSET

    def to_dict(self) -> dict[str, Any]:
        name = self.name

        kubeconfig = self.kubeconfig

        base_domain = self.base_domain

        flavour: str | Unset = UNSET
        if not isinstance(self.flavour, Unset):
            flavour = self.flavour.value

        allowed_route_domains: list[str] | Unset = UNSET
        if not isinstance(self.allowed_route_domains, Unset):
            allowed_route_domains = self.allowed_route_domains

        gateway_api = self.gateway_api

        trusted_ca_pem = self.trusted_ca_pem

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "name": name,
                "kubeconfig": kubeconfig,
                "base_domain": base_domain,
            }
        )
        if flavour is not UNSET:
            field_dict["flavour"] = flavour
        if allowed_route_domains is not UNSET:
            field_dict["allowed_route_domains"] = allowed_route_domains
        if gateway_api is not UNSET:
            field_dict["gateway_api"] = gateway_api
        if trusted_ca_pem is not UNSET:
            field_dict["trusted_ca_pem"] = trusted_ca_pem

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)
        name = d.pop("name")

        kubeconfig = d.pop("kubeconfig")

        base_domain = d.pop("base_domain")

        _flavour = d.pop("flavour", UNSET)
        flavour: ClusterFlavourEnum | Unset
        if isinstance(_flavour, Unset):
            flavour = UNSET
        else:
            flavour = ClusterFlavourEnum(_flavour)

        allowed_route_domains = cast(list[str], d.pop("allowed_route_domains", UNSET))

        gateway_api = d.pop("gateway_api", UNSET)

        trusted_ca_pem = d.pop("trusted_ca_pem", UNSET)

        cluster_request = cls(
            name=name,
            kubeconfig=kubeconfig,
            base_domain=base_domain,
            flavour=flavour,
            allowed_route_domains=allowed_route_domains,
            gateway_api=gateway_api,
            trusted_ca_pem=trusted_ca_pem,
        )

        return cluster_request
