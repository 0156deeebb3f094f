from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, Self, TypeVar, cast

from attrs import define as _attrs_define

from ..models.availability_mode_enum import AvailabilityModeEnum
from ..types import UNSET, Unset

if TYPE_CHECKING:
    from ..models.catalog_request_labels import CatalogRequestLabels
    from ..models.pull_secret_request import PullSecretRequest
    from ..models.signature_policy_request import SignaturePolicyRequest
    from ..models.source_request import SourceRequest


T = TypeVar("T", bound="CatalogRequest")


@_attrs_define
class CatalogRequest:
    """A file-based catalog pulled from an OCI image, in catalogd's ClusterCatalog vocabulary. Its content is served under
    status.urls.base once status.conditions has Serving True.

        Attributes:
            name (str):
            source (SourceRequest):
            priority (int | Unset):
            availability_mode (AvailabilityModeEnum | Unset): * `Available` - Available
                * `Unavailable` - Unavailable
            labels (CatalogRequestLabels | Unset):
            pull_secret (None | PullSecretRequest | Unset):
            ca (str | Unset):
            signature_policy (None | SignaturePolicyRequest | Unset): Verify cosign signatures before unpacking; null (the
                default) verifies nothing.
    """

    name: str
    source: SourceRequest
    priority: int | Unset = UNSET
    availability_mode: AvailabilityModeEnum | Unset = UNSET
    labels: CatalogRequestLabels | Unset = UNSET
    pull_secret: None | PullSecretRequest | Unset = UNSET
    ca: str | Unset = UNSET
    signature_policy: None | SignaturePolicyRequest | Unset = UNSET

    def to_dict(self) -> dict[str, Any]:
        from ..models.pull_secret_request import PullSecretRequest
        from ..models.signature_policy_request import SignaturePolicyRequest

        name = self.name

        source = self.source.to_dict()

        priority = self.priority

        availability_mode: str | Unset = UNSET
        if not isinstance(self.availability_mode, Unset):
            availability_mode = self.availability_mode.value

        labels: dict[str, Any] | Unset = UNSET
        if not isinstance(self.labels, Unset):
            labels = self.labels.to_dict()

        pull_secret: dict[str, Any] | None | Unset
        if isinstance(self.pull_secret, Unset):
            pull_secret = UNSET
        elif isinstance(self.pull_secret, PullSecretRequest):
            pull_secret = self.pull_secret.to_dict()
        else:
            pull_secret = self.pull_secret

        ca = self.ca

        signature_policy: dict[str, Any] | None | Unset
        if isinstance(self.signature_policy, Unset):
            signature_policy = UNSET
        elif isinstance(self.signature_policy, SignaturePolicyRequest):
            signature_policy = self.signature_policy.to_dict()
        else:
            signature_policy = self.signature_policy

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "name": name,
                "source": source,
            }
        )
        if priority is not UNSET:
            field_dict["priority"] = priority
        if availability_mode is not UNSET:
            field_dict["availability_mode"] = availability_mode
        if labels is not UNSET:
            field_dict["labels"] = labels
        if pull_secret is not UNSET:
            field_dict["pull_secret"] = pull_secret
        if ca is not UNSET:
            field_dict["ca"] = ca
        if signature_policy is not UNSET:
            field_dict["signature_policy"] = signature_policy

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        from ..models.catalog_request_labels import CatalogRequestLabels
        from ..models.pull_secret_request import PullSecretRequest
        from ..models.signature_policy_request import SignaturePolicyRequest
        from ..models.source_request import SourceRequest

        d = dict(src_dict)
        name = d.pop("name")

        source = SourceRequest.from_dict(d.pop("source"))

        priority = d.pop("priority", UNSET)

        _availability_mode = d.pop("availability_mode", UNSET)
        availability_mode: AvailabilityModeEnum | Unset
        if isinstance(_availability_mode, Unset):
            availability_mode = UNSET
        else:
            availability_mode = AvailabilityModeEnum(_availability_mode)

        _labels = d.pop("labels", UNSET)
        labels: CatalogRequestLabels | Unset
        if isinstance(_labels, Unset):
            labels = UNSET
        else:
            labels = CatalogRequestLabels.from_dict(_labels)

        def _parse_pull_secret(data: object) -> None | PullSecretRequest | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            try:
                if not isinstance(data, dict):
                    raise TypeError()
                pull_secret_type_1 = PullSecretRequest.from_dict(data)

                return pull_secret_type_1
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(None | PullSecretRequest | Unset, data)

        pull_secret = _parse_pull_secret(d.pop("pull_secret", UNSET))

        ca = d.pop("ca", UNSET)

        def _parse_signature_policy(
            data: object,
        ) -> None | SignaturePolicyRequest | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            try:
                if not isinstance(data, dict):
                    raise TypeError()
                signature_policy_type_1 = SignaturePolicyRequest.from_dict(data)

                return signature_policy_type_1
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(None | SignaturePolicyRequest | Unset, data)

        signature_policy = _parse_signature_policy(d.pop("signature_policy", UNSET))

        catalog_request = cls(
            name=name,
            source=source,
            priority=priority,
            availability_mode=availability_mode,
            labels=labels,
            pull_secret=pull_secret,
            ca=ca,
            signature_policy=signature_policy,
        )

        return catalog_request
