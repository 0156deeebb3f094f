from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Self, TypeVar

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..models.change_enum import ChangeEnum

T = TypeVar("T", bound="FieldChange")


@_attrs_define
class FieldChange:
    """
    Attributes:
        path (str): Dotted path, lists by index: `spec.template.spec.containers[0].image`.
        change (ChangeEnum): * `added` - added
            * `removed` - removed
            * `changed` - changed
        before (Any): Absent (null) for an added field; secrets redacted.
        after (Any): Absent (null) for a removed field; secrets redacted.
    """

    path: str
    change: ChangeEnum
    before: Any
    after: Any
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        path = self.path

        change = self.change.value

        before = self.before

        after = self.after

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "path": path,
                "change": change,
                "before": before,
                "after": after,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)
        path = d.pop("path")

        change = ChangeEnum(d.pop("change"))

        before = d.pop("before")

        after = d.pop("after")

        field_change = cls(
            path=path,
            change=change,
            before=before,
            after=after,
        )

        field_change.additional_properties = d
        return field_change

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
