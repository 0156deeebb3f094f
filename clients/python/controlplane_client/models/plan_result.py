from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, Self, TypeVar, cast

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..models.action_enum import ActionEnum

if TYPE_CHECKING:
    from ..models.check import Check
    from ..models.deployed_release import DeployedRelease
    from ..models.field_change import FieldChange
    from ..models.object_diff import ObjectDiff


T = TypeVar("T", bound="PlanResult")


@_attrs_define
class PlanResult:
    """
    Attributes:
        action (ActionEnum): * `install` - Install
            * `upgrade` - Upgrade
            * `nothing` - Nothing
            * `blocked` - Blocked
        reasons (list[str]): Why; for `blocked`, what is missing.
        namespace (str):
        release (DeployedRelease | None): The deployed release; null when none.
        chart_version (str):
        kubernetes_version (None | str):
        values_diff (list[FieldChange]): Desired Helm values against the deployed ones.
        objects (list[ObjectDiff]): Objects added, removed or changed (Helm hooks left out).
        unchanged_objects (int):
        prerequisites (list[Check]):
        render_error (None | str): Why the chart did not render, if it did not.
    """

    action: ActionEnum
    reasons: list[str]
    namespace: str
    release: DeployedRelease | None
    chart_version: str
    kubernetes_version: None | str
    values_diff: list[FieldChange]
    objects: list[ObjectDiff]
    unchanged_objects: int
    prerequisites: list[Check]
    render_error: None | str
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        from ..models.deployed_release import DeployedRelease

        action = self.action.value

        reasons = self.reasons

        namespace = self.namespace

        release: dict[str, Any] | None
        if isinstance(self.release, DeployedRelease):
            release = self.release.to_dict()
        else:
            release = self.release

        chart_version = self.chart_version

        kubernetes_version: None | str
        kubernetes_version = self.kubernetes_version

        values_diff = []
        for values_diff_item_data in self.values_diff:
            values_diff_item = values_diff_item_data.to_dict()
            values_diff.append(values_diff_item)

        objects = []
        for objects_item_data in self.objects:
            objects_item = objects_item_data.to_dict()
            objects.append(objects_item)

        unchanged_objects = self.unchanged_objects

        prerequisites = []
        for prerequisites_item_data in self.prerequisites:
            prerequisites_item = prerequisites_item_data.to_dict()
            prerequisites.append(prerequisites_item)

        render_error: None | str
        render_error = self.render_error

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "action": action,
                "reasons": reasons,
                "namespace": namespace,
                "release": release,
                "chart_version": chart_version,
                "kubernetes_version": kubernetes_version,
                "values_diff": values_diff,
                "objects": objects,
                "unchanged_objects": unchanged_objects,
                "prerequisites": prerequisites,
                "render_error": render_error,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        from ..models.check import Check
        from ..models.deployed_release import DeployedRelease
        from ..models.field_change import FieldChange
        from ..models.object_diff import ObjectDiff

        d = dict(src_dict)
        action = ActionEnum(d.pop("action"))

        reasons = cast(list[str], d.pop("reasons"))

        namespace = d.pop("namespace")

        def _parse_release(data: object) -> DeployedRelease | None:
            if data is None:
                return data
            try:
                if not isinstance(data, dict):
                    raise TypeError()
                release_type_1 = DeployedRelease.from_dict(data)

                return release_type_1
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(DeployedRelease | None, data)

        release = _parse_release(d.pop("release"))

        chart_version = d.pop("chart_version")

        def _parse_kubernetes_version(data: object) -> None | str:
            if data is None:
                return data
            return cast(None | str, data)

        kubernetes_version = _parse_kubernetes_version(d.pop("kubernetes_version"))

        values_diff = []
        _values_diff = d.pop("values_diff")
        for values_diff_item_data in _values_diff:
            values_diff_item = FieldChange.from_dict(values_diff_item_data)

            values_diff.append(values_diff_item)

        objects = []
        _objects = d.pop("objects")
        for objects_item_data in _objects:
            objects_item = ObjectDiff.from_dict(objects_item_data)

            objects.append(objects_item)

        unchanged_objects = d.pop("unchanged_objects")

        prerequisites = []
        _prerequisites = d.pop("prerequisites")
        for prerequisites_item_data in _prerequisites:
            prerequisites_item = Check.from_dict(prerequisites_item_data)

            prerequisites.append(prerequisites_item)

        def _parse_render_error(data: object) -> None | str:
            if data is None:
                return data
            return cast(None | str, data)

        render_error = _parse_render_error(d.pop("render_error"))

        plan_result = cls(
            action=action,
            reasons=reasons,
            namespace=namespace,
            release=release,
            chart_version=chart_version,
            kubernetes_version=kubernetes_version,
            values_diff=values_diff,
            objects=objects,
            unchanged_objects=unchanged_objects,
            prerequisites=prerequisites,
            render_error=render_error,
        )

        plan_result.additional_properties = d
        return plan_result

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
