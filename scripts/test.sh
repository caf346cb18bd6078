#!/usr/bin/env bash
# Every test: static checks, unit tests, the build, the OpenAPI lint, then the API suite on
# the embedded database and again on PostgreSQL.
set -euo pipefail
cd "$(dirname "$0")/.."

step() { printf '\n== %s\n' "$*"; }

step "prisma client";        npm run --silent db:generate
step "typecheck";            npm run --silent typecheck
step "lint";                 npm run --silent lint
step "format";               npm run --silent format:check
step "unit tests";           npm run --silent test:unit
step "build";                npm run --silent build
step "openapi lint";         npm run --silent lint:openapi

step "API suite on embedded PGlite"
E2E_DATABASE_URL= npx playwright test

if [ -z "${E2E_DATABASE_URL:-}" ]; then
  E2E_DATABASE_URL=$(bash scripts/local-postgres.sh || true)
fi
if [ -n "${E2E_DATABASE_URL:-}" ]; then
  step "API suite on PostgreSQL"
  psql "$E2E_DATABASE_URL" -q -c 'DROP SCHEMA IF EXISTS public CASCADE; CREATE SCHEMA public;'
  E2E_DATABASE_URL="$E2E_DATABASE_URL" npx playwright test
else
  echo "PostgreSQL pass not run: no server (set E2E_DATABASE_URL, or install PostgreSQL locally)" >&2
  exit 1
fi
