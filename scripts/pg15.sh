# Sourced by scripts: starts a throw-away PostgreSQL 15 cluster and removes it again.
#   pg15_start   initdb in a temp dir, start on a free loopback port, set PG15_URL (superuser "postgres", trust auth)
#   pg15_stop    stop the server and delete the cluster; safe to call twice, meant for an EXIT trap

PG15_BIN=${PG15_BIN:-/usr/lib/postgresql/15/bin}
PG15_DIR=
PG15_URL=

_pg15_as_owner() {
  # initdb and postgres refuse to run as root, so root hands the cluster to the postgres system user.
  if [ "$(id -u)" = 0 ]; then
    runuser -u postgres -- "$@"
  else
    "$@"
  fi
}

_pg15_free_port() {
  node -e "const s = require('node:net').createServer(); s.listen(0, '127.0.0.1', () => { console.log(s.address().port); s.close(); });"
}

pg15_start() {
  if [ ! -x "$PG15_BIN/initdb" ]; then
    echo "PostgreSQL 15 server binaries not found in $PG15_BIN (Debian package postgresql-15)" >&2
    return 1
  fi
  PG15_DIR=$(mktemp -d /tmp/opsdeck-pg15.XXXXXX)
  if [ "$(id -u)" = 0 ]; then chown postgres: "$PG15_DIR"; fi
  local port
  port=$(_pg15_free_port)
  _pg15_as_owner "$PG15_BIN/initdb" -D "$PG15_DIR/data" -U postgres --auth=trust --encoding=UTF8 --no-locale \
    >"$PG15_DIR/initdb.log" 2>&1 || { cat "$PG15_DIR/initdb.log" >&2; return 1; }
  # Durability settings are off: the cluster lives for one test run and is deleted afterwards.
  _pg15_as_owner "$PG15_BIN/pg_ctl" -D "$PG15_DIR/data" -l "$PG15_DIR/server.log" -w -t 60 \
    -o "-p $port -k $PG15_DIR -c listen_addresses=127.0.0.1 -c fsync=off -c synchronous_commit=off -c full_page_writes=off" \
    start >/dev/null || { cat "$PG15_DIR/server.log" >&2; return 1; }
  PG15_URL="postgres://postgres@127.0.0.1:$port/postgres"
  echo "PostgreSQL $("$PG15_BIN/postgres" --version | awk '{print $3}') running at $PG15_URL (cluster in $PG15_DIR)"
}

pg15_stop() {
  if [ -n "$PG15_DIR" ] && [ -d "$PG15_DIR" ]; then
    _pg15_as_owner "$PG15_BIN/pg_ctl" -D "$PG15_DIR/data" -m immediate -w stop >/dev/null 2>&1 || true
    rm -rf "$PG15_DIR"
  fi
  PG15_DIR=
}
