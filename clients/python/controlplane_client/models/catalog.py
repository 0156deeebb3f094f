from __future__ import annotations

import datetime
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, Self, TypeVar, cast
from uuid import UUID

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..models.availability_mode_enum import AvailabilityModeEnum
from ..types import UNSET, Unset

if TYPE_CHECKING:
    from ..models.catalog_labels import CatalogLabels
    from ..models.catalog_status import CatalogStatus
    from ..models.signature_policy import SignaturePolicy
    from ..models.source import Source


T = TypeVar("T", bound="Catalog")


@_attrs_define
class Catalog:
    """A file-based catalog pulled from an OCI image, in catalogd's ClusterCatalog vocabulary. Its content is served under
    status.urls.base once status.conditions has Serving True.

        Attributes:
            id (UUID):
            name (str):
            source (Source):
            generation (int):
            status (CatalogStatus):
            created_at (datetime.datetime):
            updated_at (datetime.datetime):
            priority (int | Unset):
            availability_mode (AvailabilityModeEnum | Unset): * `Available` - Available
                * `Unavailable` - Unavailable
            labels (CatalogLabels | Unset):
            ca (str | Unset):
            signature_policy (None | SignaturePolicy | Unset): Verify cosign signatures before unpacking; null (the default)
                verifies nothing.
    """

    id: UUID
    name: str
    source: Source
    generation: int
    status: CatalogStatus
    created_at: datetime.datetime
    updated_at: datetime.datetime
    priority: int | Unset = UNSET
    availability_mode: AvailabilityModeEnum | Unset = UNSET
    labels: CatalogLabels | Unset = UNSET
    ca: str | Unset = UNSET
    signature_policy: None | SignaturePolicy | Unset = UNSET
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        from ..models.signature_policy import SignaturePolicy

        id = str(self.id)

        name = self.name

        source = self.source.to_dict()

        generation = self.generation

        status = self.status.to_dict()

        created_at = self.created_at.isoformat()

        updated_at = self.updated_at.isoformat()

        priority = self.priority

        availability_mode: str | Unset = UNSET
        if not isinstance(self.availability_mode, Unset):
            availability_mode = self.availability_mode.value

        labels: dict[str, Any] | Unset = UNSET
        if not isinstance(self.labels, Unset):
            labels = self.labels.to_dict()

        ca = self.ca

        signature_policy: dict[str, Any] | None | Unset
        if isinstance(self.signature_policy, Unset):
            signature_policy = UNSET
        elif isinstance(self.signature_policy, SignaturePolicy):
            signature_policy = self.signature_policy.to_dict()
        else:
            signature_policy = self.signature_policy

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "id": id,
                "name": name,
                "source": source,
                "generation": generation,
                "status": status,
                "created_at": created_at,
                "updated_at": updated_at,
            }
        )
        if priority is not UNSET:
            field_dict["priority"] = priority
        if availability_mode is not UNSET:
            field_dict["availability_mode"] = availability_mode
        if labels is not UNSET:
            field_dict["labels"] = labels
        if ca is not UNSET:
            field_dict["ca"] = ca
        if signature_policy is not UNSET:
            field_dict["signature_policy"] = signature_policy

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        from ..models.catalog_labels import CatalogLabels
        from ..models.catalog_status import CatalogStatus
        from ..models.signature_policy import SignaturePolicy
        from ..models.source import Source

        d = dict(src_dict)
        id = UUID(d.pop("id"))

        name = d.pop("name")

        source = Source.from_dict(d.pop("source"))

        generation = d.pop("generation")

        status = CatalogStatus.from_dict(d.pop("status"))

        created_at = datetime.datetime.fromisoformat(d.pop("created_at"))

        updated_at = datetime.datetime.fromisoformat(d.pop("updated_at"))

        priority = d.pop("priority", UNSET)

        _availability_mode = d.pop("availability_mode", UNSET)
        availability_mode: AvailabilityModeEnum | Unset
        if isinstance(_availability_mode, Unset):
            availability_mode = UNSET
        else:
            availability_mode = AvailabilityModeEnum(_availability_mode)

        _labels = d.pop("labels", UNSET)
        labels: CatalogLabels | Unset
        if isinstance(_labels, Unset):
            labels = UNSET
        else:
            labels = CatalogLabels.from_dict(_labels)

        ca = d.pop("ca", UNSET)

        def _parse_signature_policy(data: object) -> None | SignaturePolicy | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            try:
                if not isinstance(data, dict):
                    raise TypeError()
                signature_policy_type_1 = SignaturePolicy.from_dict(data)

                return signature_policy_type_1
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(None | SignaturePolicy | Unset, data)

        signature_policy = _parse_signature_policy(d.pop("signature_policy", UNSET))

        catalog = cls(
            id=id,
            name=name,
            source=source,
            generation=generation,
            status=status,
            created_at=created_at,
            updated_at=updated_at,
            priority=priority,
            availability_mode=availability_mode,
            labels=labels,
            ca=ca,
            signature_policy=signature_policy,
        )

        catalog.additional_properties = d
        return catalog

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
