"""Bounded limit/offset pagination: clients may ask for up to MAX_LIMIT items a page."""

from rest_framework.pagination import LimitOffsetPagination

__all__ = ["BoundedPagination"]


class BoundedPagination(LimitOffsetPagination):
    default_limit = 50
    max_limit = 200
