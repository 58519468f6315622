#!/usr/bin/env bash
# Runs the given command with a throwaway PostgreSQL server and QUIZ_TEST_DATABASE_URL set.
# Uses Debian's postgresql package (installed with apt-get when missing and possible).
# Without PostgreSQL the command still runs; the tests marked `postgres` then skip.
set -u
if [ -n "${QUIZ_TEST_DATABASE_URL:-}" ]; then exec "$@"; fi

find_bin() { ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V | tail -n 1; }
PGBIN=$(find_bin)
if [ -z "$PGBIN" ] && command -v apt-get >/dev/null 2>&1 && [ "$(id -u)" = 0 ]; then
  echo "with-postgres: installing postgresql" >&2
  apt-get update -qq >/dev/null 2>&1 || true
  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq postgresql >/dev/null 2>&1 || true
  PGBIN=$(find_bin)
fi
if [ -z "$PGBIN" ]; then
  echo "with-postgres: no PostgreSQL here; the postgres tests will be skipped" >&2
  exec "$@"
fi

# The server's files in memory (/dev/shm, a tmpfs) when it has room: the tests make and drop a
# database for each PostgreSQL test, and on a disk each CREATE DATABASE spent 30-340 ms of
# kernel time writing its files (11 ms on a tmpfs). Nothing of it needs to outlive the run,
# and fsync is off either way. Elsewhere (no /dev/shm, or a small one, as in a container's
# default 64 MB) the files go to /tmp.
PARENT=/tmp
SHM_FREE_MB=$(df -Pm /dev/shm 2>/dev/null | awk 'NR == 2 {print $4}')
if [ -d /dev/shm ] && [ -w /dev/shm ] && [ "${SHM_FREE_MB:-0}" -ge 2048 ]; then PARENT=/dev/shm; fi
DIR=$(mktemp -d "$PARENT/quiz-pg.XXXXXX")
PORT=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
AS=()
if [ "$(id -u)" = 0 ]; then   # PostgreSQL refuses to run as root
  chown postgres "$DIR"
  AS=(runuser -u postgres --)
fi
cleanup() {
  "${AS[@]}" "$PGBIN/pg_ctl" -D "$DIR/data" -m immediate stop >/dev/null 2>&1
  rm -rf "$DIR"
}
trap cleanup EXIT
"${AS[@]}" "$PGBIN/initdb" -D "$DIR/data" -U quiz --auth=trust -E UTF8 >"$DIR/initdb.log" 2>&1 \
  || { echo "with-postgres: initdb failed:"; cat "$DIR/initdb.log"; exit 1; } >&2
"${AS[@]}" "$PGBIN/pg_ctl" -D "$DIR/data" -l "$DIR/server.log" -w -t 60 \
  -o "-p $PORT -k $DIR -c listen_addresses=127.0.0.1 -c fsync=off -c max_connections=200 -c max_wal_size=256MB" start >/dev/null \
  || { echo "with-postgres: server failed:"; cat "$DIR/server.log"; exit 1; } >&2
export QUIZ_TEST_DATABASE_URL="postgresql+psycopg://quiz@127.0.0.1:$PORT/postgres"
echo "with-postgres: PostgreSQL on port $PORT, its files in $PARENT" >&2
"$@"
