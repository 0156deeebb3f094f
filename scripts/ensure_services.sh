#!/usr/bin/env bash
# Make sure the local services the project needs answer on loopback; start (and, if missing,
# install from Debian's packages) what does not. Usage: scripts/ensure_services.sh redis [postgres] [chromium] ...
set -euo pipefail

answers() { timeout 2 bash -c ": </dev/tcp/127.0.0.1/$1" 2>/dev/null; }

wait_for() {
  local port=$1 name=$2
  for _ in $(seq 1 50); do answers "$port" && return 0; sleep 0.2; done
  echo "ensure_services: $name did not start on 127.0.0.1:$port" >&2
  return 1
}

apt_install() {
  if [ "$(id -u)" != 0 ]; then
    echo "ensure_services: $* is missing; install it (apt-get install $*) or run as root" >&2
    return 1
  fi
  apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "$@" >/dev/null
}

ensure_redis() {
  answers 6379 && return 0
  command -v redis-server >/dev/null || apt_install redis-server
  mkdir -p /tmp/controlplane-redis
  redis-server --daemonize yes --bind 127.0.0.1 --port 6379 --save "" --appendonly no \
    --dir /tmp/controlplane-redis --logfile /tmp/controlplane-redis/redis.log
  wait_for 6379 redis
}

ensure_postgres() {
  answers 5432 && return 0
  command -v pg_ctlcluster >/dev/null || apt_install postgresql
  local version
  version=$(ls /etc/postgresql | sort -V | tail -1)
  local hba="/etc/postgresql/$version/main/pg_hba.conf"
  # The test suite connects as postgres over loopback without a password (trust auth).
  if ! grep -q '^host all all 127.0.0.1/32 trust' "$hba"; then
    sed -i '1i host all all 127.0.0.1/32 trust\nhost all all ::1/128 trust' "$hba"
  fi
  pg_ctlcluster --skip-systemctl-redirect "$version" main start
  wait_for 5432 postgresql
}

# Not daemons: the catalog tests start their own registries; bench/catalogs.py starts its own nginx.
ensure_registry() {
  command -v docker-registry >/dev/null && command -v htpasswd >/dev/null && return 0
  apt_install docker-registry apache2-utils
}

ensure_nginx() {
  command -v nginx >/dev/null || [ -x /usr/sbin/nginx ] || apt_install nginx-light
}

# Headless browser tests: Debian's chromium and its matching chromedriver (never a downloaded browser).
ensure_chromium() {
  command -v chromium >/dev/null && command -v chromedriver >/dev/null && return 0
  apt_install chromium chromium-driver
}

# The chart's alert rules are checked and evaluated by promtool (Debian's prometheus package; its daemon is not run).
ensure_promtool() {
  command -v promtool >/dev/null || apt_install prometheus
}

# openapi-generator (from PyPI, the jar inside) runs on Debian's headless JRE.
ensure_java() {
  command -v java >/dev/null || apt_install default-jre-headless
}

for service in "$@"; do
  case "$service" in
    redis) ensure_redis ;;
    postgres) ensure_postgres ;;
    chromium) ensure_chromium ;;
    registry) ensure_registry ;;
    nginx) ensure_nginx ;;
    promtool) ensure_promtool ;;
    java) ensure_java ;;
    *) echo "ensure_services: unknown service $service" >&2; exit 2 ;;
  esac
done
