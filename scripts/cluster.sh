#!/usr/bin/env bash
# A local cluster as docs/DEPLOYMENT.md recommends: one PostgreSQL database (a throwaway
# server, or the one QUIZ_DATABASE_URL names), K app servers, and HAProxy in front of them
# (scripts/haproxy.cfg.in: sticky sessions by cookie, health checks on /_stcore/health,
# websocket timeouts for long-lived streams). Everything listens on 127.0.0.1 only.
#
#   scripts/cluster.sh up               start it and wait until every part is healthy (make cluster)
#   scripts/cluster.sh down             stop everything `up` started (make cluster-down)
#   scripts/cluster.sh status           what runs, and HAProxy's view of the servers
#   scripts/cluster.sh ensure-haproxy   install Debian's haproxy when missing
#
# Settings (environment):
#   CLUSTER_SERVERS=2               app servers
#   CLUSTER_PORT=8500               HAProxy's port (0: any free port)
#   CLUSTER_DIR=/tmp/quiz-cluster   logs, PID files, PostgreSQL's data, cluster.env (the state)
#   QUIZ_DATABASE_URL               use this database instead of starting a throwaway PostgreSQL
#   CLUSTER_PYTHON                  the interpreter of the servers (default: .venv/bin/python)
#   CLUSTER_START_TIMEOUT=180       seconds for everything to become healthy
# QUIZ_CONTENT_DIR and QUIZ_SUPERVISOR_PASSWORD are passed on to the servers when set.
#
# Exit codes: 0 done; 3 a part cannot be had on this machine (no haproxy or PostgreSQL, and
# no way to install it); 1 anything else.
set -euo pipefail

ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
DIR=${CLUSTER_DIR:-/tmp/quiz-cluster}
SERVERS=${CLUSTER_SERVERS:-2}
PORT=${CLUSTER_PORT:-8500}
PY=${CLUSTER_PYTHON:-$ROOT/.venv/bin/python}
START_TIMEOUT=${CLUSTER_START_TIMEOUT:-180}
STATE=$DIR/cluster.env

say() { echo "cluster: $*" >&2; }
die() { say "$*"; exit 1; }
unavailable() { say "$*"; exit 3; }

as_root() {  # run as root: directly, or through sudo without a password
  if [ "$(id -u)" = 0 ]; then "$@"
  elif command -v sudo >/dev/null 2>&1 && sudo -n true 2>/dev/null; then sudo -n "$@"
  else return 1
  fi
}

apt_install() {  # apt_install PACKAGE: Debian's package, installed when apt-get and root are there
  command -v apt-get >/dev/null 2>&1 || return 1
  say "installing $1"
  as_root apt-get update -qq >/dev/null 2>&1 || true
  as_root env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "$1" >/dev/null 2>&1
}

haproxy_bin() { command -v haproxy 2>/dev/null || { [ -x /usr/sbin/haproxy ] && echo /usr/sbin/haproxy; } || true; }
pg_bin() { ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V | tail -n 1; }
free_port() { "$PY" -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])'; }
alive() { [ -n "${1:-}" ] && kill -0 "$1" 2>/dev/null; }

ensure_haproxy() {
  if [ -z "$(haproxy_bin)" ]; then
    apt_install haproxy || true
  fi
  [ -n "$(haproxy_bin)" ] || unavailable "no haproxy here and it cannot be installed (apt-get install haproxy, as root)"
}

start_postgres() {  # a throwaway server in $DIR/pg; sets DATABASE_URL
  local bin port as=()
  bin=$(pg_bin)
  if [ -z "$bin" ]; then
    apt_install postgresql || true
    bin=$(pg_bin)
  fi
  [ -n "$bin" ] || unavailable "no PostgreSQL here and it cannot be installed (apt-get install postgresql, as root); or set QUIZ_DATABASE_URL"
  port=$(free_port)
  mkdir -p "$DIR/pg"
  if [ "$(id -u)" = 0 ]; then  # PostgreSQL refuses to run as root
    chown postgres "$DIR/pg"
    as=(runuser -u postgres --)
  fi
  "${as[@]}" test -w "$DIR/pg" || die "PostgreSQL's user cannot write $DIR/pg (a parent folder closed to it?): set CLUSTER_DIR"
  "${as[@]}" "$bin/initdb" -D "$DIR/pg/data" -U quiz --auth=trust -E UTF8 >"$DIR/pg-initdb.log" 2>&1 \
    || { cat "$DIR/pg-initdb.log" >&2; die "initdb failed"; }
  "${as[@]}" "$bin/pg_ctl" -D "$DIR/pg/data" -l "$DIR/pg/server.log" -w -t 60 \
    -o "-p $port -k $DIR/pg -c listen_addresses=127.0.0.1 -c max_connections=200" start >/dev/null \
    || { cat "$DIR/pg/server.log" >&2; die "PostgreSQL did not start"; }
  write_state CLUSTER_PG_OWNED=1 CLUSTER_PG_BIN="$bin" CLUSTER_PG_DATA="$DIR/pg/data"
  "$bin/createdb" -h 127.0.0.1 -p "$port" -U quiz -O quiz quiz || die "createdb failed"
  PG_BIN=$bin
  PG_OWNED=1
  DATABASE_URL="postgresql+psycopg://quiz@127.0.0.1:$port/quiz"
  say "PostgreSQL on 127.0.0.1:$port (throwaway, data in $DIR/pg)"
}

