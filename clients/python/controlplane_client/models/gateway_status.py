from __future__ import annotations

import datetime
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, Self, TypeVar, cast

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..models.gateway_phase_enum import GatewayPhaseEnum

if TYPE_CHECKING:
    from ..models.condition import Condition
    from ..models.deployed_images import DeployedImages
    from ..models.release import Release


T = TypeVar("T", bound="GatewayStatus")


@_attrs_define
class GatewayStatus:
    """
    Attributes:
        phase (GatewayPhaseEnum): * `Pending` - Pending
            * `Provisioning` - Provisioning
            * `Running` - Running
            * `Degraded` - Degraded
            * `Failed` - Failed
            * `Deleting` - Deleting
        conditions (list[Condition]):
        observed_generation (int):
        route_address (str):
        release (Release):
        deployed_release (None | str): The chart release last deployed and converged (observed).
        deployed_images (DeployedImages | None): The images the deployed revision runs, from Helm's record; null until
            one is seen.
        failure_count (int):
        next_attempt_at (datetime.datetime | None):
        window_held_until (datetime.datetime | None): A change waits for the cluster's maintenance window until then
            (condition MaintenanceWindow); null: none waits.
        deletion_requested_at (datetime.datetime | None):
    """

    phase: GatewayPhaseEnum
    conditions: list[Condition]
    observed_generation: int
    route_address: str
    release: Release
    deployed_release: None | str
    deployed_images: DeployedImages | None
    failure_count: int
    next_attempt_at: datetime.datetime | None
    window_held_until: datetime.datetime | None
    deletion_requested_at: datetime.datetime | None
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        from ..models.deployed_images import DeployedImages

        phase = self.phase.value

        conditions = []
        for conditions_item_data in self.conditions:
            conditions_item = conditions_item_data.to_dict()
            conditions.append(conditions_item)

        observed_generation = self.observed_generation

        route_address = self.route_address

        release = self.release.to_dict()

        deployed_release: None | str
        deployed_release = self.deployed_release

        deployed_images: dict[str, Any] | None
        if isinstance(self.deployed_images, DeployedImages):
            deployed_images = self.deployed_images.to_dict()
        else:
            deployed_images = self.deployed_images

        failure_count = self.failure_count

        next_attempt_at: None | str
        if isinstance(self.next_attempt_at, datetime.datetime):
            next_attempt_at = self.next_attempt_at.isoformat()
        else:
            next_attempt_at = self.next_attempt_at

        window_held_until: None | str
        if isinstance(self.window_held_until, datetime.datetime):
            window_held_until = self.window_held_until.isoformat()
        else:
            window_held_until = self.window_held_until

        deletion_requested_at: None | str
        if isinstance(self.deletion_requested_at, datetime.datetime):
            deletion_requested_at = self.deletion_requested_at.isoformat()
        else:
            deletion_requested_at = self.deletion_requested_at

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "phase": phase,
                "conditions": conditions,
                "observed_generation": observed_generation,
                "route_address": route_address,
                "release": release,
                "deployed_release": deployed_release,
                "deployed_images": deployed_images,
                "failure_count": failure_count,
                "next_attempt_at": next_attempt_at,
                "window_held_until": window_held_until,
                "deletion_requested_at": deletion_requested_at,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        from ..models.condition import Condition
        from ..models.deployed_images import DeployedImages
        from ..models.release import Release

        d = dict(src_dict)
        phase = GatewayPhaseEnum(d.pop("phase"))

        conditions = []
        _conditions = d.pop("conditions")
        for conditions_item_data in _conditions:
            conditions_item = Condition.from_dict(conditions_item_data)

            conditions.append(conditions_item)

        observed_generation = d.pop("observed_generation")

        route_address = d.pop("route_address")

        release = Release.from_dict(d.pop("release"))

        def _parse_deployed_release(data: object) -> None | str:
            if data is None:
                return data
            return cast(None | str, data)

        deployed_release = _parse_deployed_release(d.pop("deployed_release"))

        def _parse_deployed_images(data: object) -> DeployedImages | None:
            if data is None:
                return data
            try:
                if not isinstance(data, dict):
                    raise TypeError()
                deployed_images_type_1 = DeployedImages.from_dict(data)

                return deployed_images_type_1
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(DeployedImages | None, data)

        deployed_images = _parse_deployed_images(d.pop("deployed_images"))

        failure_count = d.pop("failure_count")

        def _parse_next_attempt_at(data: object) -> datetime.datetime | None:
            if data is None:
                return data
            try:
                if not isinstance(data, str):
                    raise TypeError()
                next_attempt_at_type_0 = datetime.datetime.fromisoformat(data)

                return next_attempt_at_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(datetime.datetime | None, data)

        next_attempt_at = _parse_next_attempt_at(d.pop("next_attempt_at"))

        def _parse_window_held_until(data: object) -> datetime.datetime | None:
            if data is None:
                return data
            try:
                if not isinstance(data, str):
                    raise TypeError()
                window_held_until_type_0 = datetime.datetime.fromisoformat(data)

                return window_held_until_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(datetime.datetime | None, data)

        window_held_until = _parse_window_held_until(d.pop("window_held_until"))

        def _parse_deletion_requested_at(data: object) -> datetime.datetime | None:
            if data is None:
                return data
            try:
                if not isinstance(data, str):
                    raise TypeError()
                deletion_requested_at_type_0 = datetime.datetime.fromisoformat(data)

                return deletion_requested_at_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(datetime.datetime | None, data)

        deletion_requested_at = _parse_deletion_requested_at(
            d.pop("deletion_requested_at")
        )

        gateway_status = cls(
            phase=phase,
            conditions=conditions,
            observed_generation=observed_generation,
            route_address=route_address,
            release=release,
            deployed_release=deployed_release,
            deployed_images=deployed_images,
            failure_count=failure_count,
            next_attempt_at=next_attempt_at,
            window_held_until=window_held_until,
            deletion_requested_at=deletion_requested_at,
        )

        gateway_status.additional_properties = d
        return gateway_status

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
