#!/usr/bin/env bash
# Installs the workspace exactly as the lockfile says, with the pinned pnpm (no global install needed).
set -euo pipefail
cd "$(dirname "$0")/.."
export COREPACK_ENABLE_STRICT=0
npx --yes pnpm@12.4.2 install --frozen-lockfile
