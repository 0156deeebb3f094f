from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Self, TypeVar

from attrs import define as _attrs_define
from attrs import field as _attrs_field

T = TypeVar("T", bound="DesiredImages")


@_attrs_define
class DesiredImages:
    """The images the gateway should run: its overrides, else its release's.

    Attributes:
        image (str):
        supervisor_image (str):
        overridden (bool): Whether the gateway overrides its release's images (as the image policy allows).
    """

    image: str
    supervisor_image: str
    overridden: bool
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        image = self.image

        supervisor_image = self.supervisor_image

        overridden = self.overridden

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "image": image,
                "supervisor_image": supervisor_image,
                "overridden": overridden,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)
        image = d.pop("image")

        supervisor_image = d.pop("supervisor_image")

        overridden = d.pop("overridden")

        desired_images = cls(
            image=image,
            supervisor_image=supervisor_image,
            overridden=overridden,
        )

        desired_images.additional_properties = d
        return desired_images

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
