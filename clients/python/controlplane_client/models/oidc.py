from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Self, TypeVar

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

T = TypeVar("T", bound="Oidc")


@_attrs_define
class Oidc:
    """
    Attributes:
        enabled (bool | Unset): false clears the OIDC settings (and takes no others); an oidc object without it needs an
            issuer.
        issuer (str | Unset):
        audience (str | Unset):
        roles_claim (str | Unset):
        admin_role (str | Unset):
        user_role (str | Unset):
        ca_configmap (str | Unset):
    """

    enabled: bool | Unset = UNSET
    issuer: str | Unset = UNSET
    audience: str | Unset = UNSET
    roles_claim: str | Unset = UNSET
    admin_role: str | Unset = UNSET
    user_role: str | Unset = UNSET
    ca_configmap: str | Unset = UNSET
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        enabled = self.enabled

        issuer = self.issuer

        audience = self.audience

        roles_claim = self.roles_claim

        admin_role = self.admin_role

        user_role = self.user_role

        ca_configmap = self.ca_configmap

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update({})
        if enabled is not UNSET:
            field_dict["enabled"] = enabled
        if issuer is not UNSET:
            field_dict["issuer"] = issuer
        if audience is not UNSET:
            field_dict["audience"] = audience
        if roles_claim is not UNSET:
            field_dict["roles_claim"] = roles_claim
        if admin_role is not UNSET:
            field_dict["admin_role"] = admin_role
        if user_role is not UNSET:
            field_dict["user_role"] = user_role
        if ca_configmap is not UNSET:
            field_dict["ca_configmap"] = ca_configmap

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)
        enabled = d.pop("enabled", UNSET)

        issuer = d.pop("issuer", UNSET)

        audience = d.pop("audience", UNSET)

        roles_claim = d.pop("roles_claim", UNSET)

        admin_role = d.pop("admin_role", UNSET)

        user_role = d.pop("user_role", UNSET)

        ca_configmap = d.pop("ca_configmap", UNSET)

        oidc = cls(
            enabled=enabled,
            issuer=issuer,
            audience=audience,
            roles_claim=roles_claim,
            admin_role=admin_role,
            user_role=user_role,
            ca_configmap=ca_configmap,
        )

        oidc.additional_properties = d
        return oidc

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
