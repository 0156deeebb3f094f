from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, Self, TypeVar

from attrs import define as _attrs_define
from attrs import field as _attrs_field

if TYPE_CHECKING:
    from ..models.channel_entry import ChannelEntry
    from ..models.diff_add_remove_counts import DiffAddRemoveCounts


T = TypeVar("T", bound="ChannelEntriesDiff")


@_attrs_define
class ChannelEntriesDiff:
    """
    Attributes:
        added (list[ChannelEntry]):
        removed (list[ChannelEntry]):
        counts (DiffAddRemoveCounts):
    """

    added: list[ChannelEntry]
    removed: list[ChannelEntry]
    counts: DiffAddRemoveCounts
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

        counts = self.counts.to_dict()

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "added": added,
                "removed": removed,
                "counts": counts,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        from ..models.channel_entry import ChannelEntry
        from ..models.diff_add_remove_counts import DiffAddRemoveCounts

        d = dict(src_dict)
        added = []
        _added = d.pop("added")
        for added_item_data in _added:
            added_item = ChannelEntry.from_dict(added_item_data)

            added.append(added_item)

        removed = []
        _removed = d.pop("removed")
        for removed_item_data in _removed:
            removed_item = ChannelEntry.from_dict(removed_item_data)

            removed.append(removed_item)

        counts = DiffAddRemoveCounts.from_dict(d.pop("counts"))

        channel_entries_diff = cls(
            added=added,
            removed=removed,
            counts=counts,
        )

        channel_entries_diff.additional_properties = d
        return channel_entries_diff

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
