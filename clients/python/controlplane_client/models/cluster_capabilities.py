from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Self, TypeVar, cast

from attrs import define as _attrs_define
from attrs import field as _attrs_field

T = TypeVar("T", bound="ClusterCapabilities")


@_attrs_define
class ClusterCapabilities:
    """Which optional APIs the last probe found served; null until a probe has looked.

    Attributes:
        agent_sandbox (bool | None): agents.x-k8s.io
        grpc_route (bool | None): gateway.networking.k8s.io/v1
        openshift_route (bool | None): route.openshift.io/v1
        cert_manager (bool | None): cert-manager.io/v1
        backend_tls_policy (bool | None): gateway.networking.k8s.io BackendTLSPolicy (v1 or v1alpha3): TLS from a route
            to the pod
    """

    agent_sandbox: bool | None
    grpc_route: bool | None
    openshift_route: bool | None
    cert_manager: bool | None
    backend_tls_policy: bool | None
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        agent_sandbox: bool | None
        agent_sandbox = self.agent_sandbox

        grpc_route: bool | None
        grpc_route = self.grpc_route

        openshift_route: bool | None
        openshift_route = self.openshift_route

        cert_manager: bool | None
        cert_manager = self.cert_manager

        backend_tls_policy: bool | None
        backend_tls_policy = self.backend_tls_policy

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "agent_sandbox": agent_sandbox,
                "grpc_route": grpc_route,
                "openshift_route": openshift_route,
                "cert_manager": cert_manager,
                "backend_tls_policy": backend_tls_policy,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)

        def _parse_agent_sandbox(data: object) -> bool | None:
            if data is None:
                return data
            return cast(bool | None, data)

        agent_sandbox = _parse_agent_sandbox(d.pop("agent_sandbox"))

        def _parse_grpc_route(data: object) -> bool | None:
            if data is None:
                return data
            return cast(bool | None, data)

        grpc_route = _parse_grpc_route(d.pop("grpc_route"))

        def _parse_openshift_route(data: object) -> bool | None:
            if data is None:
                return data
            return cast(bool | None, data)

        openshift_route = _parse_openshift_route(d.pop("openshift_route"))

        def _parse_cert_manager(data: object) -> bool | None:
            if data is None:
                return data
            return cast(bool | None, data)

        cert_manager = _parse_cert_manager(d.pop("cert_manager"))

        def _parse_backend_tls_policy(data: object) -> bool | None:
            if data is None:
                return data
            return cast(bool | None, data)

        backend_tls_policy = _parse_backend_tls_policy(d.pop("backend_tls_policy"))

        cluster_capabilities = cls(
            agent_sandbox=agent_sandbox,
            grpc_route=grpc_route,
            openshift_route=openshift_route,
            cert_manager=cert_manager,
            backend_tls_policy=backend_tls_policy,
        )

        cluster_capabilities.additional_properties = d
        return cluster_capabilities

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
