#!/usr/bin/env bash
# Measures the same commands with `hyperfine -N` and `launchprof measure` in one
# run, and prints both medians, their ratio, and launchprof's own cost per launch
# (the whole `measure` wall time divided by launches, minus the launches' median).
#
#   Scripts/compare-with-hyperfine.sh [RUNS]      (needs hyperfine and python3)
set -euo pipefail
cd "$(dirname "$0")/.."
RUNS=${1:-30}
OUT=$(mktemp -d)
swift build -c release --product launchprof >/dev/null
LP=$PWD/.build/release/launchprof
SAMPLE_DIR=$OUT/sample-data
export LAUNCHPROF_SAMPLE_DIR=$SAMPLE_DIR

now() { python3 -c 'import time; print(time.monotonic())'; }

compare() {
  local name=$1; shift
  # hyperfine: no shell (-N), same warm-up and run count.
  hyperfine -N --warmup 1 --runs "$RUNS" --export-json "$OUT/$name.hyperfine.json" "$*" >/dev/null 2>&1
  local start end
  start=$(now)
  "$LP" measure --quiet --format json --ready exit --warmup 1 --runs "$RUNS" --name "$name" --output "$OUT" --budget-ms 100000 -- "$@" >/dev/null
  end=$(now)
  python3 - "$OUT" "$name" "$start" "$end" "$RUNS" <<'PY'
import json, sys, statistics
out, name, start, end, runs = sys.argv[1], sys.argv[2], float(sys.argv[3]), float(sys.argv[4]), int(sys.argv[5])
hf = json.load(open(f"{out}/{name}.hyperfine.json"))["results"][0]
hf_median = statistics.median(hf["times"]) * 1000
lp = json.load(open(f"{out}/{name}.json"))
exit_stats = next(p for p in lp["profile"]["phases"] if p["phase"] == "timeToExit")["summary"]
lp_median = exit_stats["median"]
launches = runs + 1
overhead = (end - start) * 1000 / launches - lp_median
print(f"{name:28s} hyperfine {hf_median:8.2f} ms   launchprof {lp_median:8.2f} ms   "
      f"ratio {lp_median / hf_median:5.3f}   launchprof cost/launch {overhead:6.2f} ms")
PY
}

echo "runs per command: $RUNS (+1 warm-up), $(nproc) cores"
compare true /bin/true
compare sleep-0.05 sleep 0.05
# The sample app, run to its exit (it exits after launch when asked to).
export LAUNCHPROF_EXIT_AFTER_LAUNCH=1 LAUNCHPROF_TRACE=$OUT/hyperfine-sample.lptrace
"$LP" __sample-app --variant naive >/dev/null 2>&1 || true   # first launch writes the sample's data
compare sample-naive "$LP" __sample-app --variant naive
rm -rf "$OUT"
