#!/usr/bin/env bash
# Wave 2 benchmarks (issues 11–14), one after another against the test build of the binary, on a
# machine with nothing else running (figures in docs/benchmarks.md, "Wave 2 benchmarks"). Each script
# prints its figures and PASS / FAIL per target; this script goes on after a FAIL and exits non-zero
# at the end if any failed. Output also goes to bench/.results/wave2-<time>.log.
#   bench/wave2.sh                 # build, then all
#   NO_BUILD=1 bench/wave2.sh self-checkin chairs   # only these, with the binary as it is
#   Each script's own settings pass through (SECONDS=10 CONNECTIONS=64 BUYERS=10000 INVOICES=10000 …,
#   see the head of each script).
# Needs: /usr/bin/wrk, /usr/bin/chromium, Postgres at 127.0.0.1:5432 (trust, db test) for invoices and webhooks.
# first: bash counts on from a SECONDS=… it was given (a 2 would reach the scripts as 2 + elapsed);
# keep the value and hand the scripts that
DUR=$SECONDS
set -uo pipefail
cd "$(dirname "$0")/.."
BUN=node_modules/.bin/bun
mkdir -p bench/.results
LOG="bench/.results/wave2-$(date -u +%Y%m%dT%H%M%SZ).log"
ALL=(self-checkin ticket-orders invoices webhooks chairs guest-docs guest-dashboard-load)
RUN=("${@:-${ALL[@]}}")
if [ -z "${NO_BUILD:-}" ]; then
  $BUN build.ts --test-license-key --outfile e2e/.artifacts/einlass 2>&1 | tail -2 | tee -a "$LOG"
fi
failed=()
for b in "${RUN[@]}"; do
  echo "=== $b  ($(date -u +%H:%M:%S) UTC, load $(cut -d' ' -f1-3 /proc/loadavg))" | tee -a "$LOG"
  if [ "$DUR" -gt 0 ]; then pin=(SECONDS="$DUR"); else pin=(-u SECONDS); fi
  env "${pin[@]}" $BUN "bench/$b.ts" 2>&1 | grep -v '"level":"warn"' | tee -a "$LOG"
  [ "${PIPESTATUS[0]}" -eq 0 ] || failed+=("$b")
done
echo "=== done: ${#RUN[@]} benchmarks, failed: ${failed[*]:-none}  (log: $LOG)" | tee -a "$LOG"
[ ${#failed[@]} -eq 0 ]
