from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, Self, TypeVar, cast

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

if TYPE_CHECKING:
    from ..models.selector_labels import SelectorLabels


T = TypeVar("T", bound="Selector")


@_attrs_define
class Selector:
    """
    Attributes:
        clusters (list[str] | Unset): Only gateways on these clusters.
        labels (SelectorLabels | Unset): Only gateways with all these labels.
    """

    clusters: list[str] | Unset = UNSET
    labels: SelectorLabels | Unset = UNSET
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        clusters: list[str] | Unset = UNSET
        if not isinstance(self.clusters, Unset):
            clusters = self.clusters

        labels: dict[str, Any] | Unset = UNSET
        if not isinstance(self.labels, Unset):
            labels = self.labels.to_dict()

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update({})
        if clusters is not UNSET:
            field_dict["clusters"] = clusters
        if labels is not UNSET:
            field_dict["labels"] = labels

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        from ..models.selector_labels import SelectorLabels

        d = dict(src_dict)
        clusters = cast(list[str], d.pop("clusters", UNSET))

        _labels = d.pop("labels", UNSET)
        labels: SelectorLabels | Unset
        if isinstance(_labels, Unset):
            labels = UNSET
        else:
            labels = SelectorLabels.from_dict(_labels)

        selector = cls(
            clusters=clusters,
            labels=labels,
        )

        selector.additional_properties = d
        return selector

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
