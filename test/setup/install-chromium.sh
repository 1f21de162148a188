#!/bin/sh
# Installs Debian's `chromium` package for test/e2e/web.test.ts, which drives it through
# playwright-core (executablePath /usr/bin/chromium; playwright never downloads a browser here).
#
# Idempotent: does nothing when the binary is already there (CHROMIUM_BIN, else /usr/bin/chromium).
# Exits non-zero when the browser is missing and cannot be installed, so `npm test` says why
# instead of the e2e test failing later.
set -eu

BIN="${CHROMIUM_BIN:-/usr/bin/chromium}"
if [ -x "$BIN" ]; then
  exit 0
fi

if ! command -v apt-get >/dev/null 2>&1; then
  echo "install-chromium: $BIN is missing and apt-get is not available; install Chromium yourself (Debian/Ubuntu: apt-get install chromium) and set CHROMIUM_BIN if it lives elsewhere (test/e2e/web.test.ts fails without it)" >&2
  exit 1
fi

SUDO=""
if [ "$(id -u)" != "0" ]; then
  if command -v sudo >/dev/null 2>&1 && sudo -n true 2>/dev/null; then
    SUDO="sudo -n"
  else
    echo "install-chromium: $BIN is missing and this user cannot run apt-get (not root, no password-less sudo); run: sudo apt-get install -y --no-install-recommends chromium" >&2
    exit 1
  fi
fi

echo "install-chromium: installing Debian's chromium package (for test/e2e/web.test.ts)" >&2
$SUDO env DEBIAN_FRONTEND=noninteractive apt-get update -qq
$SUDO env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends chromium >/dev/null

if [ ! -x "$BIN" ]; then
  echo "install-chromium: the install finished but $BIN is still missing" >&2
  exit 1
fi
"$BIN" --version 2>&1 | head -n 1 >&2
