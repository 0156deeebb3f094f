"""Settings of the slim content server: only what serving catalog content needs.

It takes every setting of ``controlplane.settings`` (so the environment is read, and checked, in
one place, and settings added there for the content routes come along), then narrows the apps,
middleware and URLs: no DRF, admin, sessions, static files or schema, and no Celery app at start.
"""

from __future__ import annotations

from typing import Any

from controlplane import settings as _full

globals().update({name: value for name, value in vars(_full).items() if name.isupper()})

INSTALLED_APPS = [
    "django.contrib.auth",  # controlplane's models point at the user model; nothing here authenticates
    "django.contrib.contenttypes",
    "controlplane",
    "catalogs",
]
MIDDLEWARE = [
    "controlplane.http_errors.DatabaseOutageMiddleware",
    "django.middleware.security.SecurityMiddleware",
    "django.middleware.common.CommonMiddleware",
]
ROOT_URLCONF = "controlplane.urls_content"
WSGI_APPLICATION = "controlplane.wsgi_content.application"
TEMPLATES: list[dict[str, Any]] = []
