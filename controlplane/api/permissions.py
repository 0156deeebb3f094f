"""Permissions: platform admins (superusers) manage clusters and see everything; users see their own.

Staff who are not superusers are tenants who may also use the console; the API and the console
agree on this. Tenant scoping is done by querysets, so another tenant's object is a 404, never a 403.
"""

from __future__ import annotations

from typing import Any

from rest_framework.permissions import SAFE_METHODS, BasePermission
from rest_framework.request import Request

__all__ = ["IsPlatformAdmin", "ReadOnlyOrPlatformAdmin", "is_platform_admin"]


def is_platform_admin(user: Any) -> bool:
    return bool(user and user.is_authenticated and user.is_active and user.is_superuser)


class IsPlatformAdmin(BasePermission):
    message = "Only platform admins may do this."

    def has_permission(self, request: Request, view: Any) -> bool:
        return is_platform_admin(request.user)


class ReadOnlyOrPlatformAdmin(BasePermission):
    message = "Only platform admins may change this resource."

    def has_permission(self, request: Request, view: Any) -> bool:
        return request.method in SAFE_METHODS or is_platform_admin(request.user)
