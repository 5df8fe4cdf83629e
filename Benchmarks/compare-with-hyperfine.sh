#!/usr/bin/env bash
# Measures the same commands with `hyperfine -N` and `launchprof measure` in one
# run and prints both medians, their ratio, and launchprof's own cost per launch:
# the whole `measure` wall time, minus every launch's own spawn-to-exit time, over
# the number of launches (start-up, spawning, trace reading and report writing).
#
# The two tools take turns, ROUNDS rounds of RUNS launches each, in ABBA order,
# and each tool's launches are pooled, so a drift in the machine's speed hits both alike.
#
#   Benchmarks/compare-with-hyperfine.sh [RUNS] [ROUNDS]    (needs hyperfine and python3)
set -euo pipefail
cd "$(dirname "$0")/.."
RUNS=${1:-10}
ROUNDS=${2:-4}
OUT=$(mktemp -d)
swift build -c release --product launchprof >/dev/null
LP=$PWD/.build/release/launchprof
export LAUNCHPROF_SAMPLE_DIR=$OUT/sample-data

now() { date +%s.%N; }

run_hyperfine() {
  local name=$1 round=$2; shift 2
  hyperfine -N --warmup 1 --runs "$RUNS" --export-json "$OUT/$name.hf.$round.json" "$*" >/dev/null 2>&1
}

compare() {
  local name=$1; shift
  for round in $(seq "$ROUNDS"); do
    # Odd rounds start with hyperfine, even rounds with launchprof (ABBA).
    if [ $((round % 2)) = 1 ]; then run_hyperfine "$name" "$round" "$@"; fi
    local start end
    start=$(now)
    "$LP" measure --quiet --format json --ready exit --warmup 1 --runs "$RUNS" --name "$name.$round" \
      --output "$OUT" -- "$@" >/dev/null || [ $? -eq 1 ]   # 1: over budget, which does not matter here
    end=$(now)
    echo "$start $end" > "$OUT/$name.wall.$round"
    if [ $((round % 2)) = 0 ]; then run_hyperfine "$name" "$round" "$@"; fi
  done
  python3 - "$OUT" "$name" "$ROUNDS" <<'PY'
import json, sys, statistics
out, name, rounds = sys.argv[1], sys.argv[2], int(sys.argv[3])
hf, lp, overheads = [], [], []
for r in range(1, rounds + 1):
    hf += [t * 1000 for t in json.load(open(f"{out}/{name}.hf.{r}.json"))["results"][0]["times"]]
    report = json.load(open(f"{out}/{name}.{r}.json"))
    lp += [run["timeToExitMs"] for run in report["runs"] if not run["isWarmup"]]
    start, end = map(float, open(f"{out}/{name}.wall.{r}").read().split())
    own = sum(run["timeToExitMs"] for run in report["runs"])
    overheads.append(((end - start) * 1000 - own) / len(report["runs"]))
h, l = statistics.median(hf), statistics.median(lp)
print(f"{name:14s} n={len(hf):3d}  hyperfine {h:8.2f} ms  launchprof {l:8.2f} ms  ratio {l / h:5.3f}"
      f"  launchprof's own cost per launch {statistics.median(overheads):5.2f} ms")
PY
}

echo "$ROUNDS rounds x $RUNS runs per tool and command (+1 warm-up each), $(nproc) cores"
compare true /bin/true
compare sleep-0.05 sleep 0.05
# The sample app, run to its exit (it exits after launch when asked to, and traces
# itself under both tools, so both launch the same work).
export LAUNCHPROF_EXIT_AFTER_LAUNCH=1 LAUNCHPROF_TRACE=$OUT/hyperfine-sample.lptrace
"$LP" __sample-app --variant naive >/dev/null 2>&1 || true   # its first launch writes its data
compare sample-naive "$LP" __sample-app --variant naive
rm -rf "$OUT"
