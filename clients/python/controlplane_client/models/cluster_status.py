from __future__ import annotations

import datetime
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, Self, TypeVar, cast

from attrs import define as _attrs_define
from attrs import field as _attrs_field

if TYPE_CHECKING:
    from ..models.cluster_capabilities import ClusterCapabilities
    from ..models.maintenance_window_status import MaintenanceWindowStatus


T = TypeVar("T", bound="ClusterStatus")


@_attrs_define
class ClusterStatus:
    """
    Attributes:
        reachable (bool | None):
        capabilities (ClusterCapabilities): Which optional APIs the last probe found served; null until a probe has
            looked.
        kubernetes_version (str):
        last_probe_at (datetime.datetime | None):
        message (str):
        maintenance_window (MaintenanceWindowStatus): Whether upgrades and rollout waves may start on the cluster now
            and, if not, when they may next.
    """

    reachable: bool | None
    capabilities: ClusterCapabilities
    kubernetes_version: str
    last_probe_at: datetime.datetime | None
    message: str
    maintenance_window: MaintenanceWindowStatus
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        reachable: bool | None
        reachable = self.reachable

        capabilities = self.capabilities.to_dict()

        kubernetes_version = self.kubernetes_version

        last_probe_at: None | str
        if isinstance(self.last_probe_at, datetime.datetime):
            last_probe_at = self.last_probe_at.isoformat()
        else:
            last_probe_at = self.last_probe_at

        message = self.message

        maintenance_window = self.maintenance_window.to_dict()

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "reachable": reachable,
                "capabilities": capabilities,
                "kubernetes_version": kubernetes_version,
                "last_probe_at": last_probe_at,
                "message": message,
                "maintenance_window": maintenance_window,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        from ..models.cluster_capabilities import ClusterCapabilities
        from ..models.maintenance_window_status import MaintenanceWindowStatus

        d = dict(src_dict)

        def _parse_reachable(data: object) -> bool | None:
            if data is None:
                return data
            return cast(bool | None, data)

        reachable = _parse_reachable(d.pop("reachable"))

        capabilities = ClusterCapabilities.from_dict(d.pop("capabilities"))

        kubernetes_version = d.pop("kubernetes_version")

        def _parse_last_probe_at(data: object) -> datetime.datetime | None:
            if data is None:
                return data
            try:
                if not isinstance(data, str):
                    raise TypeError()
                last_probe_at_type_0 = datetime.datetime.fromisoformat(data)

                return last_probe_at_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(datetime.datetime | None, data)

        last_probe_at = _parse_last_probe_at(d.pop("last_probe_at"))

        message = d.pop("message")

        maintenance_window = MaintenanceWindowStatus.from_dict(
            d.pop("maintenance_window")
        )

        cluster_status = cls(
            reachable=reachable,
            capabilities=capabilities,
            kubernetes_version=kubernetes_version,
            last_probe_at=last_probe_at,
            message=message,
            maintenance_window=maintenance_window,
        )

        cluster_status.additional_properties = d
        return cluster_status

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
