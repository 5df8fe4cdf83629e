#!/usr/bin/env python3
"""The harness sampler's own CPU per launch, the 1 ms timer (LAUNCHPROF_SAMPLER=periodic)
against the context-switch watch (the default, LAUNCHPROF_SAMPLER=switches), launches alternated ABAB: the sampler thread's CPU
(costNsPerSample x samples, read with `launchprof trace`) and the process's CPU (wait4).

  Benchmarks/sampler-cost.py FIXTURE LAUNCHPROF RUNS_PER_MODE [ARGS...]

e.g. `Benchmarks/sampler-cost.py .build/release/launchprof-fixture .build/release/launchprof 10 fixed-work 10`.
"""
import os, re, subprocess, sys, tempfile
fixture, lp, runs = sys.argv[1], sys.argv[2], int(sys.argv[3])
args = sys.argv[4:]
d = tempfile.mkdtemp()
res = {"periodic": [], "switches": []}
for i in range(runs):
    for mode in (("periodic", "switches") if i % 2 == 0 else ("switches", "periodic")):
        trace = os.path.join(d, "t.lptrace")
        env = dict(os.environ, LAUNCHPROF_TRACE=trace, LAUNCHPROF_EXIT_AFTER_LAUNCH="1", LAUNCHPROF_SAMPLER=mode)
        p = subprocess.Popen([fixture] + args, env=env, stdout=subprocess.DEVNULL)
        _, status, ru = os.wait4(p.pid, 0)
        out = subprocess.run([lp, "trace", trace], capture_output=True, text=True).stdout
        samples = int(re.search(r"(\d+) main-thread samples", out).group(1))
        cost = int(re.search(r"costNsPerSample = (\d+)", out).group(1)) if samples else 0
        res[mode].append((samples * cost / 1e6, samples, (ru.ru_utime + ru.ru_stime) * 1e3))
med = lambda v: sorted(v)[len(v) // 2]
for mode, rows in res.items():
    print(f"{mode}: sampler CPU median {med([r[0] for r in rows]):.3f} ms, samples median {med([r[1] for r in rows])}, "
          f"process CPU median {med([r[2] for r in rows]):.1f} ms ({len(rows)} launches)")
