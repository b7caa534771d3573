#!/bin/sh
# Debian's Chromium drives the journeys; Playwright never downloads a browser.
set -e
if [ -x /usr/bin/chromium ]; then exit 0; fi
echo "chromium missing: installing Debian's package" >&2
SUDO=""
if [ "$(id -u)" != "0" ]; then SUDO="sudo"; fi
$SUDO apt-get update -qq
DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq chromium fonts-dejavu-core >/dev/null
/usr/bin/chromium --version
