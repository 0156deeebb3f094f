"""The console dashboard's catalog figures (registered from ``CatalogsConfig.ready``)."""

from __future__ import annotations

from typing import Any

from django.http import HttpRequest

from catalogs.models import Catalog
from catalogs.states import ConditionType
from cluster_vocabulary.kubernetes import ConditionStatus

__all__ = ["catalog_panel"]


def catalog_panel(request: HttpRequest) -> dict[str, Any]:
    """How many catalogs there are and how many serve (staff only)."""
    if not request.user.is_staff:
        return {}
    catalogs = list(Catalog.objects.values_list("conditions", flat=True))  # .only() would defer spec fields
    return {
        "catalog_total": len(catalogs),
        "catalogs_serving": sum(
            1
            for conditions in catalogs
            if any(
                c.get("type") == ConditionType.SERVING and c.get("status") == ConditionStatus.TRUE
                for c in conditions or ()
            )
        ),
    }
