#!/usr/bin/env bash
# Every bench once, at a tiny size, as CI runs them (npm run bench:check): each must still finish
# and the API bench's answers must still match its floor's; the figures are printed, not judged
# (BENCH_CHECK=1, bench/check-mode.ts). The Lighthouse bench measures the built app: build first.
set -euo pipefail
cd "$(dirname "$0")/.."
export BENCH_CHECK=1

run() {
  local name=$1 started=$SECONDS
  shift
  echo "--- bench: $name"
  "$@"
  echo "--- bench: $name finished in $((SECONDS - started)) s"
}

BENCH_SECONDS=1 BENCH_SLICE=1 BENCH_MEMORY_SECONDS=1 run api npx tsx bench/api.bench.ts
AUDIT_EVENTS=2000 run "audit trail" npx tsx bench/audit-trail.bench.ts
ROWS=300 run "client import" npx tsx bench/import.ts
SCALE_CLIENTS=5000 SCALE_TASKS=5000 SCALE_ROUNDS=1 run scale npx tsx bench/scale.ts
LIGHTHOUSE_RUNS=1 run lighthouse npx tsx bench/lighthouse.ts
