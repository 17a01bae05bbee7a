#!/usr/bin/env bash
# Runs the Vitest suite as if the clock read each of the dates a calendar bug shows on: the 1st of a
# month just after midnight, New Year's Eve just before it, 29 February, and the days the clocks
# change in the US and the UK (in those zones, half an hour before the change). Debian's libfaketime
# moves the wall clock of every process the run starts, the embedded PostgreSQL's too, by one fixed
# offset, so they agree with each other and time still passes; timers keep the real monotonic clock.
#
#   bash scripts/test-on-dates.sh                 every date, one run each (about 5 minutes a date)
#   bash scripts/test-on-dates.sh leap-day        the dates whose label matches, e.g. "dst"
#   bash scripts/test-on-dates.sh all -- src/x.test.ts   extra arguments after -- go to Vitest
#
# Prints one line per date: its label, the instant, the zone and the Vitest count. Not run in CI:
# it takes the suite's time once per date. Needs `apt-get install faketime`.
set -uo pipefail
cd "$(dirname "$0")/.."

libfaketime=/usr/lib/x86_64-linux-gnu/faketime/libfaketimeMT.so.1
if [[ ! -e $libfaketime ]]; then
  echo "libfaketime is missing: apt-get install faketime" >&2
  exit 2
fi

# label, the instant in UTC, the zone the processes run in.
dates=(
  "first-of-month     2027-03-01T00:30:00Z UTC"
  "new-years-eve      2026-12-31T23:30:00Z UTC"
  "leap-day           2028-02-29T12:00:00Z UTC"
  "us-dst-spring      2027-03-14T06:30:00Z America/New_York"
  "us-dst-autumn      2027-11-07T05:30:00Z America/New_York"
  "uk-dst-spring      2027-03-28T00:30:00Z Europe/London"
  "uk-dst-autumn      2027-10-31T00:30:00Z Europe/London"
)

only="${1:-all}"
shift || true
[[ ${1:-} == "--" ]] && shift
results=$(mktemp -d)
trap 'rm -rf "$results"' EXIT
summary=()
failed=0
for entry in "${dates[@]}"; do
  read -r label instant zone <<<"$entry"
  [[ $only != all && $label != *"$only"* ]] && continue
  # An offset, not an absolute start: a process started later reads the same fake time as one
  # started earlier (an absolute "@" start would restart the fake clock in each process).
  offset=$(($(date -d "$instant" +%s) - $(date +%s)))
  sign=""
  [[ $offset -ge 0 ]] && sign="+"
  echo "=== $label: $instant ($zone), offset ${offset}s ==="
  LD_PRELOAD=$libfaketime FAKETIME="$sign$offset" FAKETIME_DONT_FAKE_MONOTONIC=1 TZ="$zone" \
    npx vitest run --reporter=default --reporter=json --outputFile.json="$results/$label.json" "$@"
  status=$?
  counts=$(npx node -e '
    const r = JSON.parse(require("fs").readFileSync(process.argv[1], "utf8"));
    console.log(`${r.numPassedTests} passed, ${r.numFailedTests} failed`);' "$results/$label.json" 2>/dev/null \
    || echo "no result")
  [[ $status -ne 0 ]] && failed=1
  summary+=("$(printf '%-16s %s %-17s %s' "$label" "$instant" "$zone" "$counts")")
done

printf '\n=== summary ===\n'
printf '%s\n' "${summary[@]}"
exit "$failed"
