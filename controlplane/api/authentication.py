"""Token authentication that remembers a resolved token for a few seconds in each process.

A client's every request would otherwise pay a token-and-user query first (a sixth of a list request's
time, measured). Within ``API_TOKEN_CACHE_SECONDS`` its token is answered from memory, the way the
Kubernetes API server caches a webhook's token reviews.

In the process that makes a change, deleting a token, or saving or deleting its user (deactivating them,
say), forgets it at once. Other processes may go on accepting it until their entry expires, so the setting
bounds how long a revocation takes everywhere. 0 turns the cache off.
"""

from __future__ import annotations

import time
from typing import Any

from django.conf import settings
from django.contrib.auth import get_user_model
from django.db.models.signals import post_delete, post_save
from django.dispatch import receiver
from rest_framework.authentication import TokenAuthentication
from rest_framework.authtoken.models import Token

from controlplane.ttl_cache import TtlCache

__all__ = ["CachedTokenAuthentication", "resolved"]

clock = time.monotonic
resolved: TtlCache[tuple[Any, Token]] = TtlCache(max_entries=10_000)  # token key -> (user, token)


class CachedTokenAuthentication(TokenAuthentication):
    """DRF's ``Authorization: Token <key>``, answered from this process's memory while an entry is fresh."""

    def authenticate_credentials(self, key: str) -> tuple[Any, Token]:
        ttl = settings.API_TOKEN_CACHE_SECONDS
        if ttl <= 0:
            return super().authenticate_credentials(key)
        now = clock()
        found = resolved.get(key, now)
        if found is None:
            found = super().authenticate_credentials(key)  # raises for unknown keys and inactive users
            resolved.put(key, found, now + ttl)
        return found


@receiver(post_save, sender=Token)
@receiver(post_delete, sender=Token)
def _forget_token(sender: type, instance: Token, **kwargs: Any) -> None:
    resolved.discard(instance.key)


@receiver(post_save, sender=get_user_model())
@receiver(post_delete, sender=get_user_model())
def _forget_user(sender: type, instance: Any, **kwargs: Any) -> None:
    resolved.discard_if(lambda found: found[0].pk == instance.pk)
