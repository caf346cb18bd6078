#!/usr/bin/env bash
# Starts the machine's PostgreSQL cluster if needed and prints the URL of the test database
# named by $1 (default pay_test), creating it. Needs root (as on these machines and in CI).
# Prints nothing and fails when there is no PostgreSQL.
set -euo pipefail
database=${1:-pay_test}
command -v pg_ctlcluster >/dev/null || exit 1
version=$(ls /etc/postgresql 2>/dev/null | sort -n | tail -1)
[ -n "$version" ] || exit 1
pg_ctlcluster --skip-systemctl-redirect "$version" main start >/dev/null 2>&1 || true
for _ in $(seq 1 30); do su postgres -c "pg_isready -q" && break; sleep 1; done
su postgres -c "psql -qtc \"SELECT 1 FROM pg_roles WHERE rolname='pay'\"" | grep -q 1 ||
  su postgres -c "psql -qc \"CREATE ROLE pay LOGIN SUPERUSER PASSWORD 'pay'\"" >/dev/null
su postgres -c "psql -qtc \"SELECT 1 FROM pg_database WHERE datname='$database'\"" | grep -q 1 ||
  su postgres -c "psql -qc 'CREATE DATABASE $database OWNER pay'" >/dev/null
echo "postgres://pay:pay@127.0.0.1:5432/$database"
