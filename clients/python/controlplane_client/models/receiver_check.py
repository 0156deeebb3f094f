from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Self, TypeVar, cast

from attrs import define as _attrs_define
from attrs import field as _attrs_field

T = TypeVar("T", bound="ReceiverCheck")


@_attrs_define
class ReceiverCheck:
    """What a test notification to the receiver got back.

    Attributes:
        delivered (bool): Whether the receiver answered 2xx.
        delivery (str): The test's X-Controlplane-Delivery key.
        status_code (int | None): The last hop's answer; null when none.
        url (None | str): The hop that answered (after any redirects).
        redirects (int):
        message (str): The start of the answer's body, or why there was none.
    """

    delivered: bool
    delivery: str
    status_code: int | None
    url: None | str
    redirects: int
    message: str
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        delivered = self.delivered

        delivery = self.delivery

        status_code: int | None
        status_code = self.status_code

        url: None | str
        url = self.url

        redirects = self.redirects

        message = self.message

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "delivered": delivered,
                "delivery": delivery,
                "status_code": status_code,
                "url": url,
                "redirects": redirects,
                "message": message,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)
        delivered = d.pop("delivered")

        delivery = d.pop("delivery")

        def _parse_status_code(data: object) -> int | None:
            if data is None:
                return data
            return cast(int | None, data)

        status_code = _parse_status_code(d.pop("status_code"))

        def _parse_url(data: object) -> None | str:
            if data is None:
                return data
            return cast(None | str, data)

        url = _parse_url(d.pop("url"))

        redirects = d.pop("redirects")

        message = d.pop("message")

        receiver_check = cls(
            delivered=delivered,
            delivery=delivery,
            status_code=status_code,
            url=url,
            redirects=redirects,
            message=message,
        )

        receiver_check.additional_properties = d
        return receiver_check

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
