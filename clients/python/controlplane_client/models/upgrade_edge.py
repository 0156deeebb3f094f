from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Self, TypeVar

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..models.kind_enum import KindEnum

T = TypeVar("T", bound="UpgradeEdge")


@_attrs_define
class UpgradeEdge:
    """
    Attributes:
        package (str):
        channel (str):
        entry (str): The channel entry (bundle) the edge leads to.
        kind (KindEnum): * `replaces` - replaces
            * `skips` - skips
            * `skipRange` - skipRange
        target (str): The bundle replaced or skipped, or the skipped version range.
    """

    package: str
    channel: str
    entry: str
    kind: KindEnum
    target: str
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        package = self.package

        channel = self.channel

        entry = self.entry

        kind = self.kind.value

        target = self.target

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "package": package,
                "channel": channel,
                "entry": entry,
                "kind": kind,
                "target": target,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)
        package = d.pop("package")

        channel = d.pop("channel")

        entry = d.pop("entry")

        kind = KindEnum(d.pop("kind"))

        target = d.pop("target")

        upgrade_edge = cls(
            package=package,
            channel=channel,
            entry=entry,
            kind=kind,
            target=target,
        )

        upgrade_edge.additional_properties = d
        return upgrade_edge

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
