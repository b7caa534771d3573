#!/usr/bin/env bash
# Checks the README's promise on a fresh clone: `npm install && npm start` serves /health.
#   scripts/check-fresh-clone.sh [REPOSITORY]      (default: this repository)
# Clones into a temporary folder, starts einlass on a free port, waits for /health, stops it.
set -euo pipefail
repo="${1:-$(git -C "$(dirname "$0")/.." rev-parse --show-toplevel)}"
dir="$(mktemp -d)"
port="$(node -e "const s=require('net').createServer().listen(0,()=>{console.log(s.address().port);s.close()})")"
cleanup() {
  # npm start runs in its own process group (setsid): stop npm and the server it started
  if [ -n "${pid:-}" ]; then kill -TERM -- "-$pid" 2>/dev/null || true; wait "$pid" 2>/dev/null || true; fi
  rm -rf "$dir"
}
trap cleanup EXIT
git clone --quiet "$repo" "$dir/einlass"
cd "$dir/einlass"
npm install --no-audit --no-fund
PORT="$port" setsid npm start > "$dir/start.log" 2>&1 &
pid=$!
for _ in $(seq 1 120); do
  if curl -fsS "http://127.0.0.1:$port/health" >/dev/null 2>&1; then
    echo "fresh clone: npm install && npm start serves http://127.0.0.1:$port/health"
    curl -fsS "http://127.0.0.1:$port/health"; echo
    exit 0
  fi
  if ! kill -0 "$pid" 2>/dev/null; then break; fi
  sleep 0.5
done
echo "fresh clone: einlass did not answer /health" >&2
cat "$dir/start.log" >&2
exit 1
