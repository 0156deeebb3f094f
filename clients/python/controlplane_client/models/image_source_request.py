from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Self, TypeVar, cast

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

T = TypeVar("T", bound="ImageSourceRequest")


@_attrs_define
class ImageSourceRequest:
    """
    Attributes:
        ref (str):
        poll_interval_minutes (int | None | Unset):
    """

    ref: str
    poll_interval_minutes: int | None | Unset = UNSET
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        ref = self.ref

        poll_interval_minutes: int | None | Unset
        if isinstance(self.poll_interval_minutes, Unset):
            poll_interval_minutes = UNSET
        else:
            poll_interval_minutes = self.poll_interval_minutes

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "ref": ref,
            }
        )
        if poll_interval_minutes is not UNSET:
            field_dict["poll_interval_minutes"] = poll_interval_minutes

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)
        ref = d.pop("ref")

        def _parse_poll_interval_minutes(data: object) -> int | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(int | None | Unset, data)

        poll_interval_minutes = _parse_poll_interval_minutes(
            d.pop("poll_interval_minutes", UNSET)
        )

        image_source_request = cls(
            ref=ref,
            poll_interval_minutes=poll_interval_minutes,
        )

        image_source_request.additional_properties = d
        return image_source_request

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
