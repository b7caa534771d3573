#!/bin/sh
# Debian packages the test suite reads its output back with (Chromium for the journeys, pdftotext
# and pdftoppm for PDFs, zbarimg for QR codes, Java with Saxon and xmllint for the official e-invoice rules,
# promtool from prometheus for the /metrics output, docker.io to build and run the image, pgbouncer and
# postgresql-15 (initdb, pg_ctl) for the tests that put a pooler in front of Postgres or restart their own, nginx for the proxy storm, caddy for the Caddy example, wrk for the performance guard that npm test runs (bench/guard.ts)). Installed only when missing; nothing is downloaded
# from anywhere but Debian's package archive. Without root rights outside CI it says what is missing.
set -e
PACKAGES="chromium fonts-dejavu-core poppler-utils zbar-tools unzip openssl default-jre-headless libsaxonhe-java libxml2-utils prometheus docker.io pgbouncer postgresql-15 nginx caddy wrk"
missing=""
for p in $PACKAGES; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing="$missing $p"
done
[ -z "$missing" ] && exit 0
SUDO=""
if [ "$(id -u)" != "0" ]; then
  if command -v sudo >/dev/null 2>&1; then SUDO="sudo"; else
    echo "test tools missing:$missing (install them with apt-get)" >&2
    [ "$CI" = "true" ] && exit 1 || exit 0
  fi
fi
echo "installing Debian packages for the tests:$missing" >&2
$SUDO apt-get update -qq
DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq $missing >/dev/null
