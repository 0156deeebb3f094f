"""Rate limits per authenticated user (so per token) and per client address for anonymous calls.

Rates are read from settings on every request, so operators (and tests) can change them without
reloading classes. Counters live in the shared cache, so every API replica enforces one budget.
"""

from __future__ import annotations

from django.conf import settings
from rest_framework.throttling import AnonRateThrottle, UserRateThrottle

__all__ = ["AnonymousRateThrottle", "TokenRateThrottle"]


class TokenRateThrottle(UserRateThrottle):
    def get_rate(self) -> str:
        return settings.API_THROTTLE_USER_RATE


class AnonymousRateThrottle(AnonRateThrottle):
    def get_rate(self) -> str:
        return settings.API_THROTTLE_ANON_RATE
