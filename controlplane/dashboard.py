"""The console dashboard's panels: each app registers its own from ``AppConfig.ready()``.

A panel is a function of the request that returns template context for the dashboard
(``admin/controlplane/dashboard.html``). The controlplane serves what the apps register and imports
no app for it, so the layers stay one way (compare NetBox's ``register_widget``).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from django.http import HttpRequest

__all__ = ["Panel", "dashboard_context", "register_panel"]

Panel = Callable[[HttpRequest], Mapping[str, Any]]

_panels: dict[str, Panel] = {}


def register_panel(name: str, panel: Panel) -> None:
    """Add ``panel`` to the dashboard under ``name``; registering a name again replaces its panel."""
    _panels[name] = panel


def dashboard_context(request: HttpRequest) -> dict[str, Any]:
    """Every registered panel's context, in the order the panels were registered."""
    context: dict[str, Any] = {}
    for panel in _panels.values():
        context.update(panel(request))
    return context
