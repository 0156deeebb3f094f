# ruff: noqa: E501 (prose, one meaning per line)
"""What each setting means, section by section: the words beside the declarations the code makes.

``python -m controlplane.settings_reference`` writes the configuration reference (docs/operators/configuration.md)
from these and from the declarations themselves (each variable read in the settings modules, with its default as the
code writes it); a test fails when a variable is read but not described here, described but not read, or when the
committed page differs from what would be written. Pure: it reads the settings modules' source, never imports them."""

from __future__ import annotations

SECTIONS: dict[str, tuple[tuple[tuple[str, ...], str], ...]] = {
    "Process and security": (
        (("SECRET_KEY",), "Django secret key"),
        (
            ("FIELD_ENCRYPTION_KEY",),
            "comma-separated Fernet keys for kubeconfigs, DB URIs and pull secrets at rest: the first encrypts, all decrypt. To rotate: put a new key first, keep the old after it, run `manage.py rotate_encryption_keys`, then drop the old key",
        ),
        (("DEBUG",), "Django's debug pages; never in production"),
        (
            ("ALLOWED_HOSTS", "CSRF_TRUSTED_ORIGINS"),
            "comma-separated host names the API answers to, and origins trusted for the console's forms (`https://host`)",
        ),
        (("LOG_LEVEL",), "the level of every process's log (`DEBUG`, `INFO`, `WARNING`, ...)"),
        (("STATIC_ROOT",), "where `manage.py collectstatic` puts the console's files, which the API serves"),
    ),
    "Database, broker and cache": (
        (
            ("DATABASE_URL",),
            "`postgres://...` in production. SQLite (the embedded default) runs in WAL mode with `IMMEDIATE` transactions and a 20 s busy timeout, so concurrent writers wait rather than fail; a reconcile task that still meets lock contention (or a PostgreSQL serialization failure or deadlock) is retried after 0.5, 1, 2, 4, 8 s... (10 times), and its lease is released first",
        ),
        (
            ("DATABASE_CONN_MAX_AGE",),
            "seconds a database connection is kept across requests (checked before each reuse); `0` reconnects on every request",
        ),
        (("CELERY_BROKER_URL",), "Redis broker"),
        (
            ("CACHE_URL",),
            "shared cache (rate-limit counters, lost catalog content reports); unreachable, limits are per process and readers leave lost content to the sweep",
        ),
    ),
    "Gateways and Helm": (
        (("HELM_BINARY", "HELM_TIMEOUT_SECONDS", "HELM_HOME"), "the helm runner"),
        (
            ("GATEWAY_CHART",),
            "the bootstrap default release's chart (see Releases and rollouts): a `.tgz`, a directory, or `oci://...`. The default is the upstream chart the image embeds (pinned in `scripts/gateway_chart.pin`, checked by sha256 at build), so a worker starts without a registry. An `oci://` chart is pulled once per worker start into `HELM_HOME/charts`; while it cannot be pulled the worker still starts, and its releases wait (`ChartUnavailable`). A local chart that cannot be read stops the worker. `make run` and the tests set a local chart (`make run`: `../shared/charts/openshell` if present, else `tests/charts/gateway`)",
        ),
        (
            ("GATEWAY_CHART_VERSION",),
            "required for an `oci://` chart unless it is digest-pinned (`oci://...@sha256:...`); the worker refuses to start otherwise",
        ),
        (("GATEWAY_ROUTE_GATEWAY_NAME", "GATEWAY_ROUTE_GATEWAY_NAMESPACE"), "the Gateway that GRPCRoutes attach to"),
        (
            ("GATEWAY_CERT_ISSUER_NAME", "GATEWAY_CERT_ISSUER_KIND"),
            "cert-manager issuer for OpenShift Routes (needed on OpenShift without Gateway API)",
        ),
        (
            ("GATEWAY_RETRY_BASE_SECONDS", "GATEWAY_RETRY_CAP_SECONDS", "GATEWAY_MAX_FAILURES"),
            "backoff 1, 2, 4, 8 min capped at 15; Failed after 5",
        ),
        (
            ("GATEWAY_DELETE_MAX_FAILURES",),
            "failed uninstalls after which a delete removes what the release left without Helm",
        ),
        (
            ("GATEWAY_READY_GRACE_SECONDS", "GATEWAY_POLL_SECONDS", "GATEWAY_PENDING_TIMEOUT_SECONDS"),
            "Degraded after the grace; health polling while Provisioning (not while only the workloads are awaited and a live cluster watcher watches them: it wakes the pass); when a `pending-*` release counts as stuck",
        ),
        (
            ("GATEWAY_LEASE_SECONDS",),
            "one pass per gateway at a time: the pass's lease, renewed every third of it while helm runs; a killed worker's lease lapses after this",
        ),
        (
            ("GATEWAY_POD_SECURITY",),
            'the Pod Security level (`pod-security.kubernetes.io/enforce`) the control plane sets on gateway namespaces of Kubernetes clusters: `baseline`, `restricted`, `privileged`, or `none` for no label (the cluster\'s default applies). See "On real clusters"',
        ),
        (
            ("GATEWAY_IMAGE_OVERRIDES", "GATEWAY_IMAGE_REPOSITORIES", "GATEWAY_IMAGE_REQUIRE_DIGEST"),
            "the platform's image policy (a cluster's `image_policy` replaces it there): whether tenants may override their release's images (`deny` or `allow`), from which repositories (comma-separated: exact, a prefix ending in `/`, or `*`; required with `allow`), and whether an override must be pinned by digest. Anything unusable fails start-up naming the variable. See Images and the image policy",
        ),
        (
            ("RELEASES_REQUIRE_SIGNATURES",),
            "refuse any new gateway release without a `signature_policy` (cosign public keys): the worker then verifies every new release's chart and images before it is Ready, and its gateways run the digests it verified. Releases made before keep working. See Verified releases",
        ),
        (
            ("GATEWAY_DRIFT_DETECTION",),
            "compare each deployed release's manifest with the cluster (Services, ServiceAccounts, ConfigMaps, NetworkPolicies, Roles, RoleBindings, GRPCRoutes, Routes, Certificates, StatefulSets, Deployments of the release; Secrets, Jobs and cluster-scoped objects are not compared): `enabled` reports drift in the `Drifted` condition and a `DriftDetected` event and repairs it with `helm upgrade`; `warn` only reports it; `disabled` compares nothing (a missing workload or namespace is still repaired in every mode). Anything else fails start-up",
        ),
    ),
    "Fleet and clusters": (
        (
            ("GATEWAY_CLUSTER_CONCURRENCY",),
            "passes (so helm processes) running at once on one cluster, across all workers; the rest wait their turn without holding a worker slot",
        ),
        (
            ("FLEET_MEMO_GATEWAYS",),
            "gateways whose decoded Helm record and drift verdicts each worker process remembers between fleet resyncs; set it at or above the fleet's size (the memory this takes is in docs/operators/scale.md), else resyncs read and compare again what did not change",
        ),
        (
            ("GATEWAY_TENANT_QUEUES",),
            "tenant queues that gateway passes are spread over by owner id (owner id modulo this), so one tenant's burst does not delay the others (see Fleet scale, fair to every tenant); give every process (API, workers, watcher, beat) the same value",
        ),
        (
            ("GATEWAY_CLUSTER_POOL_PERCENT",),
            "the share of one worker's pool slots (`--concurrency`) one cluster's passes may hold, rounded down, at least one; counted per worker, so a slow cluster leaves the rest of every worker to the others. `100` turns it off; so does a fleet of one cluster, and a worker of one slot reserves nothing",
        ),
        (
            ("CLUSTER_API_CONCURRENCY",),
            "Kubernetes API requests in flight to one cluster (by API server URL), across all workers and watchers: counted in the cache's Redis (`CACHE_URL`); a request waits up to 30 s for a slot. Watch streams are not counted; helm's own requests are bounded by `GATEWAY_CLUSTER_CONCURRENCY`",
        ),
        (
            ("WATCHER_LEASE_SECONDS",),
            "a cluster-watcher replica's hold on each cluster it watches, renewed every third of it",
        ),
        (
            ("CLUSTER_PROBE_TIMEOUT_SECONDS",),
            "the probe's `/version` call; a probe that fails opens the cluster's circuit",
        ),
    ),
    "Periodic work (beat)": (
        (
            ("RESYNC_INTERVAL_SECONDS",),
            "beat's periodic cluster probe and fleet resync (the safety net; the watcher brings changes sooner)",
        ),
        (("ROLLOUT_INTERVAL_SECONDS",), "beat's rollout tick: each working rollout advances one step"),
        (
            ("ROLLOUT_ALLOW_SELF_APPROVAL",),
            "four eyes: a rollout's creator may approve its waves' plans only when `true`",
        ),
        (
            ("FLEET_SAMPLE_INTERVAL_SECONDS", "FLEET_SAMPLE_RETENTION_HOURS"),
            "beat's fleet sample for the console's plots: how many gateways each cluster has in each phase, one row per cluster per interval (a second run in the same interval, from a second beat say, writes nothing; a failed run is not retried, it leaves one gap); the same task deletes samples older than the retention",
        ),
    ),
    "Catalogs": (
        (
            ("CATALOG_STORE",),
            "where catalog content lives: `fs`, the directory `CATALOG_STORE_DIR`, or `s3`, a bucket (see Catalog content on S3); anything else fails start-up",
        ),
        (
            ("CATALOG_STORE_DIR",),
            "`fs`: the content store, and every API replica and worker must see the same directory; `s3`: only the worker's local scratch space for pulls",
        ),
        (("CATALOG_BASE_URL",), "public base of the content server, for `status.urls.base`"),
        (("CATALOG_MAX_LAYER_BYTES", "CATALOG_MAX_UNPACKED_BYTES"), "unpack limits; bigger images end Blocked"),
        (
            ("CATALOG_GC_GRACE_SECONDS", "CATALOG_GC_INTERVAL_SECONDS"),
            "unreferenced content is removed after the grace, on this period and at worker start; the same sweep checks every served entry (see Lost content)",
        ),
        (
            ("CATALOG_CONTENT_LOST_REQUEUE_SECONDS",),
            "served content found missing, truncated or corrupt (by a reader or the sweep) queues at most one reconcile per catalog and digest per this period (a `SET NX` with this TTL in the shared cache); a loss that outlives it is queued again",
        ),
        (("CATALOG_HISTORY_LIMIT",), "content switches remembered per catalog (for diffs); the GC keeps their content"),
        (
            ("CATALOG_REGISTRY_TIMEOUT_SECONDS", "CATALOG_RETRY_AFTER_SECONDS", "CATALOG_GZIP_MIN_BYTES"),
            "registry calls; `Retry-After` on 503; gzip threshold",
        ),
        (
            (
                "CATALOG_GRAPHQL_MAX_BODY_BYTES",
                "CATALOG_GRAPHQL_MAX_QUERY_BYTES",
                "CATALOG_GRAPHQL_MAX_DEPTH",
                "CATALOG_GRAPHQL_MAX_COST",
            ),
            "GraphQL limits, each a 400 when crossed (the standard introspection query is 15 deep and costs about 40,000)",
        ),
        (
            ("CATALOG_GRAPHQL_MAX_PAGE", "CATALOG_GRAPHQL_MAX_OFFSET", "CATALOG_GRAPHQL_SCHEMAS_CACHED"),
            "the largest `limit` and `offset` of a root field; schemas kept per process (by content digest)",
        ),
    ),
    "Catalog content on S3": (
        (("CATALOG_S3_BUCKET", "CATALOG_S3_PREFIX"), "the bucket (it must exist) and a key prefix inside it"),
        (
            ("CATALOG_S3_ENDPOINT_URL", "CATALOG_S3_REGION", "CATALOG_S3_ADDRESSING_STYLE"),
            "an `http(s)://` endpoint for S3-compatible storage (MinIO, Ceph RGW); `path` for endpoints without per-bucket host names",
        ),
        (
            ("AWS_REGION", "AWS_DEFAULT_REGION"),
            "the region when `CATALOG_S3_REGION` is unset, in this order; else `us-east-1`",
        ),
        (
            ("CATALOG_S3_ACCESS_KEY_ID", "CATALOG_S3_SECRET_ACCESS_KEY"),
            "the bucket's credentials, as a pair (one without the other fails start-up); with neither pair set, boto3's own chain applies (web identity, instance profile); never logged",
        ),
        (
            ("AWS_ACCESS_KEY_ID", "AWS_SECRET_ACCESS_KEY"),
            "the bucket's credentials when the `CATALOG_S3_*` pair is unset; also a pair",
        ),
        (
            ("CATALOG_S3_VERIFY_TLS", "CATALOG_S3_CA_BUNDLE"),
            "TLS verification of an `https` endpoint, optionally against a CA bundle file; either with a plain `http` endpoint, or a bundle with verification off, fails start-up. Any `CATALOG_S3_*` set with `CATALOG_STORE=fs` fails start-up too",
        ),
    ),
    "API": (
        (
            ("API_THROTTLE_USER_RATE", "API_THROTTLE_ANON_RATE"),
            "per-token and per-address limits over a sliding window (two counters in Redis per client, shared by every replica); excess gets 429 with `Retry-After`",
        ),
        (("API_MAX_BODY_BYTES",), "larger request bodies get 413"),
        (
            ("API_EXACT_COUNT_LIMIT",),
            "lists count exactly below this many (estimated) rows; above, `count` is PostgreSQL's estimate",
        ),
        (
            ("API_COUNT_CACHE_SECONDS",),
            "how long a process reuses a list's count estimate, and the exact count that a page in the back half of a large list needs; `0` asks every time",
        ),
        (
            ("API_TOKEN_CACHE_SECONDS",),
            "how long a process remembers a valid token; deleting a token or changing its user acts at once in that process, and within this time in the others; `0` looks it up every time",
        ),
    ),
    "Notifications": (
        (
            ("NOTIFICATIONS_ALLOW_PRIVATE_ADDRESSES",),
            "let receivers reach loopback, private, link-local and unique-local addresses (and use http://); tests and single-tenant installs only. See Notifications",
        ),
        (
            ("NOTIFICATIONS_ALLOWED_NETWORKS",),
            "comma-separated CIDRs receivers may reach whatever their class (one internal relay, say); a malformed one fails start-up",
        ),
        (("NOTIFICATIONS_ALLOW_HTTP",), "allow `http://` receiver URLs (otherwise `https://` only)"),
        (
            ("NOTIFICATIONS_TIMEOUT_SECONDS", "NOTIFICATIONS_MAX_REDIRECTS"),
            "per request (hop); redirects followed, each checked",
        ),
        (
            ("NOTIFICATIONS_RETRY_BASE_SECONDS", "NOTIFICATIONS_RETRY_CAP_SECONDS", "NOTIFICATIONS_MAX_ATTEMPTS"),
            "delivery backoff: 10 s doubling up to 10 min, 8 attempts in all",
        ),
        (
            ("NOTIFICATIONS_SWEEP_SECONDS",),
            "beat's sweep: dispatch leftover events, resend overdue and abandoned deliveries",
        ),
        (("NOTIFICATIONS_LINK_BASE_URL",), "the API's public base for the payloads' `link`"),
    ),
    "Metrics": (
        (
            ("PROMETHEUS_MULTIPROC_DIR",),
            "an existing directory shared by the API and worker processes of a host; see Metrics",
        ),
    ),
}
