"""Django settings, read from the environment (12-factor). docs/operators/configuration.md lists every variable."""

from __future__ import annotations

from pathlib import Path

from controlplane.catalog_store_env import catalog_s3_env
from controlplane.crypto import validate_keys
from controlplane.database_env import database_config
from controlplane.env import (
    env_bool,
    env_choice,
    env_int,
    env_list,
    env_networks,
    env_path,
    env_required,
    env_str,
    env_url,
)
from controlplane.image_policy_env import image_policy_env
from controlplane.tasks import TaskName

BASE_DIR = Path(__file__).resolve().parent.parent

SECRET_KEY = env_required("SECRET_KEY", "set SECRET_KEY to a long random string (make run writes one to .run/env)")
# Comma-separated Fernet keys: the first encrypts, all decrypt (see controlplane.crypto).
FIELD_ENCRYPTION_KEYS = validate_keys(
    "FIELD_ENCRYPTION_KEY",
    env_required(
        "FIELD_ENCRYPTION_KEY",
        "set it to a Fernet key: python -c 'from cryptography.fernet import Fernet; "
        "print(Fernet.generate_key().decode())'",
    ),
)
DEBUG = env_bool("DEBUG", False)
ALLOWED_HOSTS = env_list("ALLOWED_HOSTS", ["127.0.0.1", "localhost", "[::1]", "testserver"])
CSRF_TRUSTED_ORIGINS = env_list("CSRF_TRUSTED_ORIGINS", [])

INSTALLED_APPS = [
    "controlplane.admin_site.ConsoleAdminConfig",  # django.contrib.admin with the console as admin.site
    "django.contrib.auth",
    "django.contrib.contenttypes",
    "django.contrib.sessions",
    "django.contrib.messages",
    "django.contrib.staticfiles",
    "django.contrib.postgres",  # index expressions with operator classes (trigram search); harmless on SQLite
    "rest_framework",
    "rest_framework.authtoken",
    "django_filters",
    "drf_spectacular",
    "drf_spectacular_sidecar",  # Swagger UI and Redoc as local static files: the docs work offline
    "controlplane",
    "gateways",
    "catalogs",
    "rollouts",
    "notifications",
    "workers",
]

MIDDLEWARE = [
    "controlplane.http_errors.DatabaseOutageMiddleware",
    "django.middleware.security.SecurityMiddleware",
    "whitenoise.middleware.WhiteNoiseMiddleware",
    "django.contrib.sessions.middleware.SessionMiddleware",
    "django.middleware.common.CommonMiddleware",
    "django.middleware.csrf.CsrfViewMiddleware",
    "django.contrib.auth.middleware.AuthenticationMiddleware",
    "django.contrib.messages.middleware.MessageMiddleware",
    "django.middleware.clickjacking.XFrameOptionsMiddleware",
    "controlplane.csp.ContentSecurityPolicyMiddleware",
]

ROOT_URLCONF = "controlplane.urls"
WSGI_APPLICATION = "controlplane.wsgi.application"

TEMPLATES = [
    {
        "BACKEND": "django.template.backends.django.DjangoTemplates",
        "DIRS": [],
        "APP_DIRS": True,
        "OPTIONS": {
            "context_processors": [
                "django.template.context_processors.request",
                "django.contrib.auth.context_processors.auth",
                "django.contrib.messages.context_processors.messages",
            ],
        },
    },
]

# SQLite (the embedded default) runs in WAL mode with IMMEDIATE transactions and a busy timeout.
DATABASES = {
    "default": database_config(
        env_url("DATABASE_URL", f"sqlite:///{BASE_DIR / 'db.sqlite3'}", ("sqlite", "postgres", "postgresql")),
        conn_max_age=env_int("DATABASE_CONN_MAX_AGE", 60, minimum=0),
    )
}
DEFAULT_AUTO_FIELD = "django.db.models.BigAutoField"

AUTH_PASSWORD_VALIDATORS = [
    {"NAME": "django.contrib.auth.password_validation.MinimumLengthValidator"},
    {"NAME": "django.contrib.auth.password_validation.CommonPasswordValidator"},
]

