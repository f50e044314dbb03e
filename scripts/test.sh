#!/usr/bin/env bash
# The whole check, as CI runs it: system packages, lint, typecheck, unit and web tests, server integration tests on
# PGlite and on PostgreSQL 15, the server and web builds and the end-to-end tests. Every step runs even after a failure
# so the summary shows everything that is broken; any failure makes the script fail.
set -euo pipefail
cd "$(dirname "$0")/.."
export PATH="$PWD/node_modules/.bin:$PATH"

CHROMIUM=/usr/bin/chromium
PG_BIN=/usr/lib/postgresql/15/bin

ensure_system_packages() {
  local missing=()
  [ -x "$CHROMIUM" ] || missing+=(chromium)
  { [ -x "$PG_BIN/initdb" ] && [ -x "$PG_BIN/postgres" ] && [ -x "$PG_BIN/pg_ctl" ]; } || missing+=(postgresql-15)
  # Local targets of the health checkers' tests.
  command -v redis-server >/dev/null 2>&1 || missing+=(redis-server)
  command -v ping >/dev/null 2>&1 || missing+=(iputils-ping)
  command -v openssl >/dev/null 2>&1 || missing+=(openssl)
  command -v git >/dev/null 2>&1 || missing+=(git)
  [ ${#missing[@]} -eq 0 ] && return 0
  local sudo=()
  if [ "$(id -u)" != 0 ]; then
    if command -v sudo >/dev/null 2>&1; then
      sudo=(sudo)
    else
      echo "The tests need the Debian packages: ${missing[*]}. Run as root, or install sudo, or install them first." >&2
      exit 1
    fi
  fi
  echo "==> installing Debian packages: ${missing[*]}"
  "${sudo[@]}" apt-get update
  "${sudo[@]}" env DEBIAN_FRONTEND=noninteractive apt-get install -y "${missing[@]}"
}

ensure_system_packages

REPORTS=$(mktemp -d "${TMPDIR:-/tmp}/opsdeck-test.XXXXXX")
trap 'rm -rf "$REPORTS"' EXIT

STEP_LINES=()
PASSED=0
FAILED=0
OVERALL=0
STARTED=$SECONDS

# record_step NAME STATUS SECONDS REPORT: REPORT is the JSON report (Vitest or Playwright) the step wrote, or "" for
# steps without tests. A step that fails without reporting a failed test (lint, typecheck, build, a crash, an error
# outside any test) counts as one failure, so the final line can never say "0 failed" for a broken run.
record_step() {
  local name=$1 status=$2 seconds=$3 report=$4 passed=0 failed=0 counts=""
  if [ -n "$report" ]; then
    counts=$(node scripts/lib/count-results.mjs "$report")
    if [ -n "$counts" ]; then
      read -r passed failed <<<"$counts"
    fi
  fi
  if [ "$status" -ne 0 ] && [ "$failed" -eq 0 ]; then
    failed=1
  fi
  PASSED=$((PASSED + passed))
  FAILED=$((FAILED + failed))
  local result=ok detail=""
  if [ "$status" -ne 0 ]; then
    result=FAILED
    OVERALL=1
  fi
  [ -n "$counts" ] && detail="$passed passed, $failed failed"
  STEP_LINES+=("$(printf '  %-7s %-30s %5ss  %s' "$result" "$name" "$seconds" "$detail")")
}

# run_step NAME REPORT COMMAND...
run_step() {
  local name=$1 report=$2
  shift 2
  echo
  echo "==> $name"
  local begin=$SECONDS status=0
  "$@" || status=$?
  record_step "$name" "$status" $((SECONDS - begin)) "$report"
}

# run_in_background NAME COMMAND...: like run_step, but in the background; finish_background reports it.
run_in_background() {
  local name=$1
  shift
  (
    begin=$SECONDS
    status=0
    "$@" >"$REPORTS/$name.log" 2>&1 || status=$?
    echo "$status $((SECONDS - begin))" >"$REPORTS/$name.result"
  ) &
}

# finish_background NAME TITLE PID [REPORT]
finish_background() {
  local name=$1 title=$2 pid=$3 report=${4:-} status seconds
  wait "$pid" || true
  echo
  echo "==> $title"
  cat "$REPORTS/$name.log"
  read -r status seconds <"$REPORTS/$name.result" || { status=1; seconds=0; }
  record_step "$title" "$status" "$seconds" "$report"
}

typecheck() {
  local status=0 project
  for project in packages/shared apps/server apps/web e2e; do
    echo "tsc -p $project"
    tsc -p "$project" || status=1
  done
  return "$status"
}

SERVER_BUILT=0
build_server() {
  node scripts/build-server.mjs && SERVER_BUILT=1
}

WEB_BUILT=0
build_web() {
  npm run build -w apps/web && WEB_BUILT=1
}

e2e() {
  if [ "$SERVER_BUILT" != 1 ] || [ "$WEB_BUILT" != 1 ]; then
    echo "Skipping the end-to-end tests: the server or web build failed" >&2
    return 1
  fi
  E2E_JSON_REPORT="$REPORTS/e2e.json" node scripts/e2e.mjs
}

vitest_json() {
  echo "--reporter=default" "--reporter=json" "--outputFile.json=$REPORTS/$1.json"
}

# Lint and typecheck are single-threaded each: side by side they use both cores.
echo
echo "==> lint and typecheck, side by side (output follows when each ends)"
run_in_background lint eslint --max-warnings 0 .
lint_pid=$!
run_in_background typecheck typecheck
typecheck_pid=$!
finish_background lint "lint" "$lint_pid"
finish_background typecheck "typecheck" "$typecheck_pid"
# Two workers: Vitest's default in a run is one fewer than the cores, which on a 2-core machine left one core idle while
# the web tests (most of this step) wait on rendering, not on each other.
# shellcheck disable=SC2046
run_step "unit + web tests" "$REPORTS/unit.json" vitest run --project unit --project web --maxWorkers=2 $(vitest_json unit)
# The two server suites run side by side: each keeps about one core busy at most (one Node process plus one database
# backend, files one after another), so together they use the two cores instead of taking turns.
echo
echo "==> server tests on PGlite and PostgreSQL 15, side by side (output follows when each ends)"
# shellcheck disable=SC2046
run_in_background server-pglite bash scripts/test-server.sh pglite $(vitest_json server-pglite)
pglite_pid=$!
# shellcheck disable=SC2046
run_in_background server-postgres bash scripts/test-server.sh postgres $(vitest_json server-postgres)
postgres_pid=$!
# PostgreSQL 15 ends minutes before PGlite: the builds take the core it frees.
finish_background server-postgres "server tests (PostgreSQL 15)" "$postgres_pid" "$REPORTS/server-postgres.json"
run_step "server build" "" build_server
run_step "web build" "" build_web
finish_background server-pglite "server tests (PGlite)" "$pglite_pid" "$REPORTS/server-pglite.json"
run_step "e2e (Playwright, Chromium)" "$REPORTS/e2e.json" e2e

total=$((SECONDS - STARTED))
echo
echo "==================== Summary ===================="
printf '%s\n' "${STEP_LINES[@]}"
printf '  total %dm%02ds\n' $((total / 60)) $((total % 60))
echo
echo "$PASSED passed, $FAILED failed"
exit "$OVERALL"
