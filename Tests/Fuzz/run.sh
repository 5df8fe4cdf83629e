#!/usr/bin/env bash
# Fuzzes one of LaunchProf's readers with libFuzzer and AddressSanitizer.
#
#   Tests/Fuzz/run.sh trace|budget|report|spread [SECONDS] [libFuzzer options...]
#
# Builds the fuzz targets (release, -sanitize=fuzzer,address), seeds a corpus in
# Tests/Fuzz/.corpus/KIND the first time (from a real measurement of the bundled sample
# app made with $LAUNCHPROF, default .build/debug/launchprof, built if missing; the
# committed report fixtures; the README's budget), then fuzzes for SECONDS (300).
# Crashes are written to Tests/Fuzz/.corpus/KIND-artifacts/. Nothing here is committed.
set -euo pipefail
cd "$(dirname "$0")/../.."

kind=${1:?usage: Tests/Fuzz/run.sh trace|budget|report|spread [SECONDS] [libFuzzer options...]}
seconds=${2:-300}
shift $(( $# < 2 ? $# : 2 ))
case $kind in
    trace) fuzzer=TraceReaderFuzzer ;;
    budget) fuzzer=BudgetReaderFuzzer ;;
    report) fuzzer=ReportReaderFuzzer ;;
    spread) fuzzer=SpreadReaderFuzzer ;;
    *) echo "unknown reader '$kind' (trace, budget, report or spread)" >&2; exit 2 ;;
esac

build=Tests/Fuzz/.build-fuzz
# ld.gold fails on the sanitized objects; lld, which ships with Swift, links them.
swift build --package-path Tests/Fuzz --scratch-path "$build" -c release --product "$fuzzer" \
    -Xswiftc -sanitize=fuzzer,address -Xswiftc -use-ld=lld

corpus=Tests/Fuzz/.corpus/$kind
artifacts=Tests/Fuzz/.corpus/$kind-artifacts
mkdir -p "$corpus" "$artifacts"
if [ -z "$(ls -A "$corpus")" ]; then
    launchprof=${LAUNCHPROF:-.build/debug/launchprof}
    [ -x "$launchprof" ] || swift build --product launchprof
    # An absolute path, however it was given: the seeds are measured in another folder.
    launchprof=$(cd "$(dirname "$launchprof")" && pwd)/$(basename "$launchprof")
    seed=$(mktemp -d)
    trap 'rm -rf "$seed"' EXIT
    # Two measurements (a run is never counted on both sides of a comparison), six runs each (the gate's least).
    for name in seed head; do
        (cd "$seed" && "$launchprof" measure --runs 6 --warmup 0 --format json --quiet --output "$seed/out" --name "$name") || true
    done
    case $kind in
        trace)
            find "$seed/out" -name '*.lptrace' | while read -r file; do cp "$file" "$corpus/$(basename "$(dirname "$file")").lptrace"; done ;;
        report)
            cp Tests/LaunchReportsTests/Fixtures/*.json "$corpus/"
            cp "$seed/out/seed.json" "$corpus/measurement.json"
            "$launchprof" compare --base-report "$seed/out/seed.json" --head-report "$seed/out/head.json" --output "$seed/cmp" --format json --quiet || true
            find "$seed/cmp" -name '*.comparison.json' -exec cp {} "$corpus/comparison.json" \; ;;
        spread)
            printf '%s\n' '{"kind": "session-spread", "schemaVersion": 1, "metric": "timeToReady", "sessionMediansMs": [100, 112, 104], "source": "sessions"}' > "$corpus/v1.json"
            printf '%s\n' '{"kind": "session-spread", "metric": "timeToFirstFrame", "sessionMediansMs": [5e-324, 11.4], "source": "blocks"}' > "$corpus/tiny.json"
            "$launchprof" measure --runs 6 --warmup 0 --quiet --output "$seed/base" --name app --save-baseline main || true
            "$launchprof" measure --runs 6 --warmup 0 --quiet --output "$seed/base" --name app --save-baseline main || true
            find "$seed/base" -name '*.spread.json' -exec cp {} "$corpus/stored.json" \; ;;
        budget)
            python3 - "$seed/out/seed.json" "$corpus" <<'PY'
import json, sys
report, corpus = sys.argv[1], sys.argv[2]
budget = json.load(open(report))["configuration"]["budget"]
json.dump(budget, open(corpus + "/from-report.json", "w"))
full = {"timeToFirstFrameMs": 400, "backgroundTimeToFirstFrameMs": 200,
        "hooks": {"willFinishLaunching": 50, "didFinishLaunching": 200}, "spans": {"DecodeCatalog": 30},
        "requiredForFirstFrame": ["ReadCatalog", "DecodeCatalog"], "gate": ["phase:didFinishLaunching"],
        "minimumEffect": {"percent": 5, "milliseconds": 5}, "alpha": 0.01}
json.dump(full, open(corpus + "/every-key.json", "w"), indent=2)
PY
            ;;
    esac
    echo "seeded $(ls "$corpus" | wc -l) inputs in $corpus"
fi

exec "$build/release/$fuzzer" "$corpus" -max_total_time="$seconds" -artifact_prefix="$artifacts/" -print_final_stats=1 "$@"
