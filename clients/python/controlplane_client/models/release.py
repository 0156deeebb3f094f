from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Self, TypeVar

from attrs import define as _attrs_define
from attrs import field as _attrs_field

T = TypeVar("T", bound="Release")


@_attrs_define
class Release:
    """
    Attributes:
        name (str):
        revision (int):
        status (str):
        chart_version (str):
    """

    name: str
    revision: int
    status: str
    chart_version: str
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        name = self.name

        revision = self.revision

        status = self.status

        chart_version = self.chart_version

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "name": name,
                "revision": revision,
                "status": status,
                "chart_version": chart_version,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)
        name = d.pop("name")

        revision = d.pop("revision")

        status = d.pop("status")

        chart_version = d.pop("chart_version")

        release = cls(
            name=name,
            revision=revision,
            status=status,
            chart_version=chart_version,
        )

        release.additional_properties = d
        return release

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
