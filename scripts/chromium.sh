#!/usr/bin/env bash
# The browser tests (test/e2e/web) drive Debian's Chromium with playwright-core, which downloads no browser.
# Installs the `chromium` package when /usr/bin/chromium is missing (CHROMIUM_PATH names another binary).
set -euo pipefail
if [ -n "${CHROMIUM_PATH:-}" ] || [ -x /usr/bin/chromium ]; then exit 0; fi
if [ "$(id -u)" = 0 ] && command -v apt-get > /dev/null; then
  apt-get update -qq
  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium > /dev/null
else
  echo "The browser tests need Chromium: apt-get install chromium (as root), or CHROMIUM_PATH=/path/to/chromium" >&2
  exit 1
fi
