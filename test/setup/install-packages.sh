#!/bin/sh
# Installs the Debian packages whose binaries the tests start themselves. Run by `npm test`
# (the `pretest` script); run it by hand (as root, or with password-less sudo) after a failure.
#   chromium       test/e2e/web.test.ts drives it through playwright-core (which never downloads a browser here)
#   prometheus     test/stats-prometheus.test.ts runs it on loopback with a temporary config and storage
#   redis-server   test/rate-limit-redis.test.ts runs it on loopback on a free port, without persistence
#
# Idempotent: installs only the packages whose binary is missing (CHROMIUM_BIN, PROMETHEUS_BIN and
# REDIS_SERVER_BIN say where to look instead of /usr/bin). The packages' own services are never
# started: a policy-rc.d that denies service starts is in place for the install (only when none
# exists), so this works in containers without systemd and where no system daemon may appear.
# When it cannot install, it says what to run and exits 0: the tests that need a binary fail and say so.
set -eu

MISSING=""
need() { # <package> <binary>
  if [ ! -x "$2" ]; then MISSING="$MISSING $1"; fi
}
need chromium "${CHROMIUM_BIN:-/usr/bin/chromium}"
need prometheus "${PROMETHEUS_BIN:-/usr/bin/prometheus}"
need redis-server "${REDIS_SERVER_BIN:-/usr/bin/redis-server}"
if [ -z "$MISSING" ]; then
  exit 0
fi

HOWTO="apt-get install -y --no-install-recommends$MISSING"
if ! command -v apt-get >/dev/null 2>&1; then
  echo "install-packages: missing$MISSING and apt-get is not available; install them yourself and set the *_BIN variables above (the tests that need them fail without them)" >&2
  exit 0
fi

SUDO=""
if [ "$(id -u)" != "0" ]; then
  if command -v sudo >/dev/null 2>&1 && sudo -n true 2>/dev/null; then
    SUDO="sudo -n"
  else
    echo "install-packages: missing$MISSING and this user cannot run apt-get (not root, no password-less sudo); run: sudo $HOWTO" >&2
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

echo "install-packages: installing Debian's$MISSING for the tests" >&2
$SUDO env DEBIAN_FRONTEND=noninteractive apt-get update -qq
# shellcheck disable=SC2086 # one word per package
$SUDO env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends $MISSING >/dev/null
