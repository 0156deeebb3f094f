from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, Self, TypeVar

from attrs import define as _attrs_define

from ..types import UNSET, Unset

if TYPE_CHECKING:
    from ..models.gateway_release_request_values import GatewayReleaseRequestValues


T = TypeVar("T", bound="GatewayReleaseRequest")


@_attrs_define
class GatewayReleaseRequest:
    """A chart release gateways run: a chart (a local path or oci://), its version and values overrides. It never changes
    once created; exactly one release is the default new gateways get.

        Attributes:
            name (str):
            chart (str): A local chart directory or .tgz, or oci://...
            version (str | Unset): Required for oci:// unless pinned by digest.
            values (GatewayReleaseRequestValues | Unset): Values overrides; only keys the chart has, with its types. The
                keys the spec maps (images, routes, OIDC, database) win over them.
            default (bool | Unset): New gateways get the default release.
    """

    name: str
    chart: str
    version: str | Unset = UNSET
    values: GatewayReleaseRequestValues | Unset = UNSET
    default: bool | Unset = UNSET

    def to_dict(self) -> dict[str, Any]:
        name = self.name

        chart = self.chart

        version = self.version

        values: dict[str, Any] | Unset = UNSET
        if not isinstance(self.values, Unset):
            values = self.values.to_dict()

        default = self.default

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "name": name,
                "chart": chart,
            }
        )
        if version is not UNSET:
            field_dict["version"] = version
        if values is not UNSET:
            field_dict["values"] = values
        if default is not UNSET:
            field_dict["default"] = default

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        from ..models.gateway_release_request_values import GatewayReleaseRequestValues

        d = dict(src_dict)
        name = d.pop("name")

        chart = d.pop("chart")

        version = d.pop("version", UNSET)

        _values = d.pop("values", UNSET)
        values: GatewayReleaseRequestValues | Unset
        if isinstance(_values, Unset):
            values = UNSET
        else:
            values = GatewayReleaseRequestValues.from_dict(_values)

        default = d.pop("default", UNSET)

        gateway_release_request = cls(
            name=name,
            chart=chart,
            version=version,
            values=values,
            default=default,
        )

        return gateway_release_request
