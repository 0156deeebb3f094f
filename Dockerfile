# The control plane image: API (gunicorn), worker and beat share it; choose with the command.
#   API:    docker run IMAGE
#   worker: docker run IMAGE python -m celery -A controlplane worker -l INFO
#   beat:   docker run IMAGE python -m celery -A controlplane beat -l INFO -s /tmp/celerybeat-schedule
#   cluster watcher: docker run IMAGE python manage.py watch_clusters
# Metrics: give the API and worker containers one shared, emptied-at-start volume as PROMETHEUS_MULTIPROC_DIR.
FROM python:3.11.7-slim-bookworm

ENV PYTHONDONTWRITEBYTECODE=1 PYTHONUNBUFFERED=1 \
    HELM_BINARY=/opt/controlplane/.tools/helm HELM_HOME=/tmp/helm STATIC_ROOT=/opt/controlplane/build/static

WORKDIR /opt/controlplane
COPY requirements.txt ./
RUN pip install --no-cache-dir -r requirements.txt

# helm is installed by the same script as in development, and checked by sha256.
COPY scripts/install_helm.py scripts/
RUN python scripts/install_helm.py .tools

# tests/ and bench/ stay out (.dockerignore): the image installs the upstream chart from its OCI default.
COPY . .
# collectstatic needs settings; these build-time values are never used at run time.
RUN SECRET_KEY=build FIELD_ENCRYPTION_KEY=YnVpbGQtb25seS1rZXktbmV2ZXItdXNlZC1hdC1ydW4= \
    python manage.py collectstatic --noinput \
 && useradd --system --uid 10001 --home-dir /opt/controlplane controlplane

USER 10001
EXPOSE 8000
CMD ["python", "-m", "gunicorn", "controlplane.wsgi", "--bind", "0.0.0.0:8000", "--workers", "3", "--access-logfile", "-"]
