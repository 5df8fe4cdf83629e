#!/usr/bin/env bash
# Builds Benchmarks/TracerProbe (a small program on the release LaunchTracing, outside the
# benchmark harness) and runs it: tracer-probe.sh [PACKAGE_DIR] -- ARGS… (see TracerProbe/main.swift).
#
#   Benchmarks/tracer-probe.sh -- fresh 10000 9          spans on fresh memory against both floors
#   Benchmarks/tracer-probe.sh -- first                  a process's first event and its RSS
#   PROBE_CALLGRIND=1 Benchmarks/tracer-probe.sh -- flush 10000 accounted /tmp/t.lptrace
#                                                        the flush's instructions, by function
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
package="${1:-$here/..}"
[ "${1:-}" = "--" ] && package="$here/.." || shift || true
[ "${1:-}" = "--" ] && shift
scratch="${PROBE_SCRATCH:-$package/.build}"
swift build -c release --package-path "$package" --scratch-path "$scratch" --target LaunchTracing >&2
release="$scratch/release"
probe="$scratch/tracer-probe"
if [ ! -x "$probe" ] || [ -n "$(find "$release/LaunchTracing.build" "$release/_LaunchTracingShims.build" "$here/TracerProbe" -newer "$probe" -name '*.o' -o -newer "$probe" -name '*.swift' | head -1)" ]; then
    swiftc -O -I "$release/Modules" \
        -Xcc -fmodule-map-file="$release/_LaunchTracingShims.build/module.modulemap" \
        -Xcc -I"$package/Sources/_LaunchTracingShims/include" \
        "$here/TracerProbe/main.swift" -o "$probe" \
        "$release"/LaunchTracing.build/*.o "$release"/_LaunchTracingShims.build/*.o >&2
fi
if [ -n "${PROBE_CALLGRIND:-}" ]; then
    out=$(mktemp /tmp/probe-callgrind.XXXXXX)
    # Without debug information: valgrind before 3.20 cannot read the DWARF 5 the release
    # objects carry (symbols are kept). The toggle names flush(to:) exactly: a glob would
    # also match its specialization, which it calls, and toggle collection off again there.
    stripped="$probe-stripped"
    strip --strip-debug -o "$stripped" "$probe"
    valgrind --tool=callgrind --callgrind-out-file="$out" --collect-atstart=no \
        --toggle-collect='$s13LaunchTracing0A6TracerO5flush2toySS_tAA14TraceFileErrorOYKFZ' \
        "$stripped" "$@" 2>/dev/null >&2
    callgrind_annotate --inclusive=yes "$out" | head -60
    callgrind_annotate "$out" | head -45
else
    "$probe" "$@"
fi
