#!/bin/sh
# Baseline comparisons on a loaded machine (issue 21): two busy loops keep both
# cores busy while a baseline of the sample's naive variant is made, then five
# sessions compare the naive variant (A/A) and five the slowed one (+32 % more
# work in didFinishLaunching) against it. Prints each session's exit code and
# verdict line; the counts are the figures.
#
#   METRIC=wall|cpu|instructions Benchmarks/baseline-noise.sh [LAUNCHPROF]
#
# LAUNCHPROF: the launchprof to test (default .build/release/launchprof; a
# release build, so that the sample's launch is not a debug build's).
# METRIC (default wall) is what the baseline is gated on:
#   wall, cpu      calibrate --metric METRIC --rounds 3 --save-baseline naive
#                  (three A/A rounds; their between-session spread of the gated
#                  metric is stored beside the baseline), then sessions of
#                  compare --baseline naive --metric METRIC, RUNS launches each;
#   instructions   measure --metric instructions --save-baseline naive, then
#                  sessions of compare --baseline naive --metric instructions,
#                  each with one timed launch and COUNTED counted launches.
# RUNS (default 10: five is the least one metric can decide on), COUNTED
# (default 3), SESSIONS (default 5), OUT (default a new temporary folder) and
# HOGS (busy loops, default 2; 0 when another run's keep the cores busy)
# change the rest. A counted launch of the release sample costs about 20 s of
# CPU under valgrind; the instruction run takes about 15 minutes on 2 busy cores.
set -u
LAUNCHPROF=${1:-.build/release/launchprof}
METRIC=${METRIC:-wall}
RUNS=${RUNS:-10}
COUNTED=${COUNTED:-3}
SESSIONS=${SESSIONS:-5}
OUT=${OUT:-$(mktemp -d)}
HOGS=${HOGS:-2}
hogs=""
for _ in $(seq "$HOGS"); do
    yes >/dev/null &
    hogs="$hogs $!"
done
# shellcheck disable=SC2086 # $hogs is several process ids
trap '[ -n "$hogs" ] && kill $hogs 2>/dev/null' EXIT INT TERM
case "$METRIC" in
wall | cpu)
    "$LAUNCHPROF" calibrate --metric "$METRIC" --runs "$RUNS" --rounds 3 --quiet --output "$OUT" --save-baseline naive --sample naive
    cat "$OUT/baselines/naive.spread.json"
    launches="--runs $RUNS"
    ;;
instructions)
    "$LAUNCHPROF" measure --metric instructions --runs 1 --warmup 0 --counted-runs "$COUNTED" --quiet --output "$OUT" \
        --save-baseline naive --sample naive
    launches="--runs 1 --warmup 0 --counted-runs $COUNTED"
    ;;
*)
    echo "METRIC is wall, cpu or instructions, not '$METRIC'" >&2
    exit 2
    ;;
esac
for variant in naive slowed; do
    regressions=0
    for session in $(seq "$SESSIONS"); do
        # shellcheck disable=SC2086 # $launches is several options
        line=$("$LAUNCHPROF" compare --baseline naive --metric "$METRIC" $launches --quiet --output "$OUT" \
            --name "$METRIC-$variant-$session" --head-sample "$variant")
        code=$?
        [ "$code" -eq 1 ] && regressions=$((regressions + 1))
        echo "$METRIC: $variant session $session: exit $code: $line"
    done
    echo "$METRIC: $variant against the naive baseline: exit 1 in $regressions of $SESSIONS sessions"
done
echo "reports in $OUT"
