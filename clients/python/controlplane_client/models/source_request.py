from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, Self, TypeVar

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..models.source_type_enum import SourceTypeEnum
from ..types import UNSET, Unset

if TYPE_CHECKING:
    from ..models.image_source_request import ImageSourceRequest


T = TypeVar("T", bound="SourceRequest")


@_attrs_define
class SourceRequest:
    """
    Attributes:
        image (ImageSourceRequest):
        type_ (SourceTypeEnum | Unset): * `Image` - Image
    """

    image: ImageSourceRequest
    type_: SourceTypeEnum | Unset = UNSET
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        image = self.image.to_dict()

        type_: str | Unset = UNSET
        if not isinstance(self.type_, Unset):
            type_ = self.type_.value

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "image": image,
            }
        )
        if type_ is not UNSET:
            field_dict["type"] = type_

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        from ..models.image_source_request import ImageSourceRequest

        d = dict(src_dict)
        image = ImageSourceRequest.from_dict(d.pop("image"))

        _type_ = d.pop("type", UNSET)
        type_: SourceTypeEnum | Unset
        if isinstance(_type_, Unset):
            type_ = UNSET
        else:
            type_ = SourceTypeEnum(_type_)

        source_request = cls(
            image=image,
            type_=type_,
        )

        source_request.additional_properties = d
        return source_request

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
