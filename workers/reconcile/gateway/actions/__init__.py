"""The Helm actions, one per module, one interface (``GatewayAction``): ``run(request, io, view)``, where ``view`` is
what the pass observed before choosing the action (None for uninstall and purge, which deletion runs without
observing). Each runs once, and returns its conditions, events and release as a ``GatewayOutcome`` that the pass
merges into its own.

Driver errors propagate; the loop turns them into a failed attempt with backoff. An action of several steps that
fails after one of them wrote to the cluster raises ``Interrupted``, so the pass keeps the events of what it did.
"""

from __future__ import annotations

from typing import Protocol

from workers.drivers.errors import DriverError
from workers.reconcile.gateway.observation.view import GatewayView
from workers.reconcile.gateway.outcome import GatewayOutcome
from workers.reconcile.gateway.pass_io import PassIo
from workers.reconcile.gateway.request import GatewayRequest

__all__ = ["GatewayAction", "Interrupted"]


class GatewayAction(Protocol):
    def __call__(self, request: GatewayRequest, io: PassIo, view: GatewayView | None) -> GatewayOutcome:
        """Run the action once; what it did. Raises ``DriverError``."""
        ...


class Interrupted(Exception):
    """An action stopped part-way by ``cause``; ``done`` is what it did before (its events are kept)."""

    def __init__(self, done: GatewayOutcome, cause: DriverError) -> None:
        super().__init__(str(cause))
        self.done, self.cause = done, cause
