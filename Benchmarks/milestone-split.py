#!/usr/bin/env python3
"""Where a setting's cost falls inside a traced launch: two environments for the same
launch, launches in turn (ABBA), each launch's trace read for two stretches of its main
thread, from the tracer's milestones:
  set-up  `main` to `willFinishLaunching.begin` (the harness and tracer before the first hook)
  work    `didFinishLaunching.begin` to `firstFrame`
and for each, the paired shift B - A with its 95 % interval (ready_launch.paired).

  Benchmarks/milestone-split.py RUNS "K=V,..." "K=V,..." COMMAND [ARGS...]

Both sides are traced (LAUNCHPROF_TRACE) and launched as `launchprof measure` would (ready pipe, exit
after launch: ready_launch.launch); a value `-` removes
a variable. The trace is read with `launchprof trace` (LAUNCHPROF_BIN, else the package's
release build). Example, the sampler's share (RESULTS.md, issue 36's eighth round):

  Benchmarks/milestone-split.py 150 "" LAUNCHPROF_SAMPLER=0 .build/release/launchprof-fixture fixed-work 10

A launch without the four milestones (a program that is not a LaunchHarness app) stops the run.
"""
import os, subprocess, sys, tempfile

from ready_launch import launch, paired, parse

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
LAUNCHPROF = os.environ.get("LAUNCHPROF_BIN", os.path.join(ROOT, ".build", "release", "launchprof"))
STRETCHES = (("set-up", "main", "willFinishLaunching.begin"), ("work", "didFinishLaunching.begin", "firstFrame"))


def stretches(command, changes, trace):
    """The launch's stretches in microseconds, from its trace's milestones."""
    if os.path.exists(trace):
        os.remove(trace)  # a launch that writes none must not be read as the last one's
    launch(command, dict(changes, LAUNCHPROF_TRACE=trace))
    listing = subprocess.run([LAUNCHPROF, "trace", trace], capture_output=True, text=True).stdout
    marks = {}
    for line in listing.splitlines():
        words = line.split()
        if len(words) == 2:
            try:
                marks[words[1]] = float(words[0])  # milliseconds after the spawn
            except ValueError:
                pass
    try:
        return [(marks[end] - marks[start]) * 1000 for _, start, end in STRETCHES]  # µs
    except KeyError as missing:
        sys.exit(f"milestone-split.py: the trace of {' '.join(command)} has no {missing} milestone")


def main():
    if len(sys.argv) < 5:
        sys.exit(__doc__)
    runs, a_env, b_env, command = int(sys.argv[1]), parse(sys.argv[2]), parse(sys.argv[3]), sys.argv[4:]
    if not os.access(LAUNCHPROF, os.X_OK):
        sys.exit(f"milestone-split.py: no launchprof at {LAUNCHPROF} (swift build -c release, or set LAUNCHPROF_BIN)")
    trace = os.path.join(tempfile.mkdtemp(), "trace.lptrace")
    a, b = [], []
    for index in range(runs):
        for side in ((0, 1) if index % 2 == 0 else (1, 0)):
            (a if side == 0 else b).append(stretches(command, b_env if side else a_env, trace))
    median = lambda values: sorted(values)[len(values) // 2]
    for column, (name, start, end) in enumerate(STRETCHES):
        xs, ys = [row[column] for row in a], [row[column] for row in b]
        shift, low, high = paired(xs, ys)
        print(f"{name} ({start} to {end}): A {median(xs):.1f} µs, B {median(ys):.1f} µs, "
              f"paired B - A {shift:+.1f} µs [{low:+.1f}, {high:+.1f}]")
    print(f"{runs} pairs, load {os.getloadavg()[0]:.2f}")


main()
