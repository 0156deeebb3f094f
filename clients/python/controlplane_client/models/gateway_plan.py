from __future__ import annotations

import datetime
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, Self, TypeVar, cast
from uuid import UUID

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..models.gateway_plan_status_enum import GatewayPlanStatusEnum

if TYPE_CHECKING:
    from ..models.plan_result import PlanResult


T = TypeVar("T", bound="GatewayPlan")


@_attrs_define
class GatewayPlan:
    """
    Attributes:
        id (UUID):
        gateway (None | UUID): The planned gateway; null for a would-be gateway.
        name (str):
        cluster (str):
        owner (str):
        status (GatewayPlanStatusEnum): * `pending` - Pending
            * `ready` - Ready
            * `failed` - Failed
        error (str): Why a failed plan could not be computed.
        result (None | PlanResult): Set once the plan is ready.
        created_at (datetime.datetime):
        finished_at (datetime.datetime | None):
    """

    id: UUID
    gateway: None | UUID
    name: str
    cluster: str
    owner: str
    status: GatewayPlanStatusEnum
    error: str
    result: None | PlanResult
    created_at: datetime.datetime
    finished_at: datetime.datetime | None
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        from ..models.plan_result import PlanResult

        id = str(self.id)

        gateway: None | str
        if isinstance(self.gateway, UUID):
            gateway = str(self.gateway)
        else:
            gateway = self.gateway

        name = self.name

        cluster = self.cluster

        owner = self.owner

        status = self.status.value

        error = self.error

        result: dict[str, Any] | None
        if isinstance(self.result, PlanResult):
            result = self.result.to_dict()
        else:
            result = self.result

        created_at = self.created_at.isoformat()

        finished_at: None | str
        if isinstance(self.finished_at, datetime.datetime):
            finished_at = self.finished_at.isoformat()
        else:
            finished_at = self.finished_at

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "id": id,
                "gateway": gateway,
                "name": name,
                "cluster": cluster,
                "owner": owner,
                "status": status,
                "error": error,
                "result": result,
                "created_at": created_at,
                "finished_at": finished_at,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        from ..models.plan_result import PlanResult

        d = dict(src_dict)
        id = UUID(d.pop("id"))

        def _parse_gateway(data: object) -> None | UUID:
            if data is None:
                return data
            try:
                if not isinstance(data, str):
                    raise TypeError()
                gateway_type_0 = UUID(data)

                return gateway_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(None | UUID, data)

        gateway = _parse_gateway(d.pop("gateway"))

        name = d.pop("name")

        cluster = d.pop("cluster")

        owner = d.pop("owner")

        status = GatewayPlanStatusEnum(d.pop("status"))

        error = d.pop("error")

        def _parse_result(data: object) -> None | PlanResult:
            if data is None:
                return data
            try:
                if not isinstance(data, dict):
                    raise TypeError()
                result_type_1 = PlanResult.from_dict(data)

                return result_type_1
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(None | PlanResult, data)

        result = _parse_result(d.pop("result"))

        created_at = datetime.datetime.fromisoformat(d.pop("created_at"))

        def _parse_finished_at(data: object) -> datetime.datetime | None:
            if data is None:
                return data
            try:
                if not isinstance(data, str):
                    raise TypeError()
                finished_at_type_0 = datetime.datetime.fromisoformat(data)

                return finished_at_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(datetime.datetime | None, data)

        finished_at = _parse_finished_at(d.pop("finished_at"))

        gateway_plan = cls(
            id=id,
            gateway=gateway,
            name=name,
            cluster=cluster,
            owner=owner,
            status=status,
            error=error,
            result=result,
            created_at=created_at,
            finished_at=finished_at,
        )

        gateway_plan.additional_properties = d
        return gateway_plan

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
