"""Shared REST API building blocks: error format, pagination, permissions, base serializers and views."""
