#!/usr/bin/env bash
# Installs the project on the Node it runs on, Node 24 LTS, on a machine that may have only an
# older Node and npm: the runtime comes from the npm registry (scripts/runtime/, pinned with its
# lock), then `npm ci` runs on it, so no dependency is installed for the wrong engine. The
# project's own devDependency on the same package puts it first on every npm script's PATH.
set -euo pipefail
cd "$(dirname "$0")/.."
RUNTIME=scripts/runtime
if [ "$(node -p 'process.versions.node.split(".")[0]')" -lt 24 ]; then
  echo "== Node $(node -v) here: installing Node 24 LTS from the npm registry ($RUNTIME)"
  npm ci --prefix "$RUNTIME" --no-audit --no-fund --loglevel=error
  export PATH="$PWD/$RUNTIME/node_modules/.bin:$PATH"
fi
echo "== npm ci on Node $(node -v)"
npm ci --no-audit --no-fund "$@"
