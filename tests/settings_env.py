"""Loaded with -p before Django starts: test-only defaults for settings production requires."""

import os

from tests.paths import MIRROR_CHART

os.environ.setdefault("SECRET_KEY", "test-only-secret-key-not-for-production-use-0123456789")
os.environ.setdefault("FIELD_ENCRYPTION_KEY", "dGVzdC1vbmx5LWZpZWxkLWVuY3J5cHRpb24ta2V5MDE=")
os.environ.setdefault("DATABASE_URL", "postgres://postgres@127.0.0.1:5432/controlplane")
os.environ.setdefault("CELERY_BROKER_URL", "redis://127.0.0.1:6379/15")
os.environ.setdefault("CACHE_URL", "redis://127.0.0.1:6379/13")
# The fast mirror chart, chosen explicitly (production defaults to the upstream chart over oci://).
os.environ.setdefault("GATEWAY_CHART", str(MIRROR_CHART))
# Tenants' tests name their own images: allow overrides from any repository (production denies them by default).
os.environ.setdefault("GATEWAY_IMAGE_OVERRIDES", "allow")
os.environ.setdefault("GATEWAY_IMAGE_REPOSITORIES", "*")
