#!/usr/bin/env python3
"""Two environments for the same launch, against each other: time to the first frame with
environment A and with environment B, launches interleaved in pairs (ABBA), and the paired
shift B - A (the median of the pairs' Walsh averages) with its 95 % Wilcoxon signed-rank
interval. For taking the observer effect apart (observer-effect.py compares tracing on
against off; this compares any two settings).

  Benchmarks/launch-ab.py RUNS "K=V,K=V" "K=V,..." COMMAND [ARGS...]

A value `-` removes the variable; PROGRAM=PATH on a side runs PATH in place of the command's
program there (not a variable: two builds of one program, against each other). Readiness is the `firstFrame` word on the ready pipe, the
time from just before the spawn. Examples (the sampler's share; tracing alone at 10,000 spans):

  T=LAUNCHPROF_TRACING=1,LAUNCHPROF_TRACE=/tmp/ab.lptrace
  Benchmarks/launch-ab.py 500 "$T,LAUNCHPROF_SAMPLER=0" "$T" .build/release/launchprof-fixture fixed-work 10
  Benchmarks/launch-ab.py 200 LAUNCHPROF_TRACING=0 LAUNCHPROF_TRACING=1 .build/release/launchprof-fixture fixed-work 10000
  Benchmarks/launch-ab.py 400 "$T,PROGRAM=/tmp/before" "$T" .build/release/launchprof-fixture fixed-work 10000
"""
import os, sys
from ready_launch import launch, paired, parse, side


def main():
    runs, command = int(sys.argv[1]), sys.argv[4:]
    sides = side(command, parse(sys.argv[2])), side(command, parse(sys.argv[3]))
    for each in sides:
        launch(*each)  # warm-up
    a, b = [], []
    for index in range(runs):
        for which in ((0, 1) if index % 2 == 0 else (1, 0)):
            (a if which == 0 else b).append(launch(*sides[which]))
    shift, low, high = paired(a, b)
    median = lambda values: sorted(values)[len(values) // 2]
    print(f"{runs} pairs: A {median(a):.2f} ms, B {median(b):.2f} ms, paired B - A {shift:+.3f} ms "
          f"[{low:+.3f}, {high:+.3f}], load {os.getloadavg()[0]:.2f}")


main()
