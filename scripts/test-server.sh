#!/usr/bin/env bash
# Server integration tests against a real database.
#   scripts/test-server.sh [pglite|postgres|both] [extra vitest arguments]
# pglite runs on the embedded database; postgres starts a throw-away PostgreSQL 15 cluster for the run.
set -euo pipefail
cd "$(dirname "$0")/.."
export PATH="$PWD/node_modules/.bin:$PATH"

mode=${1:-both}
[ $# -gt 0 ] && shift
case "$mode" in
  pglite | postgres | both) ;;
  *)
    echo "usage: $0 [pglite|postgres|both] [vitest arguments]" >&2
    exit 2
    ;;
esac

run_pglite() {
  echo "==> server tests on PGlite"
  vitest run --project server "$@"
}

run_postgres() {
  # shellcheck source=scripts/pg15.sh
  source scripts/pg15.sh
  trap pg15_stop EXIT
  trap 'exit 130' INT TERM
  pg15_start
  echo "==> server tests on PostgreSQL 15"
  OPSDECK_TEST_DB=postgres OPSDECK_TEST_PG_URL="$PG15_URL" vitest run --project server "$@"
}

case "$mode" in
  pglite) run_pglite "$@" ;;
  postgres) run_postgres "$@" ;;
  both)
    status=0
    run_pglite "$@" || status=1
    run_postgres "$@" || status=1
    exit "$status"
    ;;
esac
