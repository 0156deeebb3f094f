from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, Self, TypeVar

from attrs import define as _attrs_define
from attrs import field as _attrs_field

if TYPE_CHECKING:
    from ..models.planned_gateway_plan import PlannedGatewayPlan


T = TypeVar("T", bound="PlannedGateway")


@_attrs_define
class PlannedGateway:
    """
    Attributes:
        gateway_id (str):
        gateway (str):
        cluster (str):
        plan (PlannedGatewayPlan): As GET /gateways/{id}/plan/ shows it: action, reasons, values_diff, objects,
            prerequisites.
    """

    gateway_id: str
    gateway: str
    cluster: str
    plan: PlannedGatewayPlan
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        gateway_id = self.gateway_id

        gateway = self.gateway

        cluster = self.cluster

        plan = self.plan.to_dict()

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "gateway_id": gateway_id,
                "gateway": gateway,
                "cluster": cluster,
                "plan": plan,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        from ..models.planned_gateway_plan import PlannedGatewayPlan

        d = dict(src_dict)
        gateway_id = d.pop("gateway_id")

        gateway = d.pop("gateway")

        cluster = d.pop("cluster")

        plan = PlannedGatewayPlan.from_dict(d.pop("plan"))

        planned_gateway = cls(
            gateway_id=gateway_id,
            gateway=gateway,
            cluster=cluster,
            plan=plan,
        )

        planned_gateway.additional_properties = d
        return planned_gateway

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