write_state() {  # KEY=VALUE lines, values in single quotes (readable by bash and by quizbench)
  : >"$STATE.tmp"
  local pair
  for pair in "$@"; do
    case "${pair#*=}" in *"'"*) die "a value with a quote: ${pair%%=*}";; esac
    printf "%s='%s'\n" "${pair%%=*}" "${pair#*=}" >>"$STATE.tmp"
  done
  mv "$STATE.tmp" "$STATE"
}

stop_pids() {  # stop_pids PID...: TERM to all at once, then KILL those left after 15 s
  local pid i left
  for pid in "$@"; do alive "$pid" && kill -TERM "$pid" 2>/dev/null || true; done
  for i in $(seq 150); do
    left=0
    for pid in "$@"; do alive "$pid" && left=1; done
    [ "$left" = 0 ] && return 0
    sleep 0.1  # polling the processes' exit, not waiting on a page
  done
  for pid in "$@"; do alive "$pid" && kill -KILL "$pid" 2>/dev/null || true; done
}

up() {
  if [ -f "$STATE" ]; then
    # shellcheck disable=SC1090
    . "$STATE"
    if alive "${CLUSTER_HAPROXY_PID:-}"; then say "already up: $CLUSTER_URL (scripts/cluster.sh down first)"; exit 0; fi
    die "$DIR holds a cluster that is not running: scripts/cluster.sh down first"
  fi
  [ -x "$PY" ] || die "no $PY: run make setup first"
  ensure_haproxy
  [ ! -e "$DIR" ] || [ -f "$DIR/.quiz-cluster" ] || [ -z "$(ls -A "$DIR")" ] \
    || die "$DIR exists and is not a cluster's folder: set CLUSTER_DIR to a new path"
  mkdir -p "$DIR"
  chmod 755 "$DIR"
  touch "$DIR/.quiz-cluster"  # the mark that lets `down` remove the folder
  # whatever fails from here on (die, exit 3, a failed command), stop what started
  trap 'rc=$?; if [ "$rc" != 0 ]; then say "start failed; stopping what started"; down >/dev/null 2>&1 || true; fi' EXIT
  PG_OWNED=0 PG_BIN=""
  if [ -n "${QUIZ_DATABASE_URL:-}" ]; then
    DATABASE_URL=$QUIZ_DATABASE_URL
    say "using the database of QUIZ_DATABASE_URL"
  else
    start_postgres
  fi
  # partial state from here on, so that `down` can stop what started if anything fails
  write_state CLUSTER_PG_OWNED="$PG_OWNED" CLUSTER_PG_BIN="$PG_BIN" CLUSTER_PG_DATA="$DIR/pg/data"

  local secret i port pids=() urls=() servers=()
  secret=$("$PY" -c 'import secrets; print(secrets.token_hex(32))')  # the same on every server
  for i in $(seq 1 "$SERVERS"); do
    port=$(free_port)
    (
      cd "$ROOT"
      export QUIZ_DATABASE_URL="$DATABASE_URL" STREAMLIT_SERVER_COOKIE_SECRET="$secret" PYTHONUNBUFFERED=1
      setsid "$PY" -m streamlit run app.py --server.port "$port" --server.address 127.0.0.1 \
        --server.headless true --browser.gatherUsageStats false --server.fileWatcherType none \
        </dev/null >"$DIR/app$i.log" 2>&1 &
      echo $! >"$DIR/app$i.pid"
    )
    pids+=("$(cat "$DIR/app$i.pid")")
    urls+=("http://127.0.0.1:$port")
    servers+=(--server "127.0.0.1:$port")
  done
  write_state CLUSTER_PG_OWNED="$PG_OWNED" CLUSTER_PG_BIN="$PG_BIN" CLUSTER_PG_DATA="$DIR/pg/data" \
    CLUSTER_APP_PIDS="${pids[*]}"
  local pid_args=()
  for i in "${pids[@]}"; do pid_args+=(--pid "$i"); done
  say "waiting for $SERVERS app servers (${urls[*]})"
  "$PY" -m quizbench.capacity wait-healthy "${urls[@]}" "${pid_args[@]}" --timeout "$START_TIMEOUT" \
    || { tail -n 30 "$DIR"/app*.log >&2; die "the app servers did not become healthy"; }

  local front stats
  if [ "$PORT" = 0 ]; then front=$(free_port); else front=$PORT; fi
  stats=$(free_port)
  "$PY" -m quizbench.capacity haproxy-config --port "$front" --stats-port "$stats" "${servers[@]}" \
    --output "$DIR/haproxy.cfg"
  "$(haproxy_bin)" -c -q -f "$DIR/haproxy.cfg" || die "HAProxy refused $DIR/haproxy.cfg"
  "$(haproxy_bin)" -D -p "$DIR/haproxy.pid" -f "$DIR/haproxy.cfg" || die "HAProxy did not start (port $front taken?)"
  write_state CLUSTER_URL="http://127.0.0.1:$front" CLUSTER_STATS_URL="http://127.0.0.1:$stats/stats" \
    CLUSTER_DATABASE_URL="$DATABASE_URL" CLUSTER_APP_URLS="${urls[*]}" CLUSTER_APP_PIDS="${pids[*]}" \
    CLUSTER_HAPROXY_PID="$(head -n 1 "$DIR/haproxy.pid")" CLUSTER_PG_OWNED="$PG_OWNED" CLUSTER_PG_BIN="$PG_BIN" \
    CLUSTER_PG_DATA="$DIR/pg/data" CLUSTER_DIR="$DIR"
  "$PY" -m quizbench.capacity wait-healthy "http://127.0.0.1:$front" --stats-url "http://127.0.0.1:$stats/stats" \
    --timeout "$START_TIMEOUT" || die "HAProxy did not see every server UP"
  trap - EXIT
  say "up: http://127.0.0.1:$front (HAProxy; stats http://127.0.0.1:$stats/stats) -> ${urls[*]}"
  say "state in $STATE; stop with: scripts/cluster.sh down (or make cluster-down)"
}

