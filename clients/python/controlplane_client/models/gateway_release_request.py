from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, Self, TypeVar, cast

from attrs import define as _attrs_define

from ..types import UNSET, Unset

if TYPE_CHECKING:
    from ..models.gateway_release_request_values import GatewayReleaseRequestValues
    from ..models.signature_policy_request import SignaturePolicyRequest


T = TypeVar("T", bound="GatewayReleaseRequest")


@_attrs_define
class GatewayReleaseRequest:
    """The software gateways run: a chart (a local path or oci://), its version, the gateway and supervisor images (from
    one registry and namespace unless allow_mixed_provenance) and values overrides. It never changes once created;
    exactly one release is the default new gateways get, and rollouts move gateways between releases, chart and images
    together.

        Attributes:
            name (str):
            chart (str): A local chart directory or .tgz, or oci://...
            version (str | Unset): Required for oci:// unless pinned by digest.
            chart_digest (str | Unset): sha256:<hex> of the packaged local chart (the .tgz, or the directory as `helm
                package` packs it); required with a signature_policy and a local chart, refused for oci:// (whose signature is
                verified). Gateways install the archive that was hashed.
            image (str | Unset): The gateway image (any reference form, kept exactly; may be pinned by digest). New gateways
                and rollouts to this release run it, unless a gateway overrides it.
            supervisor_image (str | Unset): The supervisor image: from the same registry and repository namespace as the
                gateway image, unless allow_mixed_provenance.
            allow_mixed_provenance (bool | Unset): Accept images from different registries or namespaces (mixed provenance
                is otherwise a 400). Audited.
            values (GatewayReleaseRequestValues | Unset): Values overrides; only keys the chart has, with its types. The
                keys the mapping sets (images, routes, OIDC, database) win over them.
            signature_policy (None | SignaturePolicyRequest | Unset): Cosign public keys that must verify the chart (an
                oci:// chart's signature; a local chart needs chart_digest) and both images before the release is Ready; its
                gateways then run the verified digests. null (the default) verifies nothing, unless RELEASES_REQUIRE_SIGNATURES
                refuses that. The keys of a release that has a policy may change: its pinned digests are then verified again.
            default (bool | Unset): New gateways get the default release.
    """

    name: str
    chart: str
    version: str | Unset = UNSET
    chart_digest: str | Unset = UNSET
    image: str | Unset = UNSET
    supervisor_image: str | Unset = UNSET
    allow_mixed_provenance: bool | Unset = UNSET
    values: GatewayReleaseRequestValues | Unset = UNSET
    signature_policy: None | SignaturePolicyRequest | Unset = UNSET
    default: bool | Unset = UNSET

    def to_dict(self) -> dict[str, Any]:
        from ..models.signature_policy_request import SignaturePolicyRequest

        name = self.name

        chart = self.chart

        version = self.version

        chart_digest = self.chart_digest

        image = self.image

        supervisor_image = self.supervisor_image

        allow_mixed_provenance = self.allow_mixed_provenance

        values: dict[str, Any] | Unset = UNSET
        if not isinstance(self.values, Unset):
            values = self.values.to_dict()

        signature_policy: dict[str, Any] | None | Unset
        if isinstance(self.signature_policy, Unset):
            signature_policy = UNSET
        elif isinstance(self.signature_policy, SignaturePolicyRequest):
            signature_policy = self.signature_policy.to_dict()
        else:
            signature_policy = self.signature_policy

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
        if chart_digest is not UNSET:
            field_dict["chart_digest"] = chart_digest
        if image is not UNSET:
            field_dict["image"] = image
        if supervisor_image is not UNSET:
            field_dict["supervisor_image"] = supervisor_image
        if allow_mixed_provenance is not UNSET:
            field_dict["allow_mixed_provenance"] = allow_mixed_provenance
        if values is not UNSET:
            field_dict["values"] = values
        if signature_policy is not UNSET:
            field_dict["signature_policy"] = signature_policy
        if default is not UNSET:
            field_dict["default"] = default

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        from ..models.gateway_release_request_values import GatewayReleaseRequestValues
        from ..models.signature_policy_request import SignaturePolicyRequest

        d = dict(src_dict)
        name = d.pop("name")

        chart = d.pop("chart")

        version = d.pop("version", UNSET)

        chart_digest = d.pop("chart_digest", UNSET)

        image = d.pop("image", UNSET)

        supervisor_image = d.pop("supervisor_image", UNSET)

        allow_mixed_provenance = d.pop("allow_mixed_provenance", UNSET)

        _values = d.pop("values", UNSET)
        values: GatewayReleaseRequestValues | Unset
        if isinstance(_values, Unset):
            values = UNSET
        else:
            values = GatewayReleaseRequestValues.from_dict(_values)

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

        default = d.pop("default", UNSET)

        gateway_release_request = cls(
            name=name,
            chart=chart,
            version=version,
            chart_digest=chart_digest,
            image=image,
            supervisor_image=supervisor_image,
            allow_mixed_provenance=allow_mixed_provenance,
            values=values,
            signature_policy=signature_policy,
            default=default,
        )

        return gateway_release_request