LANGUAGE_CODE = "en-us"
TIME_ZONE = "UTC"
USE_I18N = True
USE_TZ = True
STATIC_URL = "static/"
STATIC_ROOT = env_path("STATIC_ROOT", BASE_DIR / "build" / "static")
STORAGES = {
    "default": {"BACKEND": "django.core.files.storage.FileSystemStorage"},
    "staticfiles": {"BACKEND": "whitenoise.storage.CompressedStaticFilesStorage"},
}

# Request bodies larger than this get 413 from the API.
DATA_UPLOAD_MAX_MEMORY_SIZE = env_int("API_MAX_BODY_BYTES", 1024 * 1024, minimum=1024)

REST_FRAMEWORK = {
    "DEFAULT_AUTHENTICATION_CLASSES": [
        "controlplane.api.authentication.CachedTokenAuthentication",
        "rest_framework.authentication.SessionAuthentication",
    ],
    "DEFAULT_PERMISSION_CLASSES": ["rest_framework.permissions.IsAuthenticated"],
    "DEFAULT_PAGINATION_CLASS": "controlplane.api.pagination.BoundedPagination",
    "DEFAULT_FILTER_BACKENDS": [
        "controlplane.api.filtering.FilterBackend",
        "rest_framework.filters.SearchFilter",
        "rest_framework.filters.OrderingFilter",
    ],
    "DEFAULT_SCHEMA_CLASS": "controlplane.api.schema.AutoSchema",
    "EXCEPTION_HANDLER": "controlplane.api.errors.exception_handler",
    "DEFAULT_RENDERER_CLASSES": ["controlplane.api.renderers.FastJSONRenderer"],
    "DEFAULT_PARSER_CLASSES": ["controlplane.api.parsers.BoundedJSONParser"],
    "UNAUTHENTICATED_USER": None,
    "DEFAULT_THROTTLE_CLASSES": [
        "controlplane.api.throttling.TokenRateThrottle",
        "controlplane.api.throttling.AnonymousRateThrottle",
    ],
}
API_THROTTLE_USER_RATE = env_str("API_THROTTLE_USER_RATE", "1200/min")
API_THROTTLE_ANON_RATE = env_str("API_THROTTLE_ANON_RATE", "60/min")
# A token stays accepted for this long after it is revoked elsewhere (see controlplane.api.authentication).
API_TOKEN_CACHE_SECONDS = env_int("API_TOKEN_CACHE_SECONDS", 10, minimum=0)
# Lists count exactly while the planner expects fewer rows than this; above, they report its estimate.
API_EXACT_COUNT_LIMIT = env_int("API_EXACT_COUNT_LIMIT", 10000, minimum=1)
# Each process reuses a list's count estimate, and the exact count a page in its back half needs, this long.
API_COUNT_CACHE_SECONDS = env_int("API_COUNT_CACHE_SECONDS", 5, minimum=0)
CACHES = {
    "default": {
        "BACKEND": "django.core.cache.backends.redis.RedisCache",
        "LOCATION": env_url("CACHE_URL", "redis://127.0.0.1:6379/1", ("redis", "rediss")),
        "KEY_PREFIX": "controlplane",
        # A dead or black-holed cache must not stall requests (throttling falls back per process).
        "OPTIONS": {"socket_connect_timeout": 1, "socket_timeout": 1},
    }
}

