"""One launch timed to its first frame, and the paired shift of two sides' launches, for
Benchmarks/observer-effect.py, launch-ab.py, milestone-split.py, parent-watch-probe.py and span-blocks.py:
the program is spawned with LAUNCHPROF_READY_FD=3 and LAUNCHPROF_EXIT_AFTER_LAUNCH=1, and
readiness is the `firstFrame` word it writes on that pipe, the time from just before the
spawn (LAUNCHPROF_SPAWN_NS)."""
import os, subprocess, sys, time
from statistics import NormalDist

#: The normal quantile of a two-sided 95 % interval.
Z975 = NormalDist().inv_cdf(0.975)


def median_and_interval(values, k):
    """The median of sorted `values` and the interval from the k-th smallest to the k-th largest."""
    mid = len(values) // 2
    median = values[mid] if len(values) % 2 else (values[mid - 1] + values[mid]) / 2
    return median, values[max(k, 0)], values[min(len(values) - 1, len(values) - 1 - k)]


def paired(a, b):
    """Shift b - a and its 95 % interval from launches in pairs: launch i of each side ran
    back to back (ABBA), so b[i] - a[i] leaves out what drifts slower than a pair (the
    machine's speed from one minute to the next). Hodges-Lehmann of the pairs' differences
    (the median of their Walsh averages), Wilcoxon signed-rank interval."""
    d = [y - x for x, y in zip(a, b)]
    n = len(d)
    walsh = sorted((d[i] + d[j]) / 2 for i in range(n) for j in range(i, n))
    k = int(n * (n + 1) / 4 - Z975 * (n * (n + 1) * (2 * n + 1) / 24) ** 0.5)
    return median_and_interval(walsh, k)


def parse(text):
    """Environment changes written "K=V,K=V" on a command line (a value `-` removes K)."""
    return dict(pair.split("=", 1) for pair in text.split(",") if pair)


def side(command, changes):
    """A side of an A/B run: its command and its environment changes. PROGRAM=PATH among the
    changes is not a variable: PATH runs in place of the command's program (two builds of one
    program, against each other)."""
    changes = dict(changes)
    program = changes.pop("PROGRAM", None)
    return ([program] + command[1:] if program else command), changes


def launch(command, changes, after_spawn=None):
    """Milliseconds from the spawn of `command` to its `firstFrame` word, the environment
    changed by `changes` (a value `-` removes the variable). Exits when no word comes.
    `after_spawn`, when given, is called with the process as soon as it is spawned, and
    what it returns (a function, or None) once the process has exited."""
    read, write = os.pipe()
    env = dict(os.environ, LAUNCHPROF_READY_FD="3", LAUNCHPROF_EXIT_AFTER_LAUNCH="1")
    for key, value in changes.items():
        if value == "-":
            env.pop(key, None)
        else:
            env[key] = value
    start = time.monotonic_ns()
    env["LAUNCHPROF_SPAWN_NS"] = str(start)
    process = subprocess.Popen(command, env=env, preexec_fn=lambda: os.dup2(write, 3), pass_fds=(write, 3),
                               stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    os.close(write)
    finish = after_spawn(process) if after_spawn else None
    ready, buffer = None, b""
    with os.fdopen(read, "rb", buffering=0) as pipe:
        while chunk := pipe.read(64):
            buffer += chunk
            if ready is None and b"firstFrame" in buffer:
                ready = (time.monotonic_ns() - start) / 1e6
    process.wait()
    if finish:
        finish()
    if ready is None:
        sys.exit(f"no firstFrame from {' '.join(command)} (exit {process.returncode})")
    return ready
