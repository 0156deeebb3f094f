"""What the console's gateway operations tell the user: who was changed, who was skipped, and why."""

from __future__ import annotations

from django.contrib import messages
from django.http import HttpRequest

from gateways.models import Gateway

__all__ = ["OperationMessagesMixin", "named"]

NAMES_SHOWN = 10


def named(names: list[str]) -> str:
    """'2 gateways: a, b', with at most NAMES_SHOWN names and a count of the rest."""
    noun = "gateway" if len(names) == 1 else "gateways"
    shown = ", ".join(names[:NAMES_SHOWN])
    if len(names) > NAMES_SHOWN:
        shown += f" and {len(names) - NAMES_SHOWN} more"
    return f"{len(names)} {noun}: {shown}"


class OperationMessagesMixin:
    """For a ModelAdmin: the messages after an operation on one gateway or a selection."""

    def _report(self, request: HttpRequest, gateways: list[Gateway], template: str) -> None:
        if gateways:
            self.message_user(request, template.format(named([g.name for g in gateways])), messages.SUCCESS)
        else:
            self.message_user(request, "No gateways were selected.", messages.WARNING)

    def _report_suspend(
        self, request: HttpRequest, changed: list[Gateway], skipped: list[Gateway], template: str
    ) -> None:
        """``template`` names the changed gateways at ``{}``."""
        if changed:
            self.message_user(request, template.format(named([g.name for g in changed])), messages.SUCCESS)
        if skipped:
            skipped_names = named([g.name for g in skipped])
            self.message_user(request, f"Skipped {skipped_names}: being deleted.", messages.WARNING)

    def _report_deletion(self, request: HttpRequest, names: list[str]) -> None:
        self.message_user(
            request,
            f"Deletion requested for {named(names)}. The worker uninstalls each release, deletes its namespace, "
            "then removes the record.",
            messages.SUCCESS,
        )