SPECTACULAR_SETTINGS = {
    "TITLE": "Gateway and catalog control plane API",
    "DESCRIPTION": "Declare tenant gateways and catalogs; workers reconcile them onto Kubernetes clusters.",
    "VERSION": "1.0.0",
    "SERVE_INCLUDE_SCHEMA": False,
    "COMPONENT_SPLIT_REQUEST": True,
    "SCHEMA_PATH_PREFIX": "/api/v1",
    "SWAGGER_UI_DIST": "SIDECAR",
    "SWAGGER_UI_FAVICON_HREF": "SIDECAR",
    "REDOC_DIST": "SIDECAR",
    # Nullable and blank enums are the enum plus "nullable" or "" in its values, never a NullEnum/BlankEnum
    # component: openapi-generator's python generator writes NullEnum as a class that does not parse.
    "ENUM_ADD_EXPLICIT_BLANK_NULL_CHOICE": False,
    "POSTPROCESSING_HOOKS": ["drf_spectacular.hooks.postprocess_schema_enums", "controlplane.api.schema.add_links"],
    "ENUM_NAME_OVERRIDES": {
        "GatewayPhaseEnum": "gateways.choices.Phase",
        "ClusterFlavourEnum": "controlplane.choices.Flavour",
        "ConditionStatusEnum": "controlplane.choices.ConditionStatus",
        "EventTypeEnum": "controlplane.choices.EventType",
        "RolloutTargetStateEnum": "rollouts.choices.TargetState",
        "RolloutPhaseEnum": "rollouts.choices.RolloutPhase",
        "WaveApprovalStateEnum": "rollouts.choices.ApprovalState",
        "ReleaseStatusEnum": "gateways.choices.ReleaseStatus",
        "ImageOverridesEnum": "controlplane.image_policy.OverrideMode",
        "KindEnum": "catalogs.diff.EDGE_KINDS",  # the upgrade edges' kind keeps its name beside receivers' kind
        "NotificationEventKindEnum": "notifications.choices.EventKind",
        "NotificationSeverityEnum": "notifications.choices.Severity",
        "DeliveryStatusEnum": "notifications.choices.DeliveryStatus",
        "ReceiverKindEnum": "notifications.choices.ReceiverKind",
    },
}

CELERY_BROKER_URL = env_url("CELERY_BROKER_URL", "redis://127.0.0.1:6379/0", ("redis", "rediss"))
CELERY_RESULT_BACKEND = None
CELERY_TASK_ACKS_LATE = True
CELERY_TASK_REJECT_ON_WORKER_LOST = True
CELERY_WORKER_PREFETCH_MULTIPLIER = 1
CELERY_BROKER_CONNECTION_RETRY_ON_STARTUP = True
CELERY_BROKER_TRANSPORT_OPTIONS = {"socket_connect_timeout": 3, "socket_timeout": 5}
RESYNC_INTERVAL_SECONDS = env_int("RESYNC_INTERVAL_SECONDS", 60, minimum=1)
CATALOG_GC_INTERVAL_SECONDS = env_int("CATALOG_GC_INTERVAL_SECONDS", 600, minimum=1)
ROLLOUT_INTERVAL_SECONDS = env_int("ROLLOUT_INTERVAL_SECONDS", 5, minimum=1)
# Four eyes: a rollout's creator may approve its waves' plans only when this is on.
ROLLOUT_ALLOW_SELF_APPROVAL = env_bool("ROLLOUT_ALLOW_SELF_APPROVAL", False)
# The console's fleet plots: gateways by phase per cluster, sampled this often and kept this long.
FLEET_SAMPLE_INTERVAL_SECONDS = env_int("FLEET_SAMPLE_INTERVAL_SECONDS", 60, minimum=10)
FLEET_SAMPLE_RETENTION_HOURS = env_int("FLEET_SAMPLE_RETENTION_HOURS", 168, minimum=1)
CELERY_BEAT_SCHEDULE = {
    "probe clusters": {"task": TaskName.PROBE_ALL_CLUSTERS, "schedule": RESYNC_INTERVAL_SECONDS},
    "resync gateways": {"task": TaskName.RESYNC_GATEWAYS, "schedule": RESYNC_INTERVAL_SECONDS},
    "poll catalogs": {"task": TaskName.POLL_CATALOGS, "schedule": RESYNC_INTERVAL_SECONDS},
    "collect catalog content": {"task": TaskName.GC_CATALOG_CONTENT, "schedule": CATALOG_GC_INTERVAL_SECONDS},
    "advance rollouts": {"task": TaskName.ADVANCE_ROLLOUTS, "schedule": ROLLOUT_INTERVAL_SECONDS},
    "sample fleet": {
        "task": TaskName.SAMPLE_FLEET,
        "schedule": FLEET_SAMPLE_INTERVAL_SECONDS,
        "options": {"expires": FLEET_SAMPLE_INTERVAL_SECONDS},
    },
}
# Notifications (see docs/users/notifications.md): the SSRF rules' exceptions, delivery timing, and the link base.
NOTIFICATIONS_ALLOW_PRIVATE_ADDRESSES = env_bool("NOTIFICATIONS_ALLOW_PRIVATE_ADDRESSES", False)
# CIDRs receivers may reach even when private (say one internal relay), comma-separated.
NOTIFICATIONS_ALLOWED_NETWORKS = env_networks("NOTIFICATIONS_ALLOWED_NETWORKS")
NOTIFICATIONS_ALLOW_HTTP = env_bool("NOTIFICATIONS_ALLOW_HTTP", False)
NOTIFICATIONS_TIMEOUT_SECONDS = env_int("NOTIFICATIONS_TIMEOUT_SECONDS", 10, minimum=1)
NOTIFICATIONS_MAX_REDIRECTS = env_int("NOTIFICATIONS_MAX_REDIRECTS", 3, minimum=0)
NOTIFICATIONS_RETRY_BASE_SECONDS = env_int("NOTIFICATIONS_RETRY_BASE_SECONDS", 10, minimum=1)
NOTIFICATIONS_RETRY_CAP_SECONDS = env_int("NOTIFICATIONS_RETRY_CAP_SECONDS", 600, minimum=1)
NOTIFICATIONS_MAX_ATTEMPTS = env_int("NOTIFICATIONS_MAX_ATTEMPTS", 8, minimum=1)
NOTIFICATIONS_SWEEP_SECONDS = env_int("NOTIFICATIONS_SWEEP_SECONDS", 30, minimum=1)
CELERY_BEAT_SCHEDULE["sweep notifications"] = {
    "task": TaskName.SWEEP_NOTIFICATIONS,
    "schedule": NOTIFICATIONS_SWEEP_SECONDS,
}
CLUSTER_PROBE_TIMEOUT_SECONDS = env_int("CLUSTER_PROBE_TIMEOUT_SECONDS", 5, minimum=1)
# A watcher replica holds each cluster it watches this long, renewing every third of it.
WATCHER_LEASE_SECONDS = env_int("WATCHER_LEASE_SECONDS", 30, minimum=3)

