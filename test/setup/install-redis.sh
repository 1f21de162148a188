#!/bin/sh
# Installs Debian's `redis-server` package for test/rate-limit-redis.test.ts, which runs the binary
# itself (on loopback, a free port, no persistence). Run by `npm test` (the `pretest` script).
#
# Idempotent: does nothing when the binary is already there (REDIS_SERVER_BIN, else /usr/bin/redis-server).
# The package's own service is never started: a policy-rc.d that denies service starts is put in
# place for the duration of the install (only when none exists), so this works in containers
# without systemd and on machines where a system Redis must not appear.
set -eu

BIN="${REDIS_SERVER_BIN:-/usr/bin/redis-server}"
if [ -x "$BIN" ]; then
  exit 0
fi

if ! command -v apt-get >/dev/null 2>&1; then
  echo "install-redis: $BIN is missing and apt-get is not available; install Redis yourself and set REDIS_SERVER_BIN (test/rate-limit-redis.test.ts will fail without it)" >&2
  exit 0
fi

SUDO=""
if [ "$(id -u)" != "0" ]; then
  if command -v sudo >/dev/null 2>&1 && sudo -n true 2>/dev/null; then
    SUDO="sudo -n"
  else
    echo "install-redis: $BIN is missing and this user cannot run apt-get (not root, no password-less sudo); run: sudo apt-get install -y --no-install-recommends redis-server" >&2
    exit 0
  fi
fi

POLICY=/usr/sbin/policy-rc.d
ADDED_POLICY=""
if [ ! -e "$POLICY" ]; then
  # 101 = "action not allowed": invoke-rc.d / deb-systemd-invoke then skip starting the service.
  $SUDO sh -c "printf '#!/bin/sh\nexit 101\n' > $POLICY && chmod 755 $POLICY"
  ADDED_POLICY=1
fi
cleanup() {
  if [ -n "$ADDED_POLICY" ]; then $SUDO rm -f "$POLICY"; fi
}
trap cleanup EXIT INT TERM

echo "install-redis: installing Debian's redis-server package (for test/rate-limit-redis.test.ts)" >&2
$SUDO env DEBIAN_FRONTEND=noninteractive apt-get update -qq
$SUDO env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends redis-server >/dev/null

if [ ! -x "$BIN" ]; then
  echo "install-redis: the install finished but $BIN is still missing" >&2
  exit 1
fi
"$BIN" --version 2>&1 | head -n 1 >&2
