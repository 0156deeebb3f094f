from __future__ import annotations

import datetime
from collections.abc import Mapping
from typing import Any, Self, TypeVar, cast

from attrs import define as _attrs_define
from attrs import field as _attrs_field

T = TypeVar("T", bound="VerifiedDigests")


@_attrs_define
class VerifiedDigests:
    """
    Attributes:
        chart (str): The chart's digest: the oci:// artefact's manifest, or the sha256 of the packaged local chart.
        image (None | str): The gateway image's manifest digest.
        supervisor_image (None | str): The supervisor image's manifest digest.
        key (None | str): sha256 of the DER public key that verified the signatures (null when only a chart_digest was
            checked).
        verified_at (datetime.datetime):
    """

    chart: str
    image: None | str
    supervisor_image: None | str
    key: None | str
    verified_at: datetime.datetime
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        chart = self.chart

        image: None | str
        image = self.image

        supervisor_image: None | str
        supervisor_image = self.supervisor_image

        key: None | str
        key = self.key

        verified_at = self.verified_at.isoformat()

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "chart": chart,
                "image": image,
                "supervisor_image": supervisor_image,
                "key": key,
                "verified_at": verified_at,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)
        chart = d.pop("chart")

        def _parse_image(data: object) -> None | str:
            if data is None:
                return data
            return cast(None | str, data)

        image = _parse_image(d.pop("image"))

        def _parse_supervisor_image(data: object) -> None | str:
            if data is None:
                return data
            return cast(None | str, data)

        supervisor_image = _parse_supervisor_image(d.pop("supervisor_image"))

        def _parse_key(data: object) -> None | str:
            if data is None:
                return data
            return cast(None | str, data)

        key = _parse_key(d.pop("key"))

        verified_at = datetime.datetime.fromisoformat(d.pop("verified_at"))

        verified_digests = cls(
            chart=chart,
            image=image,
            supervisor_image=supervisor_image,
            key=key,
            verified_at=verified_at,
        )

        verified_digests.additional_properties = d
        return verified_digests

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