HELM_BINARY = env_path("HELM_BINARY", BASE_DIR / ".tools" / "helm")
HELM_TIMEOUT_SECONDS = env_int("HELM_TIMEOUT_SECONDS", 300, minimum=5)
HELM_HOME = env_path("HELM_HOME", BASE_DIR / ".run" / "helm")
# Gateways: the chart is a local .tgz or directory, or oci://... pinned by GATEWAY_CHART_VERSION (or @sha256:...).
# The default is the upstream chart the image embeds (scripts/gateway_chart.pin); local runs and tests set a chart.
GATEWAY_CHART = env_str("GATEWAY_CHART", str(BASE_DIR / "charts" / "gateway-chart.tgz"))
GATEWAY_CHART_VERSION = env_str("GATEWAY_CHART_VERSION", "")
GATEWAY_ROUTE_GATEWAY_NAME = env_str("GATEWAY_ROUTE_GATEWAY_NAME", "shared-gateway")
GATEWAY_ROUTE_GATEWAY_NAMESPACE = env_str("GATEWAY_ROUTE_GATEWAY_NAMESPACE", "gateway-system")
GATEWAY_CERT_ISSUER_NAME = env_str("GATEWAY_CERT_ISSUER_NAME", "")
GATEWAY_CERT_ISSUER_KIND = env_str("GATEWAY_CERT_ISSUER_KIND", "ClusterIssuer")
GATEWAY_RETRY_BASE_SECONDS = env_int("GATEWAY_RETRY_BASE_SECONDS", 60, minimum=1)
GATEWAY_RETRY_CAP_SECONDS = env_int("GATEWAY_RETRY_CAP_SECONDS", 900, minimum=1)
GATEWAY_MAX_FAILURES = env_int("GATEWAY_MAX_FAILURES", 5, minimum=1)
# Failed uninstalls after which a delete removes the namespace and the release's objects without Helm.
GATEWAY_DELETE_MAX_FAILURES = env_int("GATEWAY_DELETE_MAX_FAILURES", 5, minimum=1)
GATEWAY_READY_GRACE_SECONDS = env_int("GATEWAY_READY_GRACE_SECONDS", 300, minimum=1)
GATEWAY_POLL_SECONDS = env_int("GATEWAY_POLL_SECONDS", 5, minimum=1)
GATEWAY_PENDING_TIMEOUT_SECONDS = env_int("GATEWAY_PENDING_TIMEOUT_SECONDS", HELM_TIMEOUT_SECONDS + 60, minimum=1)
# One pass per gateway at a time: a pass holds a lease this long, renewed every third of it while it
# runs; a killed worker's lease lapses after this.
GATEWAY_LEASE_SECONDS = env_int("GATEWAY_LEASE_SECONDS", 60, minimum=3)
# At most this many passes (and so helm processes) run at once on one cluster, across all workers.
GATEWAY_CLUSTER_CONCURRENCY = env_int("GATEWAY_CLUSTER_CONCURRENCY", 4, minimum=1)
# Each worker process remembers, between fleet resyncs, the decoded Helm record and the drift verdicts of this many
# gateways: at or above the fleet's size, an unchanged gateway costs its resync no read and no comparison.
FLEET_MEMO_GATEWAYS = env_int("FLEET_MEMO_GATEWAYS", 20_000, minimum=100)
# Tenants' gateway passes are spread over this many queues by owner id, so one tenant's burst cannot delay
# the others (controlplane.queues). Every process (API, workers, watcher, beat) must be given the same value.
GATEWAY_TENANT_QUEUES = env_int("GATEWAY_TENANT_QUEUES", 8, minimum=1)
# One cluster's passes hold at most this share of one worker's pool slots (at least one), so a slow cluster
# leaves the rest to the others; 100 lets one cluster take them all.
GATEWAY_CLUSTER_POOL_PERCENT = min(env_int("GATEWAY_CLUSTER_POOL_PERCENT", 50, minimum=1), 100)
# At most this many Kubernetes API requests are in flight to one cluster, across all workers and watchers
# (counted in the cache's Redis); watch streams are not counted.
CLUSTER_API_CONCURRENCY = env_int("CLUSTER_API_CONCURRENCY", 8, minimum=1)
# Compare each deployed release's objects with the cluster: enabled (report and repair by helm upgrade),
# warn (report only), disabled (no comparison; only a missing workload or namespace is repaired).
GATEWAY_DRIFT_DETECTION = env_choice("GATEWAY_DRIFT_DETECTION", "enabled", ("enabled", "warn", "disabled"))
# The Pod Security Standard enforced on gateway namespaces of Kubernetes clusters (the namespace label
# pod-security.kubernetes.io/enforce; `none` sets no label and leaves the cluster's default). `baseline` is the
# strictest level the upstream chart's pods all pass: its certgen hook Job sets neither runAsNonRoot nor a
# seccomp profile, and no value can add them, so `restricted` refuses it. OpenShift namespaces get no label:
# their pods are admitted by SCCs, and OpenShift's label syncer manages the Pod Security labels.
GATEWAY_POD_SECURITY = env_choice("GATEWAY_POD_SECURITY", "baseline", ("baseline", "privileged", "restricted", "none"))
# Whether tenants may override their release's images (platform admins always may), from which repositories
# (exact, a prefix ending in `/`, or `*`), and whether a digest is required; a cluster's `image_policy` overrides
# this. See controlplane.image_policy.
GATEWAY_IMAGE_POLICY = image_policy_env()
# Refuse any new gateway release without a signature_policy (cosign public keys): the worker then verifies the
# chart and both images of every new release before it is Ready, and gateways run the digests it verified.
RELEASES_REQUIRE_SIGNATURES = env_bool("RELEASES_REQUIRE_SIGNATURES", False)

