#!/usr/bin/env python3
"""Where inside a traced launch's loop two settings differ: `launchprof-fixture timed-work
SPANS FILE` runs fixed-work's loop of SPANS spans and reads the clock every 50 spans; each
launch's readings are paired between the sides (ABBA) for three stretches of the loop, the
first 200 spans (the thread's first chunks, the tracer's first request for memory), the rest,
and the whole, each with its paired shift B - A and 95 % interval (ready_launch.paired).
The clock is read inside the program, so the machine's noise outside the loop (the spawn,
the runtime's start, the exit) stays out, which whole launches (launch-ab.py) cannot leave out.

  Benchmarks/span-blocks.py RUNS "K=V,..." "K=V,..." FIXTURE SPANS

A value `-` removes a variable; PROGRAM=PATH on a side runs another build of the fixture there.
Both sides are launched as `launchprof measure` would (ready pipe, exit after launch); set
LAUNCHPROF_TRACING / LAUNCHPROF_TRACE on the sides. Example (RESULTS.md, issue 36's ninth
round: the populater kept off the recording thread's CPU, the tracer without the sampler):

  T=LAUNCHPROF_TRACING=1,LAUNCHPROF_TRACE=/tmp/sb.lptrace,LAUNCHPROF_SAMPLER=0
  Benchmarks/span-blocks.py 150 "$T,PROGRAM=/tmp/before" "$T" .build/release/launchprof-fixture 10000
"""
import os, sys, tempfile

from ready_launch import launch, paired, parse, side

FIRST = 200  # spans in the first stretch (a multiple of the fixture's 50)


def stretches(command, changes, marks):
    """The launch's loop stretches in microseconds: the first FIRST spans, the rest, the whole."""
    if os.path.exists(marks):
        os.unlink(marks)
    launch(command, changes)
    with open(marks) as file:
        readings = [int(word) for word in file.read().split()]
    cut = FIRST // 50
    return [(readings[cut] - readings[0]) / 1e3, (readings[-1] - readings[cut]) / 1e3, (readings[-1] - readings[0]) / 1e3]


def main():
    if len(sys.argv) != 6 or int(sys.argv[5]) < 2 * FIRST:
        sys.exit(f"usage: span-blocks.py RUNS \"K=V,...\" \"K=V,...\" FIXTURE SPANS (SPANS {2 * FIRST} or more)")
    runs, spans = int(sys.argv[1]), int(sys.argv[5])
    marks = os.path.join(tempfile.mkdtemp(), "marks")
    command = [sys.argv[4], "timed-work", str(spans), marks]
    sides = side(command, parse(sys.argv[2])), side(command, parse(sys.argv[3]))
    for each in sides:
        stretches(*each, marks)  # warm-up
    a, b = [], []
    for index in range(runs):
        for which in ((0, 1) if index % 2 == 0 else (1, 0)):
            (a if which == 0 else b).append(stretches(*sides[which], marks))
    names = (f"first {FIRST} spans", f"the other {spans // 50 * 50 - FIRST}", "the whole loop")
    for stretch, name in enumerate(names):
        shift, low, high = paired([x[stretch] for x in a], [x[stretch] for x in b])
        median = sorted(x[stretch] for x in a)[runs // 2]
        print(f"{name}: A {median:.1f} µs, paired B - A {shift:+.1f} µs [{low:+.1f}, {high:+.1f}]")
    print(f"{runs} pairs, load {os.getloadavg()[0]:.2f}")


main()
