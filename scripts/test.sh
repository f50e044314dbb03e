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

# Runs one server suite in the background, its output in a log file and its exit status and duration in small files.
start_server_suite() {
  local mode=$1
  (
    begin=$SECONDS
    status=0
    # shellcheck disable=SC2046
    bash scripts/test-server.sh "$mode" $(vitest_json "server-$mode") >"$REPORTS/server-$mode.log" 2>&1 || status=$?
    echo "$status $((SECONDS - begin))" >"$REPORTS/server-$mode.result"
  ) &
}

finish_server_suite() {
  local mode=$1 name=$2 pid=$3 status seconds
  wait "$pid" || true
  echo
  echo "==> $name"
  cat "$REPORTS/server-$mode.log"
  read -r status seconds <"$REPORTS/server-$mode.result" || { status=1; seconds=0; }
  record_step "$name" "$status" "$seconds" "$REPORTS/server-$mode.json"
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

run_step "lint" "" eslint --max-warnings 0 .
run_step "typecheck" "" typecheck
# shellcheck disable=SC2046
run_step "unit + web tests" "$REPORTS/unit.json" vitest run --project unit --project web $(vitest_json unit)
# The two server suites run side by side: each keeps about one core busy at most (one Node process plus one database
# backend, files one after another), so together they use the two cores instead of taking turns.
echo
echo "==> server tests on PGlite and PostgreSQL 15, side by side (output follows when each ends)"
start_server_suite pglite
pglite_pid=$!
start_server_suite postgres
postgres_pid=$!
finish_server_suite pglite "server tests (PGlite)" "$pglite_pid"
finish_server_suite postgres "server tests (PostgreSQL 15)" "$postgres_pid"
run_step "server build" "" build_server
run_step "web build" "" build_web
run_step "e2e (Playwright, Chromium)" "$REPORTS/e2e.json" e2e

total=$((SECONDS - STARTED))
echo
echo "==================== Summary ===================="
printf '%s\n' "${STEP_LINES[@]}"
printf '  total %dm%02ds\n' $((total / 60)) $((total % 60))
echo
echo "$PASSED passed, $FAILED failed"
exit "$OVERALL"