LOGGING = {
    "version": 1,
    "disable_existing_loggers": False,
    "formatters": {"plain": {"format": "%(asctime)s %(levelname)s %(name)s %(message)s"}},
    "handlers": {"console": {"class": "logging.StreamHandler", "formatter": "plain"}},
    "root": {"handlers": ["console"], "level": env_str("LOG_LEVEL", "INFO")},
}

# Catalogs
# Where content entries live: "fs", a directory every API replica and worker must see (CATALOG_STORE_DIR),
# or "s3", a bucket (CATALOG_S3_*; CATALOG_STORE_DIR is then only the worker's local scratch space).
CATALOG_STORE = env_choice("CATALOG_STORE", "fs", ("fs", "s3"))
CATALOG_STORE_DIR = env_path("CATALOG_STORE_DIR", BASE_DIR / ".run" / "catalogs")
CATALOG_S3 = catalog_s3_env(CATALOG_STORE)
# The public base of the content server, for status.urls.base (<base>/catalogs/<name>).
CATALOG_BASE_URL = env_url("CATALOG_BASE_URL", "http://127.0.0.1:8000", ("http", "https")).rstrip("/")
# The API's public base, for the links in notification payloads (the chart's api.publicUrl sets it).
NOTIFICATIONS_LINK_BASE_URL = env_url("NOTIFICATIONS_LINK_BASE_URL", CATALOG_BASE_URL, ("http", "https")).rstrip("/")
CATALOG_REGISTRY_TIMEOUT_SECONDS = env_int("CATALOG_REGISTRY_TIMEOUT_SECONDS", 30, minimum=1)
CATALOG_MAX_LAYER_BYTES = env_int("CATALOG_MAX_LAYER_BYTES", 512 * 1024 * 1024, minimum=1024)
CATALOG_MAX_UNPACKED_BYTES = env_int("CATALOG_MAX_UNPACKED_BYTES", 2 * 1024 * 1024 * 1024, minimum=1024)
CATALOG_GC_GRACE_SECONDS = env_int("CATALOG_GC_GRACE_SECONDS", 600, minimum=0)
# Content switches remembered per catalog (for diffs); the GC keeps the content of each.
CATALOG_HISTORY_LIMIT = env_int("CATALOG_HISTORY_LIMIT", 10, minimum=1)
CATALOG_RETRY_AFTER_SECONDS = env_int("CATALOG_RETRY_AFTER_SECONDS", 10, minimum=1)
# Served content found missing or corrupt (by a reader or the GC sweep) queues one reconcile per catalog and
# digest per this many seconds (see catalogs.lost_content).
CATALOG_CONTENT_LOST_REQUEUE_SECONDS = env_int("CATALOG_CONTENT_LOST_REQUEUE_SECONDS", 60, minimum=1)
CATALOG_GZIP_MIN_BYTES = env_int("CATALOG_GZIP_MIN_BYTES", 1024, minimum=0)
# GraphQL queries on catalog content (/catalogs/<name>/api/v1/graphql): each limit crossed is a 400.
CATALOG_GRAPHQL_MAX_BODY_BYTES = env_int("CATALOG_GRAPHQL_MAX_BODY_BYTES", 1024 * 1024, minimum=1024)
CATALOG_GRAPHQL_MAX_QUERY_BYTES = env_int("CATALOG_GRAPHQL_MAX_QUERY_BYTES", 100_000, minimum=256)
CATALOG_GRAPHQL_MAX_DEPTH = env_int("CATALOG_GRAPHQL_MAX_DEPTH", 20, minimum=2)
# A bound on the values an answer can hold (introspection costs about 40,000; see catalogs.content.graphql_limits).
CATALOG_GRAPHQL_MAX_COST = env_int("CATALOG_GRAPHQL_MAX_COST", 200_000, minimum=100)
CATALOG_GRAPHQL_MAX_PAGE = env_int("CATALOG_GRAPHQL_MAX_PAGE", 1000, minimum=1)
CATALOG_GRAPHQL_MAX_OFFSET = env_int("CATALOG_GRAPHQL_MAX_OFFSET", 10**9, minimum=0)
CATALOG_GRAPHQL_SCHEMAS_CACHED = env_int("CATALOG_GRAPHQL_SCHEMAS_CACHED", 8, minimum=1)
