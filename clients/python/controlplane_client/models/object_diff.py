from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, Self, TypeVar

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..models.change_enum import ChangeEnum

if TYPE_CHECKING:
    from ..models.field_change import FieldChange


T = TypeVar("T", bound="ObjectDiff")


@_attrs_define
class ObjectDiff:
    """
    Attributes:
        api_version (str):
        kind (str):
        namespace (str): As rendered; empty when the chart sets none.
        name (str):
        change (ChangeEnum): * `added` - added
            * `removed` - removed
            * `changed` - changed
        fields (list[FieldChange]): Field-level changes (empty for added or removed objects).
        diff (str): Unified diff of the object's YAML, deployed to desired.
    """

    api_version: str
    kind: str
    namespace: str
    name: str
    change: ChangeEnum
    fields: list[FieldChange]
    diff: str
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        api_version = self.api_version

        kind = self.kind

        namespace = self.namespace

        name = self.name

        change = self.change.value

        fields = []
        for fields_item_data in self.fields:
            fields_item = fields_item_data.to_dict()
            fields.append(fields_item)

        diff = self.diff

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "api_version": api_version,
                "kind": kind,
                "namespace": namespace,
                "name": name,
                "change": change,
                "fields": fields,
                "diff": diff,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        from ..models.field_change import FieldChange

        d = dict(src_dict)
        api_version = d.pop("api_version")

        kind = d.pop("kind")

        namespace = d.pop("namespace")

        name = d.pop("name")

        change = ChangeEnum(d.pop("change"))

        fields = []
        _fields = d.pop("fields")
        for fields_item_data in _fields:
            fields_item = FieldChange.from_dict(fields_item_data)

            fields.append(fields_item)

        diff = d.pop("diff")

        object_diff = cls(
            api_version=api_version,
            kind=kind,
            namespace=namespace,
            name=name,
            change=change,
            fields=fields,
            diff=diff,
        )

        object_diff.additional_properties = d
        return object_diff

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
