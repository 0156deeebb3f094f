from __future__ import annotations

import datetime
from collections.abc import Mapping
from typing import Any, Self, TypeVar

from attrs import define as _attrs_define
from attrs import field as _attrs_field

T = TypeVar("T", bound="CatalogRevision")


@_attrs_define
class CatalogRevision:
    """
    Attributes:
        content_digest (str):
        resolved_ref (str):
        switched_at (datetime.datetime):
        summary (str):
    """

    content_digest: str
    resolved_ref: str
    switched_at: datetime.datetime
    summary: str
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        content_digest = self.content_digest

        resolved_ref = self.resolved_ref

        switched_at = self.switched_at.isoformat()

        summary = self.summary

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "content_digest": content_digest,
                "resolved_ref": resolved_ref,
                "switched_at": switched_at,
                "summary": summary,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)
        content_digest = d.pop("content_digest")

        resolved_ref = d.pop("resolved_ref")

        switched_at = datetime.datetime.fromisoformat(d.pop("switched_at"))

        summary = d.pop("summary")

        catalog_revision = cls(
            content_digest=content_digest,
            resolved_ref=resolved_ref,
            switched_at=switched_at,
            summary=summary,
        )

        catalog_revision.additional_properties = d
        return catalog_revision

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
