#!/usr/bin/env python3
"""A measurement for the design of a sampler in the launching process (issue 36): what
a perf context-switch watch on the app's main thread costs the app when the process
that spawned it holds the watch, against the in-process sampler.

  Benchmarks/parent-watch-probe.py RUNS COMMAND [ARGS...]   (Linux, x86_64)

Six settings in turn (the order reversed every other round), each timed from just before
the spawn to the `firstFrame` word on the ready pipe, and given paired against the first:
  off                          LAUNCHPROF_TRACING=0
  tracer                       tracing on, LAUNCHPROF_SAMPLER=0 (no sampler)
  parent's watch at spawn      as tracer, and this process opens the watch (the in-process
                               sampler's settings until issue 36's tenth round, 9cfad75:
                               a wake-up at every record) right after
                               the spawn, a thread here draining its ring at each wake-up
  parent's watch, no reader    the same watch, nobody woken: the kernel's side alone
  parent's watch at 20 ms      opened 20 ms after the spawn (about when the app reaches main)
  traced                       what `launchprof measure` gives a launch today
It samples nothing: a reader in Python costs far more per wake-up than the sampler's C
reader, so only the "no reader" line says what the app would pay for a lean one.

With PARENT_SAMPLER naming a build of Benchmarks/parent-sampler.c (and its arguments), four
settings instead:
off, tracer, "parent's sampler" (as tracer, and that program, started once before the
rounds, watches and samples the app's main thread from outside as the in-process sampler
does, from right after the spawn until the app is gone), and traced. That prices a sampler
in the launching process whole, its reader included (it names no wait and keeps no sample).
"""
import ctypes, mmap, os, select, struct, sys, tempfile, threading, time

import ready_launch

libc = ctypes.CDLL(None, use_errno=True)
SYS_perf_event_open = 298  # x86_64
class Attr(ctypes.Structure):
    _fields_ = [("type", ctypes.c_uint32), ("size", ctypes.c_uint32), ("config", ctypes.c_uint64),
                ("sample_period", ctypes.c_uint64), ("sample_type", ctypes.c_uint64), ("read_format", ctypes.c_uint64),
                ("flags", ctypes.c_uint64), ("wakeup_watermark", ctypes.c_uint32), ("bp_type", ctypes.c_uint32),
                ("config1", ctypes.c_uint64), ("config2", ctypes.c_uint64), ("branch_sample_type", ctypes.c_uint64),
                ("sample_regs_user", ctypes.c_uint64), ("sample_stack_user", ctypes.c_uint32), ("clockid", ctypes.c_int32),
                ("sample_regs_intr", ctypes.c_uint64), ("aux_watermark", ctypes.c_uint32), ("sample_max_stack", ctypes.c_uint16),
                ("reserved2", ctypes.c_uint16), ("aux_sample_size", ctypes.c_uint32), ("reserved3", ctypes.c_uint32),
                ("sig_data", ctypes.c_uint64), ("config3", ctypes.c_uint64)]
# flags bits: exclude_kernel 5, exclude_hv 6, watermark 14, sample_id_all 18, context_switch 26
FLAGS = (1 << 5) | (1 << 6) | (1 << 14) | (1 << 18) | (1 << 26)

def watch(tid):
    """A PERF_COUNT_SW_DUMMY event with context-switch records on thread `tid`, as
    Sources/_LaunchTracingShims/switch_watch.c opened it until issue 36's tenth round (a
    wake-up at every record; it now wakes no reader), and its ring (8 data pages)."""
    a = Attr(type=1, size=ctypes.sizeof(Attr), config=9, sample_type=1 << 7, flags=FLAGS, wakeup_watermark=1)
    fd = libc.syscall(SYS_perf_event_open, ctypes.byref(a), tid, -1, -1, 8)
    if fd < 0: raise OSError(ctypes.get_errno(), "perf_event_open")
    ring = mmap.mmap(fd, 4096 * 9, mmap.MAP_SHARED, mmap.PROT_READ | mmap.PROT_WRITE)
    return fd, ring

