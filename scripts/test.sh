#!/usr/bin/env bash
# Every test: static checks, unit tests, the build, the OpenAPI lint, then the end-to-end suites
# and the fast pass of the fault tests on the embedded database and again on PostgreSQL, and the
# fast pass of the deploy rehearsal (the Dockerfile's image from this build, compose's topology
# behind nginx). PGlite is PostgreSQL's own engine, so the pages (console, payer) and the acquirer
# faults, which differ in nothing but the connection pool, run on one of the two; the kill -9
# passes and the HTTP interface's money paths run on both; its protocol specs (tokens, headers,
# validation, the document, attacks) on PostgreSQL. (npm run test:reliability runs the long
# versions, and the rest on the other database.) It sets up a fresh machine
# first: the system packages (scripts/system-packages.sh) and the machine's PostgreSQL, unless
# E2E_DATABASE_URL and E2E_DATABASE_URL_ASYNC name servers.
set -euo pipefail
cd "$(dirname "$0")/.."

step() { printf '\n== %s\n' "$*"; }
# The services' logs of one pass (the next pass starts them afresh), kept for CI.
keep_logs() {
  mkdir -p ".data/test-logs/$1"
  for log in .data/e2e-*/service.log .data/reliability-*/*.log .data/rehearsal-*/*.log; do
    [ -f "$log" ] && cp "$log" ".data/test-logs/$1/$(basename "$(dirname "$log")")-$(basename "$log")"
  done
  return 0
}
# Playwright empties test-results/ at each run: one pass's screenshots (the pages' and those of
# failed tests) are copied out, with their test folders, for CI to keep like the logs.
keep_screenshots() {
  rm -rf ".data/test-artifacts/$1" && mkdir -p ".data/test-artifacts/$1"
  [ -d test-results ] && (cd test-results && find . -name '*.png' -exec cp --parents {} "../.data/test-artifacts/$1/" \;)
  return 0
}

step "runtime";              node -e "import('./src/server/platform/runtime.mjs').then((m) => m.checkRuntime('npm test'))"
step "system packages";      bash scripts/system-packages.sh
step "PostgreSQL";           E2E_DATABASE_URL=${E2E_DATABASE_URL:-$(bash scripts/local-postgres.sh pay_test || true)}
E2E_DATABASE_URL_ASYNC=${E2E_DATABASE_URL_ASYNC:-$(bash scripts/local-postgres.sh pay_test_async || true)}
if [ -z "$E2E_DATABASE_URL" ] || [ -z "$E2E_DATABASE_URL_ASYNC" ]; then
  echo "no PostgreSQL: run as root (it is started for you) or set E2E_DATABASE_URL and E2E_DATABASE_URL_ASYNC" >&2
  exit 1
fi
step "prisma client";        npm run --silent db:generate
step "typecheck";            npm run --silent typecheck
step "lint";                 npm run --silent lint
step "format";               npm run --silent format:check
step "unit tests";           npm run --silent test:unit
step "build";                npm run --silent build
step "sdk build";            npm run --silent sdk:build
step "openapi lint";         npm run --silent lint:openapi

step "end-to-end suites on embedded PGlite (the protocol's specs, which no database changes, run on PostgreSQL below)"
E2E_SKIP_DATABASE_AGNOSTIC=true E2E_DATABASE_URL= E2E_DATABASE_URL_ASYNC= npx playwright test || { keep_screenshots pglite; exit 1; }
keep_screenshots pglite
step "faults on PGlite: kill -9 during charges, card saves, failover, challenges and deliveries, a stop during charges (fast pass)"
RELIABILITY_DATABASE_URL= npx vitest run --config vitest.reliability.config.ts kill-during stop-during
keep_logs pglite

for url in "$E2E_DATABASE_URL" "$E2E_DATABASE_URL_ASYNC"; do
  psql "$url" -q -c 'DROP SCHEMA IF EXISTS public CASCADE; CREATE SCHEMA public;'
done
step "PostgreSQL: workers side by side, their callback outcomes in the metrics, shared rate limits, listing plans at scale"
TEST_DATABASE_URL="$E2E_DATABASE_URL_ASYNC" npx vitest run --config vitest.postgres.config.ts
psql "$E2E_DATABASE_URL_ASYNC" -q -c 'DROP SCHEMA IF EXISTS public CASCADE; CREATE SCHEMA public;'
step "end-to-end suites of the HTTP interface on PostgreSQL"
E2E_DATABASE_URL="$E2E_DATABASE_URL" E2E_DATABASE_URL_ASYNC="$E2E_DATABASE_URL_ASYNC" npx playwright test --project api --project async \
  || { keep_screenshots postgres; exit 1; }
keep_screenshots postgres
psql "$E2E_DATABASE_URL_ASYNC" -q -c 'DROP SCHEMA IF EXISTS public CASCADE; CREATE SCHEMA public;'
step "faults on PostgreSQL: acquirer outage, slow and flaky over HTTP; kill -9 of the service and of the worker; a restart of PostgreSQL; two instances (fast pass)"
RELIABILITY_DATABASE_URL="$E2E_DATABASE_URL_ASYNC" npx vitest run --config vitest.reliability.config.ts
step "deploy rehearsal (fast pass): the image from this build, compose's two instances and worker behind nginx"
REHEARSAL_DATABASE_URL="$E2E_DATABASE_URL_ASYNC" npm run --silent rehearse:deploy -- --reuse-build
keep_logs postgres
