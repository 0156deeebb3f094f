from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, Self, TypeVar, cast

from attrs import define as _attrs_define
from attrs import field as _attrs_field

if TYPE_CHECKING:
    from ..models.catalog_revision import CatalogRevision
    from ..models.channel_entries_diff import ChannelEntriesDiff
    from ..models.objects_diff import ObjectsDiff
    from ..models.packages_diff import PackagesDiff
    from ..models.upgrade_edges_diff import UpgradeEdgesDiff


T = TypeVar("T", bound="CatalogDiff")


@_attrs_define
class CatalogDiff:
    """
    Attributes:
        from_ (CatalogRevision | None): null: the diff starts from an empty catalog (`to` is the oldest revision).
        to (CatalogRevision):
        summary (str): One line, as in the catalog's event for the switch.
        packages (PackagesDiff):
        channels (ObjectsDiff):
        bundles (ObjectsDiff):
        channel_entries (ChannelEntriesDiff):
        upgrade_edges (UpgradeEdgesDiff):
        truncated (bool): Some list was cut to its first 1000 items.
    """

    from_: CatalogRevision | None
    to: CatalogRevision
    summary: str
    packages: PackagesDiff
    channels: ObjectsDiff
    bundles: ObjectsDiff
    channel_entries: ChannelEntriesDiff
    upgrade_edges: UpgradeEdgesDiff
    truncated: bool
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        from ..models.catalog_revision import CatalogRevision

        from_: dict[str, Any] | None
        if isinstance(self.from_, CatalogRevision):
            from_ = self.from_.to_dict()
        else:
            from_ = self.from_

        to = self.to.to_dict()

        summary = self.summary

        packages = self.packages.to_dict()

        channels = self.channels.to_dict()

        bundles = self.bundles.to_dict()

        channel_entries = self.channel_entries.to_dict()

        upgrade_edges = self.upgrade_edges.to_dict()

        truncated = self.truncated

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "from": from_,
                "to": to,
                "summary": summary,
                "packages": packages,
                "channels": channels,
                "bundles": bundles,
                "channel_entries": channel_entries,
                "upgrade_edges": upgrade_edges,
                "truncated": truncated,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        from ..models.catalog_revision import CatalogRevision
        from ..models.channel_entries_diff import ChannelEntriesDiff
        from ..models.objects_diff import ObjectsDiff
        from ..models.packages_diff import PackagesDiff
        from ..models.upgrade_edges_diff import UpgradeEdgesDiff

        d = dict(src_dict)

        def _parse_from_(data: object) -> CatalogRevision | None:
            if data is None:
                return data
            try:
                if not isinstance(data, dict):
                    raise TypeError()
                from_type_1 = CatalogRevision.from_dict(data)

                return from_type_1
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(CatalogRevision | None, data)

        from_ = _parse_from_(d.pop("from"))

        to = CatalogRevision.from_dict(d.pop("to"))

        summary = d.pop("summary")

        packages = PackagesDiff.from_dict(d.pop("packages"))

        channels = ObjectsDiff.from_dict(d.pop("channels"))

        bundles = ObjectsDiff.from_dict(d.pop("bundles"))

        channel_entries = ChannelEntriesDiff.from_dict(d.pop("channel_entries"))

        upgrade_edges = UpgradeEdgesDiff.from_dict(d.pop("upgrade_edges"))

        truncated = d.pop("truncated")

        catalog_diff = cls(
            from_=from_,
            to=to,
            summary=summary,
            packages=packages,
            channels=channels,
            bundles=bundles,
            channel_entries=channel_entries,
            upgrade_edges=upgrade_edges,
            truncated=truncated,
        )

        catalog_diff.additional_properties = d
        return catalog_diff

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