def drain_until(fd, ring, stop):
    poll = select.poll(); poll.register(fd, select.POLLIN)
    while not stop.is_set():
        poll.poll(50)
        head = struct.unpack_from("Q", ring, 1024)[0]   # data_head
        struct.pack_into("Q", ring, 1032, head)          # data_tail

FAILED = [0]
HELPER = None  # the parent-sampler process, with PARENT_SAMPLER
def launch(command, changes, parent, delay_ms=0, poll=True):
    """One launch timed by ready_launch, with the watch opened from here when `parent`
    ("sampler": handed to the parent-sampler program)."""
    def hand_to_sampler(process):
        HELPER.stdin.write(f"{process.pid}\n"); HELPER.stdin.flush()
        def finish():  # the helper's line comes once the app is gone: "SAMPLES WAKEUPS WATCHED"
            if HELPER.stdout.readline().split()[2:3] != ["1"]:
                FAILED[0] += 1
        return finish
    if parent == "sampler":
        return ready_launch.launch(command, changes, hand_to_sampler)
    def hold_watch(process):
        if delay_ms: time.sleep(delay_ms / 1000)
        try:
            fd, ring = watch(process.pid)
        except OSError:  # the app exited first
            FAILED[0] += 1
            return None
        stop, reader = threading.Event(), None
        if poll:
            reader = threading.Thread(target=drain_until, args=(fd, ring, stop)); reader.start()
        def release():
            stop.set()
            if reader: reader.join()
            ring.close(); os.close(fd)
        return release
    return ready_launch.launch(command, changes, hold_watch if parent else None)

if len(sys.argv) < 3:
    sys.exit(__doc__)
if sys.platform != "linux" or os.uname().machine != "x86_64":
    # The system call's number and the attribute's layout below are x86_64 Linux's.
    sys.exit(f"parent-watch-probe.py: x86_64 Linux only, not {sys.platform} {os.uname().machine}")
runs, command = int(sys.argv[1]), sys.argv[2:]
T = {"LAUNCHPROF_TRACING": "1", "LAUNCHPROF_TRACE": os.path.join(tempfile.mkdtemp(), "trace.lptrace")}
S0 = dict(T, LAUNCHPROF_SAMPLER="0")
OFF = {"LAUNCHPROF_TRACING": "0", "LAUNCHPROF_TRACE": "-"}
if os.environ.get("PARENT_SAMPLER"):
    import subprocess
    HELPER = subprocess.Popen(os.environ["PARENT_SAMPLER"].split(), stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                              text=True, bufsize=1)
    sides = [("off", OFF, False, 0, True),
             ("tracer", S0, False, 0, True),
             ("parent's sampler", S0, "sampler", 0, True),
             ("traced", dict(T), False, 0, True)]
else:
    sides = [("off", OFF, False, 0, True),
             ("tracer", S0, False, 0, True),
             ("parent's watch at spawn", S0, True, 0, True),
             ("parent's watch, no reader", S0, True, 0, False),
             ("parent's watch at 20 ms", S0, True, 20, True),
             ("traced", dict(T), False, 0, True)]
for _, e, p, d, q in sides: launch(command, e, p, d, q)
res = [[] for _ in sides]
for i in range(runs):
    order = list(range(len(sides))) if i % 2 == 0 else list(reversed(range(len(sides))))
    for j in order: res[j].append(launch(command, *sides[j][1:]))
for j in range(1, len(sides)):
    m, lo, hi = ready_launch.paired(res[0], res[j]); print(f"{sides[j][0]:28s} - off: {m:+.3f} ms [{lo:+.3f}, {hi:+.3f}]")
print(f"load {os.getloadavg()[0]:.2f}")
if FAILED[0]:
    # Those launches ran without the watch yet count on its side: they pull its rows towards "tracer".
    watched = (1 if HELPER else 3) * (runs + 1)
    print(f"{FAILED[0]} of {watched} launches of the watch's settings ran without it (it could not be "
          "opened: the app had exited, or perf events are not allowed)")
