from __future__ import annotations

import datetime
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, Self, TypeVar, cast

from attrs import define as _attrs_define
from attrs import field as _attrs_field

if TYPE_CHECKING:
    from ..models.condition import Condition
    from ..models.urls import Urls


T = TypeVar("T", bound="CatalogStatus")


@_attrs_define
class CatalogStatus:
    """
    Attributes:
        conditions (list[Condition]):
        observed_generation (int):
        resolved_ref (str):
        urls (Urls):
        last_unpacked (datetime.datetime | None):
        signature_verified (bool): The content served was verified with the signature policy's current keys.
        blocked_digest (str): The image digest a terminal failure blocked on: not pulled again until the ref names
            another digest, the spec changes, or a resync.
    """

    conditions: list[Condition]
    observed_generation: int
    resolved_ref: str
    urls: Urls
    last_unpacked: datetime.datetime | None
    signature_verified: bool
    blocked_digest: str
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        conditions = []
        for conditions_item_data in self.conditions:
            conditions_item = conditions_item_data.to_dict()
            conditions.append(conditions_item)

        observed_generation = self.observed_generation

        resolved_ref = self.resolved_ref

        urls = self.urls.to_dict()

        last_unpacked: None | str
        if isinstance(self.last_unpacked, datetime.datetime):
            last_unpacked = self.last_unpacked.isoformat()
        else:
            last_unpacked = self.last_unpacked

        signature_verified = self.signature_verified

        blocked_digest = self.blocked_digest

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "conditions": conditions,
                "observed_generation": observed_generation,
                "resolved_ref": resolved_ref,
                "urls": urls,
                "last_unpacked": last_unpacked,
                "signature_verified": signature_verified,
                "blocked_digest": blocked_digest,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        from ..models.condition import Condition
        from ..models.urls import Urls

        d = dict(src_dict)
        conditions = []
        _conditions = d.pop("conditions")
        for conditions_item_data in _conditions:
            conditions_item = Condition.from_dict(conditions_item_data)

            conditions.append(conditions_item)

        observed_generation = d.pop("observed_generation")

        resolved_ref = d.pop("resolved_ref")

        urls = Urls.from_dict(d.pop("urls"))

        def _parse_last_unpacked(data: object) -> datetime.datetime | None:
            if data is None:
                return data
            try:
                if not isinstance(data, str):
                    raise TypeError()
                last_unpacked_type_0 = datetime.datetime.fromisoformat(data)

                return last_unpacked_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(datetime.datetime | None, data)

        last_unpacked = _parse_last_unpacked(d.pop("last_unpacked"))

        signature_verified = d.pop("signature_verified")

        blocked_digest = d.pop("blocked_digest")

        catalog_status = cls(
            conditions=conditions,
            observed_generation=observed_generation,
            resolved_ref=resolved_ref,
            urls=urls,
            last_unpacked=last_unpacked,
            signature_verified=signature_verified,
            blocked_digest=blocked_digest,
        )

        catalog_status.additional_properties = d
        return catalog_status

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
