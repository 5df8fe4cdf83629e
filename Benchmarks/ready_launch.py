"""One launch timed to its first frame, for Benchmarks/observer-effect.py and
Benchmarks/launch-ab.py: the program is spawned with LAUNCHPROF_READY_FD=3 and
LAUNCHPROF_EXIT_AFTER_LAUNCH=1, and readiness is the `firstFrame` word it writes on that
pipe, the time from just before the spawn (LAUNCHPROF_SPAWN_NS)."""
import os, subprocess, sys, time


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
