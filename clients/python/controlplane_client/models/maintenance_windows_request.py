from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, Self, TypeVar

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

if TYPE_CHECKING:
    from ..models.freeze_request import FreezeRequest
    from ..models.recurring_window_request import RecurringWindowRequest


T = TypeVar("T", bound="MaintenanceWindowsRequest")


@_attrs_define
class MaintenanceWindowsRequest:
    """When upgrades and rollout waves may start on the cluster: inside an allowed window (any time when there is none) and
    outside every freeze. New installs and deletes are held too with hold_installs_and_deletes.

        Attributes:
            windows (list[RecurringWindowRequest] | Unset):
            freezes (list[FreezeRequest] | Unset):
            hold_installs_and_deletes (bool | Unset): New installs and deletes wait for a window too (default false).
    """

    windows: list[RecurringWindowRequest] | Unset = UNSET
    freezes: list[FreezeRequest] | Unset = UNSET
    hold_installs_and_deletes: bool | Unset = UNSET
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        windows: list[dict[str, Any]] | Unset = UNSET
        if not isinstance(self.windows, Unset):
            windows = []
            for windows_item_data in self.windows:
                windows_item = windows_item_data.to_dict()
                windows.append(windows_item)

        freezes: list[dict[str, Any]] | Unset = UNSET
        if not isinstance(self.freezes, Unset):
            freezes = []
            for freezes_item_data in self.freezes:
                freezes_item = freezes_item_data.to_dict()
                freezes.append(freezes_item)

        hold_installs_and_deletes = self.hold_installs_and_deletes

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update({})
        if windows is not UNSET:
            field_dict["windows"] = windows
        if freezes is not UNSET:
            field_dict["freezes"] = freezes
        if hold_installs_and_deletes is not UNSET:
            field_dict["hold_installs_and_deletes"] = hold_installs_and_deletes

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        from ..models.freeze_request import FreezeRequest
        from ..models.recurring_window_request import RecurringWindowRequest

        d = dict(src_dict)
        _windows = d.pop("windows", UNSET)
        windows: list[RecurringWindowRequest] | Unset = UNSET
        if _windows is not UNSET:
            windows = []
            for windows_item_data in _windows:
                windows_item = RecurringWindowRequest.from_dict(windows_item_data)

                windows.append(windows_item)

        _freezes = d.pop("freezes", UNSET)
        freezes: list[FreezeRequest] | Unset = UNSET
        if _freezes is not UNSET:
            freezes = []
            for freezes_item_data in _freezes:
                freezes_item = FreezeRequest.from_dict(freezes_item_data)

                freezes.append(freezes_item)

        hold_installs_and_deletes = d.pop("hold_installs_and_deletes", UNSET)

        maintenance_windows_request = cls(
            windows=windows,
            freezes=freezes,
            hold_installs_and_deletes=hold_installs_and_deletes,
        )

        maintenance_windows_request.additional_properties = d
        return maintenance_windows_request

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
