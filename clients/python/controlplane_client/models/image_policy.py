from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Self, TypeVar, cast

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..models.image_overrides_enum import ImageOverridesEnum
from ..types import UNSET, Unset

T = TypeVar("T", bound="ImagePolicy")


@_attrs_define
class ImagePolicy:
    """Whether tenants may override their release's images on this cluster and, if they may, from which repositories and
    whether a digest is required.

        Attributes:
            overrides (ImageOverridesEnum): * `deny` - DENY
                * `allow` - ALLOW
            repositories (list[str] | Unset): With overrides allowed: the repositories tenants may use, each exact
                (registry/path), a prefix ending in '/', or '*' for any.
            require_digest (bool | Unset): Whether an override must be digest-pinned.
    """

    overrides: ImageOverridesEnum
    repositories: list[str] | Unset = UNSET
    require_digest: bool | Unset = UNSET
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        overrides = self.overrides.value

        repositories: list[str] | Unset = UNSET
        if not isinstance(self.repositories, Unset):
            repositories = self.repositories

        require_digest = self.require_digest

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "overrides": overrides,
            }
        )
        if repositories is not UNSET:
            field_dict["repositories"] = repositories
        if require_digest is not UNSET:
            field_dict["require_digest"] = require_digest

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)
        overrides = ImageOverridesEnum(d.pop("overrides"))

        repositories = cast(list[str], d.pop("repositories", UNSET))

        require_digest = d.pop("require_digest", UNSET)

        image_policy = cls(
            overrides=overrides,
            repositories=repositories,
            require_digest=require_digest,
        )

        image_policy.additional_properties = d
        return image_policy

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
