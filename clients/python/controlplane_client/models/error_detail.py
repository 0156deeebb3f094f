from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, Self, TypeVar

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

if TYPE_CHECKING:
    from ..models.error_detail_fields import ErrorDetailFields


T = TypeVar("T", bound="ErrorDetail")


@_attrs_define
class ErrorDetail:
    """
    Attributes:
        status (int): The HTTP status code.
        code (str): A stable, machine-readable error code.
        message (str): A human-readable explanation.
        fields (ErrorDetailFields | Unset): Per-field messages, keyed by the API field path (for example `route.host`).
    """

    status: int
    code: str
    message: str
    fields: ErrorDetailFields | Unset = UNSET
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        status = self.status

        code = self.code

        message = self.message

        fields: dict[str, Any] | Unset = UNSET
        if not isinstance(self.fields, Unset):
            fields = self.fields.to_dict()

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "status": status,
                "code": code,
                "message": message,
            }
        )
        if fields is not UNSET:
            field_dict["fields"] = fields

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        from ..models.error_detail_fields import ErrorDetailFields

        d = dict(src_dict)
        status = d.pop("status")

        code = d.pop("code")

        message = d.pop("message")

        _fields = d.pop("fields", UNSET)
        fields: ErrorDetailFields | Unset
        if isinstance(_fields, Unset):
            fields = UNSET
        else:
            fields = ErrorDetailFields.from_dict(_fields)

        error_detail = cls(
            status=status,
            code=code,
            message=message,
            fields=fields,
        )

        error_detail.additional_properties = d
        return error_detail

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
