#!/usr/bin/env bash
# The machine packages the test suites need beyond Node: Chromium (console and payer pages),
# PostgreSQL and its client (the second pass of every suite), nginx (the deploy rehearsal's
# balancer). As root they are installed from Debian when missing; otherwise the one line that
# installs them is printed and the run stops, so a fresh machine never fails halfway through.
set -euo pipefail
PACKAGES=(chromium postgresql postgresql-client nginx)
missing=()
for package in "${PACKAGES[@]}"; do dpkg -s "$package" >/dev/null 2>&1 || missing+=("$package"); done
[ ${#missing[@]} -eq 0 ] && exit 0
if [ "$(id -u)" -ne 0 ]; then
  echo "missing system packages; install them first: sudo apt-get install -y ${missing[*]}" >&2
  exit 1
fi
echo "installing ${missing[*]}"
apt-get update -qq
DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "${missing[@]}" >/dev/null
