#!/usr/bin/env bash
# npm run test:reliability: the long versions of the proof suites (npm test runs their fast
# passes), on PGlite and on PostgreSQL:
# - the interface's protocol specs on PGlite (npm test runs them on PostgreSQL only);
# - attacks: forged and tampered tokens (jwt-attacks), brute force to 429 and bodies to 413
#   (abuse), hostile free text, the security headers, and the fuzz of every endpoint with 10,000
#   generated bad requests;
# - faults: acquirer A in outage, slow and flaky under 1,000 concurrent charges; kill -9 with
#   five kills each (the service during charges; the service's own worker, and on PostgreSQL the
#   standalone worker, during deliveries), four during charges that save cards, three during
#   failover and pending 3-D Secure challenges;
# - the console's and the payer pages' end-to-end suites on PostgreSQL;
# - several instances on PostgreSQL: two instances and a worker; a rolling release (an instance
#   of release R1, built from its commit in a worktree, beside one of this release, on a database
#   of its own); the deploy rehearsal (the Dockerfile from a clean build context: npm ci, npm run
#   build, npm prune; compose's two instances and worker behind nginx);
# - scale: 1,000,000 operations seeded into PostgreSQL and every refund filter and
#   operations-table query timed (p95 at most 50 ms, so the machine should be otherwise idle).
# It ends with the attacks on PostgreSQL, whose last word is the secrets scan of both services'
# logs and tables (Playwright's globalTeardown); every fault suite and the rehearsal scan theirs.
# PostgreSQL from RELIABILITY_DATABASE_URL or the machine's own server (scripts/local-postgres.sh,
# databases named from RELIABILITY_DB_PREFIX, pay_reliability by default).
set -euo pipefail
cd "$(dirname "$0")/.."

step() { printf '\n== %s\n' "$*"; }
empty() { PGOPTIONS=--client-min-messages=warning psql "$1" -q -c 'DROP SCHEMA IF EXISTS public CASCADE; CREATE SCHEMA public;'; }
PREFIX=${RELIABILITY_DB_PREFIX:-pay_reliability}
ATTACKS=(e2e/api/jwt-attacks.spec.ts e2e/api/abuse.spec.ts e2e/api/free-text.spec.ts
  e2e/console/security-headers.spec.ts e2e/api/fuzz/fuzz.spec.ts)

node -e "import('./src/server/platform/runtime.mjs').then((m) => m.checkRuntime('npm run test:reliability'))"
bash scripts/system-packages.sh
[ -f .next/BUILD_ID ] || { step "build"; npm run --silent build; }

step "attacks on PGlite: JWT attacks, brute force and oversized bodies, free text, security headers, 10,000 fuzz requests"
E2E_DATABASE_URL= E2E_DATABASE_URL_ASYNC= FUZZ_RUNS=10000 npx playwright test "${ATTACKS[@]}"
step "the interface's protocol specs on PGlite (npm test runs them on PostgreSQL)"
E2E_DATABASE_URL= E2E_DATABASE_URL_ASYNC= npx playwright test --project api \
  e2e/api/{authz,charges-validation,contract,oauth-clients,observability,openapi,openapi-examples,protocol,sdk,smoke,token}.spec.ts

step "faults on PGlite (five kills)"
RELIABILITY_FULL=true RELIABILITY_DATABASE_URL= npx vitest run --config vitest.reliability.config.ts

URL=${RELIABILITY_DATABASE_URL:-$(bash scripts/local-postgres.sh "$PREFIX" || true)}
E2E_URL=${RELIABILITY_E2E_DATABASE_URL:-$(bash scripts/local-postgres.sh "${PREFIX}_e2e" || true)}
E2E_URL_ASYNC=${RELIABILITY_E2E_DATABASE_URL_ASYNC:-$(bash scripts/local-postgres.sh "${PREFIX}_e2e_async" || true)}
if [ -z "$URL" ] || [ -z "$E2E_URL" ] || [ -z "$E2E_URL_ASYNC" ]; then
  echo "PostgreSQL part not run: no server (set RELIABILITY_DATABASE_URL, RELIABILITY_E2E_DATABASE_URL and RELIABILITY_E2E_DATABASE_URL_ASYNC, or install PostgreSQL)" >&2
  exit 1
fi

empty "$URL"
step "faults on PostgreSQL (five kills, the standalone worker's too) and two instances with a worker"
RELIABILITY_FULL=true RELIABILITY_DATABASE_URL="$URL" npx vitest run --config vitest.reliability.config.ts

ROLLOUT_URL=${RELIABILITY_ROLLOUT_DATABASE_URL:-$(bash scripts/local-postgres.sh "${PREFIX}_rollout")}
empty "$ROLLOUT_URL"
step "a rolling release on PostgreSQL: release R1 (attempts in flight as rows) beside this one (claims), R1 killed"
ROLLOUT_DATABASE_URL="$ROLLOUT_URL" npx vitest run --config vitest.reliability.config.ts rolling-release
empty "$ROLLOUT_URL"

step "deploy rehearsal: the Dockerfile from a clean build context, compose's instances and worker behind nginx"
REHEARSAL_DATABASE_URL="$URL" npm run --silent rehearse:deploy

empty "$URL"
step "scale: 1,000,000 operations over 8 merchants on PostgreSQL, every listing query at p95 <= 50 ms"
DATABASE_URL="$URL" npm run --silent seed:operations -- --create-merchants --count 1000000 \
  --merchant SCALE01,SCALE02,SCALE03,SCALE04,SCALE05,SCALE06,SCALE07,SCALE08 --prefix S-
DATABASE_URL="$URL" npm run --silent measure:scale -- --runs 30 --max-p95 50
empty "$URL"

empty "$E2E_URL"
empty "$E2E_URL_ASYNC"
step "the console's and the payer pages' end-to-end suites on PostgreSQL (npm test runs them on PGlite)"
E2E_DATABASE_URL="$E2E_URL" E2E_DATABASE_URL_ASYNC="$E2E_URL_ASYNC" npx playwright test --project console --project browser

empty "$E2E_URL"
empty "$E2E_URL_ASYNC"
step "attacks on PostgreSQL, then the secrets scan of both services' logs and tables"
E2E_DATABASE_URL="$E2E_URL" E2E_DATABASE_URL_ASYNC="$E2E_URL_ASYNC" FUZZ_RUNS=10000 npx playwright test "${ATTACKS[@]}"
