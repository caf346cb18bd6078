#!/usr/bin/env bash
# npm run test:reliability: the long versions of the proof suites (npm test runs their fast
# passes): the 10,000-request fuzz of every endpoint; kill -9 faults with five kills each, on
# PGlite and on PostgreSQL; two instances and a worker on PostgreSQL; 1,000,000 operations
# seeded into PostgreSQL and every refund filter and operations-table query timed (p95 at most
# 50 ms, so the machine should be otherwise idle). PostgreSQL from RELIABILITY_DATABASE_URL or the
# machine's own server (scripts/local-postgres.sh).
set -euo pipefail
cd "$(dirname "$0")/.."

step() { printf '\n== %s\n' "$*"; }

[ -f .next/BUILD_ID ] || { step "build"; npm run --silent build; }

step "fuzz: 10,000 generated bad requests on every endpoint"
FUZZ_RUNS=10000 npx playwright test --project=api e2e/api/fuzz.spec.ts

step "faults on PGlite (five kills)"
RELIABILITY_FULL=true RELIABILITY_DATABASE_URL= npx vitest run --config vitest.reliability.config.ts

URL=${RELIABILITY_DATABASE_URL:-$(bash scripts/local-postgres.sh pay_reliability || true)}
if [ -n "$URL" ]; then
  psql "$URL" -q -c 'DROP SCHEMA IF EXISTS public CASCADE; CREATE SCHEMA public;'
  step "faults and two instances on PostgreSQL (five kills)"
  RELIABILITY_FULL=true RELIABILITY_DATABASE_URL="$URL" npx vitest run --config vitest.reliability.config.ts
  psql "$URL" -q -c 'DROP SCHEMA IF EXISTS public CASCADE; CREATE SCHEMA public;'
  step "scale: 1,000,000 operations over 8 merchants on PostgreSQL, every listing query at p95 <= 50 ms"
  DATABASE_URL="$URL" npm run --silent seed:operations -- --create-merchants --count 1000000 \
    --merchant SCALE01,SCALE02,SCALE03,SCALE04,SCALE05,SCALE06,SCALE07,SCALE08 --prefix S-
  DATABASE_URL="$URL" npm run --silent measure:scale -- --runs 30 --max-p95 50
else
  echo "PostgreSQL part not run: no server (set RELIABILITY_DATABASE_URL or install PostgreSQL)" >&2
  exit 1
fi
