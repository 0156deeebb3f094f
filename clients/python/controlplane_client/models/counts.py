from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Self, TypeVar

from attrs import define as _attrs_define
from attrs import field as _attrs_field

T = TypeVar("T", bound="Counts")


@_attrs_define
class Counts:
    """
    Attributes:
        pending (int):
        upgrading (int):
        healthy (int):
        failed (int):
        rolled_back (int):
        skipped (int):
    """

    pending: int
    upgrading: int
    healthy: int
    failed: int
    rolled_back: int
    skipped: int
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        pending = self.pending

        upgrading = self.upgrading

        healthy = self.healthy

        failed = self.failed

        rolled_back = self.rolled_back

        skipped = self.skipped

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "pending": pending,
                "upgrading": upgrading,
                "healthy": healthy,
                "failed": failed,
                "rolled_back": rolled_back,
                "skipped": skipped,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)
        pending = d.pop("pending")

        upgrading = d.pop("upgrading")

        healthy = d.pop("healthy")

        failed = d.pop("failed")

        rolled_back = d.pop("rolled_back")

        skipped = d.pop("skipped")

        counts = cls(
            pending=pending,
            upgrading=upgrading,
            healthy=healthy,
            failed=failed,
            rolled_back=rolled_back,
            skipped=skipped,
        )

        counts.additional_properties = d
        return counts

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
