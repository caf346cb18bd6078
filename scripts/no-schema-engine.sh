#!/bin/sh
# Prisma's schema engine binary cannot be downloaded here; migrations use the wasm engine.
echo "Prisma's schema engine is not used in this project: use npm run db:migrate:create or npm run db:migrate:deploy" >&2
exit 1
