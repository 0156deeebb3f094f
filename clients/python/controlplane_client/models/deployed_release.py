from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Self, TypeVar, cast

from attrs import define as _attrs_define
from attrs import field as _attrs_field

T = TypeVar("T", bound="DeployedRelease")


@_attrs_define
class DeployedRelease:
    """
    Attributes:
        name (str):
        revision (int):
        status (str):
        chart_version (None | str):
    """

    name: str
    revision: int
    status: str
    chart_version: None | str
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        name = self.name

        revision = self.revision

        status = self.status

        chart_version: None | str
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

        def _parse_chart_version(data: object) -> None | str:
            if data is None:
                return data
            return cast(None | str, data)

        chart_version = _parse_chart_version(d.pop("chart_version"))

        deployed_release = cls(
            name=name,
            revision=revision,
            status=status,
            chart_version=chart_version,
        )

        deployed_release.additional_properties = d
        return deployed_release

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
