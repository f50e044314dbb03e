#!/usr/bin/env bash
# The whole check, as CI runs it: system packages, lint, typecheck, unit and web tests, server integration tests on
# PGlite and on PostgreSQL 15, the server and web builds and the end-to-end tests. The steps run in two lanes side by
# side, one per core (see below); every step runs even after a failure so the summary
# shows everything that is broken, and any failure makes the script fail. Each step's output is printed whole when it
# ends, under its name, its result and its time; scripts/test-summary.mjs then prints every step's time, the slowest
# test files and "N passed, M failed".
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
# The JSON reports stay until the summary has read them.
trap 'rm -rf "$REPORTS"' EXIT
STARTED=$SECONDS

# step SLUG NAME REPORT COMMAND...: runs COMMAND with its output in a log of its own, records "name, exit status,
# seconds, report" for the summary, then prints the log under one header. Lanes run side by side, so the output lock
# keeps one step's log from being cut into another's.
step() {
  local slug=$1 name=$2 report=$3 status=0 begin=$SECONDS result=ok
  shift 3
  echo "--> $name: started"
  "$@" >"$REPORTS/$slug.log" 2>&1 || status=$?
  local seconds=$((SECONDS - begin))
  printf '%s\t%s\t%s\t%s\n' "$name" "$status" "$seconds" "$report" >"$REPORTS/$slug.step"
  [ "$status" -eq 0 ] || result=FAILED
  {
    flock 9
    echo
    echo "==> $name: $result in ${seconds}s"
    cat "$REPORTS/$slug.log"
  } 9>"$REPORTS/output.lock"
  return "$status"
}

vitest_json() {
  echo "--reporter=default" "--reporter=json" "--outputFile.json=$REPORTS/$1.json"
}

# The shared package is built once (declarations only) and each app checks against it: `tsc -b` follows the project
# references, where `tsc -p` per project checked the shared sources again inside every app.
typecheck() {
  tsc -b --verbose apps/server apps/web e2e
}

skip_e2e() {
  echo "Skipping the end-to-end tests: the server or web build failed" >&2
  return 1
}

# The builds, the seeded template and server that scripts/e2e.mjs starts, then the specs in two Playwright workers, at a
# lower priority than the server suite beside them, whose tests have their own time limits, while the specs only wait
# longer on a busy machine.
e2e_steps() {
  local built=1
  step server-build "server build" "" node scripts/build-server.mjs || built=0
  step web-build "web build" "" npm run build -w apps/web || built=0
  if [ "$built" = 1 ]; then
    step e2e "e2e (Playwright, Chromium)" "$REPORTS/e2e.json" env E2E_JSON_REPORT="$REPORTS/e2e.json" nice -n 10 node scripts/e2e.mjs || true
  else
    step e2e "e2e (Playwright, Chromium)" "" skip_e2e || true
  fi
}

# The two server suites, the longest steps that cannot be split (one Node process each, test files one after another
# against one database): they start first, in a lane of their own, one core's worth of work. Every file runs on
# PostgreSQL; PGlite runs the files apps/server/test/pglite-suite.txt lists (ADR 0068): those that name the embedded
# engine, the job loops, and what the docs promise on both databases. PostgreSQL goes first, beside
# the short checks and the web tests: its statements run under the server's 15 s statement timeout, which the
# 5,000-component topology write passed twice beside the e2e specs' browsers (load about 11, even with the specs at
# nice 10); PGlite, which keeps no such timeout, runs beside the specs.
servers_lane() {
  # shellcheck disable=SC2046
  step server-postgres "server tests (PostgreSQL 15)" "$REPORTS/server-postgres.json" bash scripts/test-server.sh postgres $(vitest_json server-postgres) || true
  # shellcheck disable=SC2046
  step server-pglite "server tests (PGlite)" "$REPORTS/server-pglite.json" bash scripts/test-server.sh pglite $(node scripts/pglite-suite.mjs) $(vitest_json server-pglite) || true
}

# The short checks, the unit and web tests and then the end-to-end specs, on the other core: the server suites take
# about one core between them, so the specs start as soon as the web tests free the second one rather than after the
# server suites. The web tests wait on conditions with limits meant for a loaded machine (apps/web/src/test/setup.ts).
checks_lane() {
  step lint "lint" "" eslint --max-warnings 0 . || true
  step typecheck "typecheck" "" typecheck || true
  # shellcheck disable=SC2046
  step unit-web "unit + web tests" "$REPORTS/unit-web.json" vitest run --project unit --project web --maxWorkers=2 $(vitest_json unit-web) || true
  e2e_steps
}

servers_lane &
SERVERS_LANE=$!
checks_lane
wait "$SERVERS_LANE" || true

# The summary lists the steps in one fixed order, whatever order they ended in; a step that recorded nothing (its lane
# died) is a failure.
: >"$REPORTS/steps.tsv"
for slug in lint typecheck unit-web server-pglite server-postgres server-build web-build e2e; do
  if [ -f "$REPORTS/$slug.step" ]; then
    cat "$REPORTS/$slug.step" >>"$REPORTS/steps.tsv"
  else
    printf '%s\t1\t0\t\n' "$slug (recorded nothing)" >>"$REPORTS/steps.tsv"
  fi
done
node scripts/test-summary.mjs "$REPORTS/steps.tsv" $((SECONDS - STARTED))
