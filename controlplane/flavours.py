"""The kinds of managed cluster (no Django: ``gateways.values`` maps values with it)."""

from __future__ import annotations

from enum import StrEnum

__all__ = ["Flavour"]


class Flavour(StrEnum):
    KUBERNETES = "kubernetes"
    OPENSHIFT = "openshift"