down() {
  [ -f "$STATE" ] || { say "nothing to stop in $DIR"; remove_dir; return 0; }
  # shellcheck disable=SC1090
  . "$STATE"
  local f pids=()
  if [ -f "$DIR/haproxy.pid" ]; then pids+=($(cat "$DIR/haproxy.pid")); fi
  for f in "$DIR"/app*.pid; do
    [ -f "$f" ] && pids+=("$(cat "$f")")
  done
  [ "${#pids[@]}" = 0 ] || stop_pids "${pids[@]}"  # HAProxy and every server at once
  if [ "${CLUSTER_PG_OWNED:-0}" = 1 ] && [ -d "${CLUSTER_PG_DATA:-}" ]; then
    local as=()
    [ "$(id -u)" = 0 ] && as=(runuser -u postgres --)
    "${as[@]}" "$CLUSTER_PG_BIN/pg_ctl" -D "$CLUSTER_PG_DATA" -m fast -w -t 30 stop >/dev/null 2>&1 \
      || "${as[@]}" "$CLUSTER_PG_BIN/pg_ctl" -D "$CLUSTER_PG_DATA" -m immediate stop >/dev/null 2>&1 || true
  fi
  remove_dir
  say "down"
}

remove_dir() {  # only a folder that `up` made (it holds the mark)
  if [ -f "$DIR/.quiz-cluster" ]; then rm -rf "$DIR"; fi
}

status() {
  [ -f "$STATE" ] || { say "not up ($DIR)"; return 1; }
  cat "$STATE"
  # shellcheck disable=SC1090
  . "$STATE"
  local pid
  for pid in ${CLUSTER_APP_PIDS:-}; do
    if alive "$pid"; then echo "app server $pid: running"; else echo "app server $pid: gone"; fi
  done
  if [ -n "${CLUSTER_STATS_URL:-}" ]; then
    "$PY" -c 'import sys; from quizbench.capacity.servers import haproxy_states; print(haproxy_states(sys.argv[1]))' \
      "$CLUSTER_STATS_URL" || true
  fi
}

case "${1:-}" in
  up) up ;;
  down) down ;;
  status) status ;;
  ensure-haproxy) ensure_haproxy; haproxy_bin ;;
  *) echo "usage: $0 up|down|status|ensure-haproxy" >&2; exit 2 ;;
esac
