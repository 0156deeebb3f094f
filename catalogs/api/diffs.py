"""``GET /api/v1/catalogs/{id}/diff/?from=&to=``: what changed between two versions in a catalog's history.

``from`` and ``to`` name a revision by its content digest or by the image digest it was unpacked from.
Without ``to`` the newest revision is meant; without ``from``, the revision before ``to`` (none before
the oldest: then everything counts as added). The diff is computed from the stored entries on demand;
revisions never change, so its ETag names the pair and ``If-None-Match`` gets a 304 without recomputing.
"""

from __future__ import annotations

import hashlib
from typing import Any

from django.conf import settings
from django.http import QueryDict
from drf_spectacular.utils import OpenApiExample, OpenApiParameter, OpenApiResponse
from rest_framework import serializers, status
from rest_framework.exceptions import APIException, NotFound, ValidationError

from catalogs import history, store
from catalogs.diff import EDGE_KINDS, as_dict
from catalogs.models import Catalog, CatalogRevision
from catalogs.stored_diff import EntryMissing, diff_entries

__all__ = [
    "DIFF_EXAMPLE",
    "DIFF_PARAMETERS",
    "NOT_MODIFIED",
    "CatalogDiffSerializer",
    "catalog_diff",
    "chosen_revisions",
    "diff_etag",
]

# Items per list in a response; the counts are always exact.
MAX_ITEMS = 1000

DIFF_PARAMETERS = [
    OpenApiParameter(
        name,
        str,
        OpenApiParameter.QUERY,
        required=False,
        description=f"A `sha256:` digest in the catalog's history (its content digest, or the image digest it was "
        f"unpacked from). {default}",
    )
    for name, default in (
        ("from", "Default: the revision before `to`."),
        ("to", "Default: the newest revision (the current content)."),
    )
] + [
    OpenApiParameter(
        "If-None-Match",
        str,
        OpenApiParameter.HEADER,
        required=False,
        description="An `ETag` from an earlier diff of the same pair: 304 without recomputing it.",
    ),
    OpenApiParameter(
        "ETag",
        str,
        OpenApiParameter.HEADER,
        response=["200", "304"],
        description="Names the pair of revisions (they never change).",
    ),
]


class CatalogRevisionSerializer(serializers.ModelSerializer):
    class Meta:
        model = CatalogRevision
        fields = ("content_digest", "resolved_ref", "switched_at", "summary")
        read_only_fields = fields


class DiffCountsSerializer(serializers.Serializer):
    added = serializers.IntegerField()
    removed = serializers.IntegerField()
    changed = serializers.IntegerField()


class DiffAddRemoveCountsSerializer(serializers.Serializer):
    added = serializers.IntegerField()
    removed = serializers.IntegerField()


class DiffPackageSerializer(serializers.Serializer):
    name = serializers.CharField()


class DiffChangedPackageSerializer(DiffPackageSerializer):
    fields_changed = serializers.ListField(
        child=serializers.CharField(), help_text="The top-level fields that differ (empty past the first items)."
    )


class DiffObjectSerializer(serializers.Serializer):
    package = serializers.CharField()
    name = serializers.CharField()


class DiffChangedObjectSerializer(DiffObjectSerializer):
    fields_changed = serializers.ListField(
        child=serializers.CharField(), help_text="The top-level fields that differ (empty past the first items)."
    )


class PackagesDiffSerializer(serializers.Serializer):
    added = DiffPackageSerializer(many=True)
    removed = DiffPackageSerializer(many=True)
    changed = DiffChangedPackageSerializer(many=True)
    counts = DiffCountsSerializer()


class ObjectsDiffSerializer(serializers.Serializer):
    added = DiffObjectSerializer(many=True)
    removed = DiffObjectSerializer(many=True)
    changed = DiffChangedObjectSerializer(many=True)
    counts = DiffCountsSerializer()


class ChannelEntrySerializer(serializers.Serializer):
    package = serializers.CharField()
    channel = serializers.CharField()
    name = serializers.CharField(help_text="The bundle the entry names.")


class ChannelEntriesDiffSerializer(serializers.Serializer):
    added = ChannelEntrySerializer(many=True)
    removed = ChannelEntrySerializer(many=True)
    counts = DiffAddRemoveCountsSerializer()


class UpgradeEdgeSerializer(serializers.Serializer):
    package = serializers.CharField()
    channel = serializers.CharField()
    entry = serializers.CharField(help_text="The channel entry (bundle) the edge leads to.")
    kind = serializers.ChoiceField(choices=EDGE_KINDS)
    target = serializers.CharField(help_text="The bundle replaced or skipped, or the skipped version range.")


class UpgradeEdgesDiffSerializer(serializers.Serializer):
    added = UpgradeEdgeSerializer(many=True)
    removed = UpgradeEdgeSerializer(many=True)
    counts = DiffAddRemoveCountsSerializer()


class CatalogDiffSerializer(serializers.Serializer):
    summary = serializers.CharField(help_text="One line, as in the catalog's event for the switch.")
    packages = PackagesDiffSerializer()
    channels = ObjectsDiffSerializer()
    bundles = ObjectsDiffSerializer()
    channel_entries = ChannelEntriesDiffSerializer()
    upgrade_edges = UpgradeEdgesDiffSerializer(help_text="`replaces`, `skips` and `skipRange` of channel entries.")
    truncated = serializers.BooleanField(help_text=f"Some list was cut to its first {MAX_ITEMS} items.")

    def get_fields(self) -> dict[str, Any]:
        """``from`` and ``to`` lead (``from`` is a Python keyword, so they are not declared as attributes)."""
        return {
            "from": CatalogRevisionSerializer(
                allow_null=True,
                help_text="null: the diff starts from an empty catalog (`to` is the oldest revision).",
            ),
            "to": CatalogRevisionSerializer(),
            **super().get_fields(),
        }


