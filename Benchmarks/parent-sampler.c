// A sampler outside the app, for `Benchmarks/parent-watch-probe.py` (issue 36): what the
// harness's main-thread sampler does, done by another process, to price sampling from the
// launching process before building it. It reads process ids, one a line, on its standard
// input; for each, it watches the process's main thread with the shims' own switch watch
// (`lp_switch_watch_open`, opened on another process's thread, which its parent may do),
// keeps off that thread's CPU (`lp_switch_watch_keep_away`), and samples the thread as the
// in-process sampler does: `/proc/PID/task/PID/syscall` and `stat` read with `pread` at once
// when the thread blocks, then every millisecond until it runs again, looking at the watch
// once a millisecond while it runs. (Until issue 36's tenth round the shims' watch woke its
// reader at every record, and this program slept on it: the ninth round's figures in
// RESULTS.md were taken that way, at commit 9cfad75.) It names no wait (no descriptor or memory is read) and keeps no sample. Once
// the thread has exited (its `stat` says Z or X, or cannot be read) it writes a line
// "SAMPLES WAKEUPS WATCHED" (WATCHED 0: the watch could not be opened, and it sampled every
// period instead) and reads the next id. With an argument DELAY_MS it starts watching
// that long after an id comes; a second argument takes the sampler apart: `n` the sampler's
// wake-ups with the watch's word for the thread's state instead of `/proc` reads, `p` no
// watch (`syscall` read every millisecond, as a periodic sampler). Linux only.
//
//   cc -O2 -ISources/_LaunchTracingShims/include -o /tmp/parent-sampler Benchmarks/parent-sampler.c Sources/_LaunchTracingShims/*.c -lpthread
//   PARENT_SAMPLER=/tmp/parent-sampler Benchmarks/parent-watch-probe.py RUNS COMMAND [ARGS...]
#define _GNU_SOURCE
#include "LaunchTracingShims.h"

#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

enum { PERIOD_NS = 1000000 };

static uint64_t now_ns(void) {
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (uint64_t)t.tv_sec * 1000000000ull + (uint64_t)t.tv_nsec;
}

static void sleep_until(uint64_t deadline) {
    struct timespec t = {(time_t)(deadline / 1000000000ull), (long)(deadline % 1000000000ull)};
    while (clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &t, 0) != 0) {}
}

/// The thread's state letter from its `stat` (0: unreadable).
static char state_of(int stat_fd) {
    char text[512];
    ssize_t count = pread(stat_fd, text, sizeof text - 1, 0);
    if (count <= 0) return 0;
    text[count] = 0;
    char *close = strrchr(text, ')');
    return close != 0 && close[1] == ' ' ? close[2] : 0;
}

/// One sample, as the in-process sampler takes it: `syscall` first ("running": one read),
/// then `stat` for the state.
static char sample(int stat_fd, int syscall_fd) {
    char text[512];
    ssize_t count = pread(syscall_fd, text, sizeof text - 1, 0);
    if (count >= 7 && memcmp(text, "running", 7) == 0) return 'R';
    return state_of(stat_fd);
}

/// The CPU the thread last ran on (`stat`'s 39th field), or -1.
static int last_cpu(int stat_fd) {
    char text[512];
    ssize_t count = pread(stat_fd, text, sizeof text - 1, 0);
    if (count <= 0) return -1;
    text[count] = 0;
    char *field = strrchr(text, ')');
    for (int index = 2; field != 0 && index < 39; index++) field = strchr(field + 1, ' ');
    return field != 0 ? atoi(field + 1) : -1;
}

/// 's': sample as the in-process sampler does; 'n': the same wake-ups, with the watch's word
/// for the thread's state instead of `/proc` reads; 'p': no watch, `syscall` read every period.
static char mode = 's';

static void watch_process(long pid) {
    char path[64];
    snprintf(path, sizeof path, "/proc/%ld/task/%ld/stat", pid, pid);
    int stat_fd = open(path, O_RDONLY | O_CLOEXEC);
    snprintf(path, sizeof path, "/proc/%ld/task/%ld/syscall", pid, pid);
    int syscall_fd = open(path, O_RDONLY | O_CLOEXEC);
    lp_switch_watch *watch = stat_fd >= 0 && mode != 'p' ? lp_switch_watch_open((uint64_t)pid, last_cpu(stat_fd)) : 0;
    long samples = 0, wakeups = 0;
    for (int checked = 0;;) {
        // After 20 looks without a switch (the thread may have exited), `stat` says whether
        // it is still there (`syscall` may say "running" of a zombie).
        char state = checked ? state_of(stat_fd) : mode == 'n' ? 'R' : sample(stat_fd, syscall_fd);
        if (state == 0 || state == 'Z' || state == 'X') break;
        if (mode == 'n') {
            // The watch's word for the thread's state instead of `/proc`'s.
            state = watch == 0 || lp_switch_watch_drain(watch) != LP_SWITCH_BLOCKED ? 'R' : 'S';
        } else if (checked) {
            state = sample(stat_fd, syscall_fd);
        }
        checked = 0;
        samples += 1;
        if (state == 'R' && watch != 0) {
            // Blocked since the last sample only if a switch says so.
            uint64_t before = lp_switch_watch_switches(watch);
            int seen = lp_switch_watch_drain(watch);
            if (seen == LP_SWITCH_UNKNOWN || (seen == LP_SWITCH_BLOCKED && lp_switch_watch_switches(watch) == before)) {
                seen = LP_SWITCH_RUNNING;
            }
            // A look a period while it runs (the shims' watch wakes no reader); after 20 looks
            // without a switch, `stat` says whether the thread is still there.
            for (int quiet = 0; seen == LP_SWITCH_RUNNING; ) {
                lp_switch_watch_keep_away(watch);
                uint64_t switches = lp_switch_watch_switches(watch);
                seen = lp_switch_watch_look_after(watch, PERIOD_NS);
                wakeups += 1;
                if (lp_switch_watch_switches(watch) != switches) {
                    quiet = 0;
                    continue;
                }
                // No switch since the last look: running as it was (whatever the last record said).
                seen = LP_SWITCH_RUNNING;
                if (++quiet == 20) {
                    checked = 1;
                    break;
                }
            }
            continue;
        }
        sleep_until(now_ns() + PERIOD_NS);
    }
    int watched = watch != 0;
    lp_switch_watch_close(watch);
    if (stat_fd >= 0) close(stat_fd);
    if (syscall_fd >= 0) close(syscall_fd);
    printf("%ld %ld %d\n", samples, wakeups, watched);
    fflush(stdout);
}

int main(int argc, char **argv) {
    // DELAY_MS: wait that long after an id comes before watching (the app reaches `main`
    // about 20 ms after its spawn here; the in-process sampler starts there).
    long delay_ms = argc > 1 ? atol(argv[1]) : 0;
    mode = argc > 2 ? argv[2][0] : 's';
    char line[64];
    while (fgets(line, sizeof line, stdin) != 0) {
        long pid = atol(line);
        if (delay_ms > 0) sleep_until(now_ns() + (uint64_t)delay_ms * 1000000);
        if (pid > 0) watch_process(pid);
    }
    return 0;
}
