from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Self, TypeVar, cast

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

T = TypeVar("T", bound="WavesRequest")


@_attrs_define
class WavesRequest:
    """
    Attributes:
        clusters (list[list[str]] | Unset): Explicit waves of cluster names; the first is the canary.
        percentages (list[int] | Unset): Cumulative percentages of the selection, ending at 100; the first wave is the
            canary. Default: [10, 100].
    """

    clusters: list[list[str]] | Unset = UNSET
    percentages: list[int] | Unset = UNSET
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        clusters: list[list[str]] | Unset = UNSET
        if not isinstance(self.clusters, Unset):
            clusters = []
            for clusters_item_data in self.clusters:
                clusters_item = clusters_item_data

                clusters.append(clusters_item)

        percentages: list[int] | Unset = UNSET
        if not isinstance(self.percentages, Unset):
            percentages = self.percentages

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update({})
        if clusters is not UNSET:
            field_dict["clusters"] = clusters
        if percentages is not UNSET:
            field_dict["percentages"] = percentages

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)
        _clusters = d.pop("clusters", UNSET)
        clusters: list[list[str]] | Unset = UNSET
        if _clusters is not UNSET:
            clusters = []
            for clusters_item_data in _clusters:
                clusters_item = cast(list[str], clusters_item_data)

                clusters.append(clusters_item)

        percentages = cast(list[int], d.pop("percentages", UNSET))

        waves_request = cls(
            clusters=clusters,
            percentages=percentages,
        )

        waves_request.additional_properties = d
        return waves_request

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
