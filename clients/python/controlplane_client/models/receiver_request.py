from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Self, TypeVar

from attrs import define as _attrs_define

from ..models.receiver_kind_enum import ReceiverKindEnum
from ..types import UNSET, Unset

T = TypeVar("T", bound="ReceiverRequest")


@_attrs_define
class ReceiverRequest:
    """Where notifications go: a signed webhook or a Slack-compatible incoming webhook. The URL and the secret are write-
    only; the URL must reach a public address (see the SSRF rules in the README).

        Attributes:
            name (str):
            url (str): https:// URL (write-only), checked by the SSRF rules here and at each delivery.
            kind (ReceiverKindEnum | Unset): * `webhook` - Signed HTTPS webhook
                * `slack` - Slack-compatible incoming webhook
            secret (str | Unset): Webhooks: the HMAC-SHA256 signing key, 16 characters or more (write-only).
            tenants_may_subscribe (bool | Unset): Whether tenants may point their gateways' subscriptions at this receiver.
    """

    name: str
    url: str
    kind: ReceiverKindEnum | Unset = UNSET
    secret: str | Unset = UNSET
    tenants_may_subscribe: bool | Unset = UNSET

    def to_dict(self) -> dict[str, Any]:
        name = self.name

        url = self.url

        kind: str | Unset = UNSET
        if not isinstance(self.kind, Unset):
            kind = self.kind.value

        secret = self.secret

        tenants_may_subscribe = self.tenants_may_subscribe

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "name": name,
                "url": url,
            }
        )
        if kind is not UNSET:
            field_dict["kind"] = kind
        if secret is not UNSET:
            field_dict["secret"] = secret
        if tenants_may_subscribe is not UNSET:
            field_dict["tenants_may_subscribe"] = tenants_may_subscribe

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)
        name = d.pop("name")

        url = d.pop("url")

        _kind = d.pop("kind", UNSET)
        kind: ReceiverKindEnum | Unset
        if isinstance(_kind, Unset):
            kind = UNSET
        else:
            kind = ReceiverKindEnum(_kind)

        secret = d.pop("secret", UNSET)

        tenants_may_subscribe = d.pop("tenants_may_subscribe", UNSET)

        receiver_request = cls(
            name=name,
            url=url,
            kind=kind,
            secret=secret,
            tenants_may_subscribe=tenants_may_subscribe,
        )

        return receiver_request
