#!/usr/bin/env python3
"""The observer effect: time to first frame with full instrumentation against
tracing off, launches interleaved (ABBA), Hodges-Lehmann shift and its 95 %
interval.

  Benchmarks/observer-effect.py [--sampler-share | --parts] RUNS_PER_SIDE COMMAND [ARGS...]

"on" is what `launchprof measure` gives a launch: LAUNCHPROF_TRACE (per-span
resource accounting, the main-thread sampler, the trace written at exit),
LAUNCHPROF_EXIT_AFTER_LAUNCH=1 and the ready pipe. "off" is the same launch with
LAUNCHPROF_TRACING=0 and no LAUNCHPROF_TRACE: the ready pipe only. Readiness is
the `firstFrame` word the program writes on the ready pipe; the time runs from
just before the spawn. Prints one line: median off, median on, shift, interval
(Hodges-Lehmann and the Mann-Whitney interval of the two sides), and the same from the
launches in pairs (launch i of each side ran back to back: the Walsh averages of the
pairs' differences and the Wilcoxon signed-rank interval), which leaves out the
machine's drift between pairs.

With --sampler-share both sides are instrumented and "off" only turns the
main-thread sampler off (LAUNCHPROF_SAMPLER=0): the shift is the sampler's own
share. LAUNCHPROF_SAMPLER in the environment chooses the "on" side's sampler
(`periodic` samples every period; the default only looks at the main thread's
switches while it runs).

With --parts three sides run in turn (off, instrumented with the sampler off, "on"; the
order reversed every other round): the usual line for "on" against "off", then the
effect taken apart from the same minutes, each paired: the tracer without the sampler
against "off", and the sampler's share ("on" against the tracer without it). Separate
runs of the two modes above drift apart by up to 0.1 ms on a shared machine, so their
figures do not add up; these do.
"""
import os, sys, tempfile

import ready_launch

SAMPLER_SHARE = False

def launch(command, instrumented, trace, sampler=True):
    changes = {}
    if not sampler:
        changes["LAUNCHPROF_SAMPLER"] = "0"
    if SAMPLER_SHARE:
        if not instrumented:
            changes["LAUNCHPROF_SAMPLER"] = "0"
        instrumented = True
    changes["LAUNCHPROF_TRACE"] = trace if instrumented else "-"
    changes["LAUNCHPROF_TRACING"] = "1" if instrumented else "0"
    return ready_launch.launch(command, changes)

def hodges_lehmann(off, on):
    """Shift (on - off) and its 95 % distribution-free interval (Mann-Whitney)."""
    diffs = sorted(b - a for a in off for b in on)
    n, m = len(off), len(on)
    k = int(n * m / 2 - ready_launch.Z975 * (n * m * (n + m + 1) / 12) ** 0.5)
    return ready_launch.median_and_interval(diffs, k)

paired = ready_launch.paired

def parts(runs, command, trace):
    """Off, the tracer without the sampler, and everything, in turn (ABC CBA), paired."""
    sides = [(False, True), (True, False), (True, True)]  # (instrumented, sampler)
    for instrumented, sampler in sides:
        launch(command, instrumented, trace, sampler)  # warm-up
    off, tracer, on = times = [[], [], []]
    for index in range(runs):
        order = range(3) if index % 2 == 0 else range(2, -1, -1)
        for side in order:
            times[side].append(launch(command, sides[side][0], trace, sides[side][1]))
    report(runs, off, on)
    for name, base, other in (("tracer without the sampler", off, tracer), ("the sampler's share", tracer, on)):
        shift, low, high = paired(base, other)
        print(f"  {name}: paired {shift:+.3f} ms [{low:+.3f}, {high:+.3f}]")

def report(runs, off, on):
    med = lambda values: sorted(values)[len(values) // 2]
    shift, low, high = hodges_lehmann(off, on)
    pshift, plow, phigh = paired(off, on)
    print(f"{runs} per side: off {med(off):.2f} ms, on {med(on):.2f} ms, "
          f"shift {shift:+.2f} ms [{low:+.2f}, {high:+.2f}] ({100 * shift / med(off):+.1f} %); "
          f"paired {pshift:+.3f} ms [{plow:+.3f}, {phigh:+.3f}]")

def main():
    global SAMPLER_SHARE
    arguments = sys.argv[1:]
    split = arguments[:1] == ["--parts"]
    if split:
        arguments = arguments[1:]
    elif arguments and arguments[0] == "--sampler-share":
        SAMPLER_SHARE, arguments = True, arguments[1:]
    runs = int(arguments[0])
    command = arguments[1:]
    trace = os.path.join(tempfile.mkdtemp(), "trace.lptrace")
    if split:
        return parts(runs, command, trace)
    launch(command, True, trace), launch(command, False, trace)  # warm-up
    off, on = [], []
    for index in range(runs):
        order = (False, True) if index % 2 == 0 else (True, False)  # ABBA
        for instrumented in order:
            (on if instrumented else off).append(launch(command, instrumented, trace))
    report(runs, off, on)

main()
