#!/usr/bin/env bash
# Starts and stops the private PostgreSQL server the sql component's tests, the cluster tests
# and the benchmark talk to: Debian's PostgreSQL 15 as a plain process on 127.0.0.1 (initdb in
# a folder of its own, pg_ctl, no init scripts, no systemd), stopped by its PID.
# Usage: scripts/postgresql.sh start|stop|url
#   url: prints the libpq URL of the server (postgresql://postgres@127.0.0.1:PORT/postgres).
# Port $DROMEDARY_PG_PORT (25432); state (data, log, socket) in $DROMEDARY_PG_DIR
# (default /tmp/dromedary-postgresql). Installs the packages when missing (needs root).
# initdb and pg_ctl refuse to run as root: as root they run as the `postgres` user.
set -euo pipefail
DIR=${DROMEDARY_PG_DIR:-/tmp/dromedary-postgresql}
PORT=${DROMEDARY_PG_PORT:-25432}
BIN=/usr/lib/postgresql/15/bin

install_packages() {
  local missing=()
  for p in postgresql-15 postgresql-client-15 libpq-dev; do
    dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
  done
  [ ${#missing[@]} -eq 0 ] && return 0
  local sudo=""
  [ "$(id -u)" -ne 0 ] && sudo="sudo"
  DEBIAN_FRONTEND=noninteractive $sudo apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq --no-install-recommends "${missing[@]}"
}

as_owner() {
  if [ "$(id -u)" -eq 0 ]; then runuser -u postgres -- "$@"; else "$@"; fi
}

start() {
  install_packages
  stop > /dev/null 2>&1 || true
  rm -rf "$DIR"
  mkdir -p "$DIR"
  [ "$(id -u)" -eq 0 ] && chown postgres "$DIR"
  as_owner "$BIN/initdb" -D "$DIR/data" -U postgres --auth=trust -E UTF8 > "$DIR/initdb.log" 2>&1 ||
    { cat "$DIR/initdb.log" >&2; exit 1; }
  # fsync off: the tests need a server, not durability; max_connections for three instances'
  # pools, sessions and leases at once.
  as_owner "$BIN/pg_ctl" -D "$DIR/data" -l "$DIR/log" -w -t 60 \
    -o "-p $PORT -k $DIR -c listen_addresses=127.0.0.1 -c fsync=off -c max_connections=200" \
    start > /dev/null || { cat "$DIR/log" >&2; exit 1; }
  echo "PostgreSQL on 127.0.0.1:$PORT (data in $DIR/data)"
}

stop() {
  local pid_file="$DIR/data/postmaster.pid"
  [ -f "$pid_file" ] || return 0
  local pid
  pid=$(head -1 "$pid_file")
  kill -INT "$pid" 2>/dev/null || true  # fast shutdown
  for _ in $(seq 1 100); do
    kill -0 "$pid" 2>/dev/null || return 0
    sleep 0.1
  done
  kill -KILL "$pid" 2>/dev/null || true
}

case "${1:-}" in
  start) start ;;
  stop) stop ;;
  url) echo "postgresql://postgres@127.0.0.1:$PORT/postgres" ;;
  *) echo "usage: $0 start|stop|url" >&2; exit 2 ;;
esac
