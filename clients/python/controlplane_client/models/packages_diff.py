from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, Self, TypeVar

from attrs import define as _attrs_define
from attrs import field as _attrs_field

if TYPE_CHECKING:
    from ..models.diff_changed_package import DiffChangedPackage
    from ..models.diff_counts import DiffCounts
    from ..models.diff_package import DiffPackage


T = TypeVar("T", bound="PackagesDiff")


@_attrs_define
class PackagesDiff:
    """
    Attributes:
        added (list[DiffPackage]):
        removed (list[DiffPackage]):
        changed (list[DiffChangedPackage]):
        counts (DiffCounts):
    """

    added: list[DiffPackage]
    removed: list[DiffPackage]
    changed: list[DiffChangedPackage]
    counts: DiffCounts
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        added = []
        for added_item_data in self.added:
            added_item = added_item_data.to_dict()
            added.append(added_item)

        removed = []
        for removed_item_data in self.removed:
            removed_item = removed_item_data.to_dict()
            removed.append(removed_item)

        changed = []
        for changed_item_data in self.changed:
            changed_item = changed_item_data.to_dict()
            changed.append(changed_item)

        counts = self.counts.to_dict()

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "added": added,
                "removed": removed,
                "changed": changed,
                "counts": counts,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        from ..models.diff_changed_package import DiffChangedPackage
        from ..models.diff_counts import DiffCounts
        from ..models.diff_package import DiffPackage

        d = dict(src_dict)
        added = []
        _added = d.pop("added")
        for added_item_data in _added:
            added_item = DiffPackage.from_dict(added_item_data)

            added.append(added_item)

        removed = []
        _removed = d.pop("removed")
        for removed_item_data in _removed:
            removed_item = DiffPackage.from_dict(removed_item_data)

            removed.append(removed_item)

        changed = []
        _changed = d.pop("changed")
        for changed_item_data in _changed:
            changed_item = DiffChangedPackage.from_dict(changed_item_data)

            changed.append(changed_item)

        counts = DiffCounts.from_dict(d.pop("counts"))

        packages_diff = cls(
            added=added,
            removed=removed,
            changed=changed,
            counts=counts,
        )

        packages_diff.additional_properties = d
        return packages_diff

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
