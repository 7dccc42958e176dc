#!/usr/bin/env bash
# Installs the workspace exactly as the lockfile says, with the pinned pnpm (no global install needed),
# on Node 22 (scripts/node22 brings it when the machine's node is another version).
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/node22
export COREPACK_ENABLE_STRICT=0
npx --yes pnpm@12.4.2 install --frozen-lockfile
