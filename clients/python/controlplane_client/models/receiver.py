from __future__ import annotations

import datetime
from collections.abc import Mapping
from typing import Any, Self, TypeVar
from uuid import UUID

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..models.receiver_kind_enum import ReceiverKindEnum
from ..types import UNSET, Unset

T = TypeVar("T", bound="Receiver")


@_attrs_define
class Receiver:
    """Where notifications go: a signed webhook or a Slack-compatible incoming webhook. The URL and the secret are write-
    only; the URL must reach a public address (see the SSRF rules in the README).

        Attributes:
            id (UUID):
            name (str):
            endpoint (str): The URL's scheme, host and port.
            has_secret (bool):
            created_at (datetime.datetime):
            updated_at (datetime.datetime):
            kind (ReceiverKindEnum | Unset): * `webhook` - Signed HTTPS webhook
                * `slack` - Slack-compatible incoming webhook
            tenants_may_subscribe (bool | Unset): Whether tenants may point their gateways' subscriptions at this receiver.
    """

    id: UUID
    name: str
    endpoint: str
    has_secret: bool
    created_at: datetime.datetime
    updated_at: datetime.datetime
    kind: ReceiverKindEnum | Unset = UNSET
    tenants_may_subscribe: bool | Unset = UNSET
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        id = str(self.id)

        name = self.name

        endpoint = self.endpoint

        has_secret = self.has_secret

        created_at = self.created_at.isoformat()

        updated_at = self.updated_at.isoformat()

        kind: str | Unset = UNSET
        if not isinstance(self.kind, Unset):
            kind = self.kind.value

        tenants_may_subscribe = self.tenants_may_subscribe

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "id": id,
                "name": name,
                "endpoint": endpoint,
                "has_secret": has_secret,
                "created_at": created_at,
                "updated_at": updated_at,
            }
        )
        if kind is not UNSET:
            field_dict["kind"] = kind
        if tenants_may_subscribe is not UNSET:
            field_dict["tenants_may_subscribe"] = tenants_may_subscribe

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)
        id = UUID(d.pop("id"))

        name = d.pop("name")

        endpoint = d.pop("endpoint")

        has_secret = d.pop("has_secret")

        created_at = datetime.datetime.fromisoformat(d.pop("created_at"))

        updated_at = datetime.datetime.fromisoformat(d.pop("updated_at"))

        _kind = d.pop("kind", UNSET)
        kind: ReceiverKindEnum | Unset
        if isinstance(_kind, Unset):
            kind = UNSET
        else:
            kind = ReceiverKindEnum(_kind)

        tenants_may_subscribe = d.pop("tenants_may_subscribe", UNSET)

        receiver = cls(
            id=id,
            name=name,
            endpoint=endpoint,
            has_secret=has_secret,
            created_at=created_at,
            updated_at=updated_at,
            kind=kind,
            tenants_may_subscribe=tenants_may_subscribe,
        )

        receiver.additional_properties = d
        return receiver

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
