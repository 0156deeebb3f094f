from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, Self, TypeVar, cast

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..models.rollout_target_state_enum import RolloutTargetStateEnum

if TYPE_CHECKING:
    from ..models.counts import Counts


T = TypeVar("T", bound="Total")


@_attrs_define
class Total:
    """
    Attributes:
        size (int):
        worst (None | RolloutTargetStateEnum): failed > rolled_back > upgrading > pending > skipped > healthy

            * `pending` - Pending
            * `upgrading` - Upgrading
            * `healthy` - Healthy
            * `failed` - Failed
            * `rolled_back` - Rolled Back
            * `skipped` - Skipped
        counts (Counts):
    """

    size: int
    worst: None | RolloutTargetStateEnum
    counts: Counts
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        size = self.size

        worst: None | str
        if isinstance(self.worst, RolloutTargetStateEnum):
            worst = self.worst.value
        else:
            worst = self.worst

        counts = self.counts.to_dict()

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "size": size,
                "worst": worst,
                "counts": counts,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        from ..models.counts import Counts

        d = dict(src_dict)
        size = d.pop("size")

        def _parse_worst(data: object) -> None | RolloutTargetStateEnum:
            if data is None:
                return data
            try:
                if not isinstance(data, str):
                    raise TypeError()
                worst_type_1 = RolloutTargetStateEnum(data)

                return worst_type_1
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(None | RolloutTargetStateEnum, data)

        worst = _parse_worst(d.pop("worst"))

        counts = Counts.from_dict(d.pop("counts"))

        total = cls(
            size=size,
            worst=worst,
            counts=counts,
        )

        total.additional_properties = d
        return total

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
