#!/bin/sh
# The image's entrypoint: the first argument names the role, the rest is passed to its command.
#   entrypoint.sh [--dry-run] api|content|worker|beat|watcher|migrate [ARGS...]
# content is the slim catalog content server (controlplane.wsgi_content: no DRF, admin or Celery).
# --dry-run prints the command instead of running it. Tunables: PORT (8000), GUNICORN_WORKERS (3; content 1),
# GUNICORN_THREADS (content: 8 in its one process; its requests mostly wait on files and the database),
# LOG_LEVEL (INFO), CONTROLPLANE_STATE_DIR (/var/lib/controlplane: beat's schedule file lives there).
set -eu

usage() {
    echo "usage: $0 [--dry-run] api|content|worker|beat|watcher|migrate [ARGS...]" >&2
    exit 64
}

dry_run=""
if [ "${1:-}" = "--dry-run" ]; then
    dry_run=1
    shift
fi
[ "$#" -ge 1 ] || usage
role=$1
shift
state=${CONTROLPLANE_STATE_DIR:-/var/lib/controlplane}
level=${LOG_LEVEL:-INFO}

case "$role" in
    api) set -- python -m gunicorn controlplane.wsgi --bind "0.0.0.0:${PORT:-8000}" \
            --workers "${GUNICORN_WORKERS:-3}" --worker-tmp-dir /tmp --access-logfile - "$@" ;;
    content) set -- python -m gunicorn controlplane.wsgi_content --bind "0.0.0.0:${PORT:-8000}" \
            --workers "${GUNICORN_WORKERS:-1}" --threads "${GUNICORN_THREADS:-8}" --worker-class gthread \
            --worker-tmp-dir /tmp --access-logfile - "$@" ;;
    worker) set -- python -m celery -A controlplane worker -l "$level" "$@" ;;
    beat) set -- python -m celery -A controlplane beat -l "$level" -s "$state/celerybeat-schedule" "$@" ;;
    watcher) set -- python manage.py watch_clusters "$@" ;;
    migrate) set -- python manage.py migrate --noinput "$@" ;;
    *) usage ;;
esac

if [ -n "$dry_run" ]; then
    echo "$@"
    exit 0
fi
exec "$@"
