from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Self, TypeVar

from attrs import define as _attrs_define

from ..models.receiver_kind_enum import ReceiverKindEnum
from ..types import UNSET, Unset

T = TypeVar("T", bound="PatchedReceiverRequest")


@_attrs_define
class PatchedReceiverRequest:
    """Where notifications go: a signed webhook or a Slack-compatible incoming webhook. The URL and the secret are write-
    only; the URL must reach a public address (see the SSRF rules in the README).

        Attributes:
            name (str | Unset):
            kind (ReceiverKindEnum | Unset): * `webhook` - Signed HTTPS webhook
                * `slack` - Slack-compatible incoming webhook
            url (str | Unset): https:// URL (write-only), checked by the SSRF rules here and at each delivery.
            secret (str | Unset): Webhooks: the HMAC-SHA256 signing key, 16 characters or more (write-only).
            tenants_may_subscribe (bool | Unset): Whether tenants may point their gateways' subscriptions at this receiver.
    """

    name: str | Unset = UNSET
    kind: ReceiverKindEnum | Unset = UNSET
    url: str | Unset = UNSET
    secret: str | Unset = UNSET
    tenants_may_subscribe: bool | Unset = UNSET

    def to_dict(self) -> dict[str, Any]:
        name = self.name

        kind: str | Unset = UNSET
        if not isinstance(self.kind, Unset):
            kind = self.kind.value

        url = self.url

        secret = self.secret

        tenants_may_subscribe = self.tenants_may_subscribe

        field_dict: dict[str, Any] = {}

        field_dict.update({})
        if name is not UNSET:
            field_dict["name"] = name
        if kind is not UNSET:
            field_dict["kind"] = kind
        if url is not UNSET:
            field_dict["url"] = url
        if secret is not UNSET:
            field_dict["secret"] = secret
        if tenants_may_subscribe is not UNSET:
            field_dict["tenants_may_subscribe"] = tenants_may_subscribe

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)
        name = d.pop("name", UNSET)

        _kind = d.pop("kind", UNSET)
        kind: ReceiverKindEnum | Unset
        if isinstance(_kind, Unset):
            kind = UNSET
        else:
            kind = ReceiverKindEnum(_kind)

        url = d.pop("url", UNSET)

        secret = d.pop("secret", UNSET)

        tenants_may_subscribe = d.pop("tenants_may_subscribe", UNSET)

        patched_receiver_request = cls(
            name=name,
            kind=kind,
            url=url,
            secret=secret,
            tenants_may_subscribe=tenants_may_subscribe,
        )

        return patched_receiver_request