NOT_MODIFIED = OpenApiResponse(description="The diff is the one the `If-None-Match` ETag names.")

DIFF_EXAMPLE = OpenApiExample(
    "One bundle added to a channel, one package removed",
    response_only=True,
    value={
        "from": {
            "content_digest": "sha256:" + "1" * 64,
            "resolved_ref": "quay.io/ops/catalog@sha256:" + "a" * 64,
            "switched_at": "2026-03-04T10:00:00Z",
            "summary": "initial content: 2 packages, ...",
        },
        "to": {
            "content_digest": "sha256:" + "2" * 64,
            "resolved_ref": "quay.io/ops/catalog@sha256:" + "b" * 64,
            "switched_at": "2026-03-05T10:00:00Z",
            "summary": "+1 bundle, -1 package, -1 channel, -1 bundle",
        },
        "summary": "+1 bundle, -1 package, -1 channel, -1 bundle, 1 channel changed, upgrade edges +1/-0",
        "packages": {
            "added": [],
            "removed": [{"name": "etcd"}],
            "changed": [],
            "counts": {"added": 0, "removed": 1, "changed": 0},
        },
        "channels": {
            "added": [],
            "removed": [{"package": "etcd", "name": "stable"}],
            "changed": [{"package": "prometheus", "name": "beta", "fields_changed": ["entries"]}],
            "counts": {"added": 0, "removed": 1, "changed": 1},
        },
        "bundles": {
            "added": [{"package": "prometheus", "name": "prometheusoperator.0.56.0"}],
            "removed": [{"package": "etcd", "name": "etcd.v0.9.4"}],
            "changed": [],
            "counts": {"added": 1, "removed": 1, "changed": 0},
        },
        "channel_entries": {
            "added": [{"package": "prometheus", "channel": "beta", "name": "prometheusoperator.0.56.0"}],
            "removed": [{"package": "etcd", "channel": "stable", "name": "etcd.v0.9.4"}],
            "counts": {"added": 1, "removed": 1},
        },
        "upgrade_edges": {
            "added": [
                {
                    "package": "prometheus",
                    "channel": "beta",
                    "entry": "prometheusoperator.0.56.0",
                    "kind": "replaces",
                    "target": "prometheusoperator.0.47.0",
                }
            ],
            "removed": [],
            "counts": {"added": 1, "removed": 0},
        },
        "truncated": False,
    },
)


class StoreUnavailable(APIException):
    status_code = status.HTTP_503_SERVICE_UNAVAILABLE
    default_detail = "The catalog content store does not answer; try again later."
    default_code = "unavailable"


def _digest_param(params: QueryDict, name: str) -> str | None:
    values = params.getlist(name)
    if len(values) > 1:
        raise ValidationError({name: ["Give at most one digest."]})
    if not values:
        return None
    try:
        store.entry_name(values[0])
    except ValueError:
        raise ValidationError({name: ["Not a digest: expected sha256: and 64 lowercase hex digits."]}) from None
    return values[0]


def _revision(catalog: Catalog, name: str, digest: str) -> CatalogRevision:
    revision = history.find(catalog, digest)
    if revision is None:
        raise NotFound(
            f"`{name}` {digest} is not in this catalog's history (it holds its last {catalog.revisions.count()} "
            f"content switches, at most {settings.CATALOG_HISTORY_LIMIT})."
        )
    return revision


def chosen_revisions(catalog: Catalog, params: QueryDict) -> tuple[CatalogRevision | None, CatalogRevision]:
    """The revisions the query names (``from`` may be None: nothing before); 400 on bad digests, 404 on unknown."""
    wanted_from, wanted_to = _digest_param(params, "from"), _digest_param(params, "to")
    if wanted_to is not None:
        to = _revision(catalog, "to", wanted_to)
    else:
        newest = history.revisions(catalog).first()
        if newest is None:
            raise NotFound("The catalog has no content history yet: nothing has been unpacked.")
        to = newest
    if wanted_from is not None:
        return _revision(catalog, "from", wanted_from), to
    return history.revisions(catalog).filter(pk__lt=to.pk).first(), to


def diff_etag(since: CatalogRevision | None, to: CatalogRevision) -> str:
    """Revisions never change, so a diff's representation is fixed by the pair (and the list bound)."""
    key = f"{since.pk if since else 0}:{since.content_digest if since else ''}:{to.pk}:{to.content_digest}:{MAX_ITEMS}"
    return f'"{hashlib.sha256(key.encode()).hexdigest()[:32]}"'


def catalog_diff(since: CatalogRevision | None, to: CatalogRevision) -> dict[str, Any]:
    """The diff between two revisions, as ``CatalogDiffSerializer`` data, computed from the stored entries."""
    try:
        diff = diff_entries(
            store.get(), since.content_digest if since else None, to.content_digest, detail_limit=MAX_ITEMS
        )
    except EntryMissing:
        raise NotFound("The content of one of these revisions is no longer in the store.") from None
    except store.StoreError:
        raise StoreUnavailable() from None
    return CatalogDiffSerializer({"from": since, "to": to, **as_dict(diff, MAX_ITEMS)}).data
