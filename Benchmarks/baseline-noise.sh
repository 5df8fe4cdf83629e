#!/bin/sh
# Baseline comparisons on a loaded machine (issue 21): two busy loops keep both
# cores busy while a baseline of the sample's naive variant is calibrated
# (three A/A rounds, their between-session spread stored beside it), then five
# sessions compare the naive variant (A/A) and five the slowed one against it.
# Prints each session's exit code and verdict line; the counts are the figures.
#
#   Benchmarks/baseline-noise.sh [LAUNCHPROF] [SAMPLE]
#
# LAUNCHPROF: the launchprof to test (default .build/release/launchprof).
# SAMPLE: a launchprof binary whose sample app is launched (default LAUNCHPROF;
# a release build, so that the app's launch is not a debug build's).
set -u
LAUNCHPROF=${1:-.build/release/launchprof}
SAMPLE=${2:-$LAUNCHPROF}
RUNS=${RUNS:-20}
SESSIONS=${SESSIONS:-5}
OUT=$(mktemp -d)
yes >/dev/null & HOG1=$!
yes >/dev/null & HOG2=$!
trap 'kill $HOG1 $HOG2 2>/dev/null' EXIT INT TERM
sample() { echo "$SAMPLE" __sample-app --variant "$1"; }
"$LAUNCHPROF" calibrate --runs "$RUNS" --rounds 3 --quiet --output "$OUT" --save-baseline naive -- $(sample naive)
cat "$OUT/baselines/naive.spread.json"
for variant in naive slowed; do
    regressions=0
    for session in $(seq "$SESSIONS"); do
        line=$("$LAUNCHPROF" compare --baseline naive --runs "$RUNS" --quiet --output "$OUT" --name "$variant-$session" -- $(sample "$variant"))
        code=$?
        [ "$code" -eq 1 ] && regressions=$((regressions + 1))
        echo "$variant session $session: exit $code: $line"
    done
    echo "$variant against the naive baseline: exit 1 in $regressions of $SESSIONS sessions"
done
echo "reports in $OUT"
