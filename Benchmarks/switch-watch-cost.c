// What the sampler's switch watch costs a thread that computes, in a fresh process as in a
// launch: each round forks a child whose main thread starts a helper thread (kept off its
// CPU, as the sampler is) and computes about 24 ms; the helper opens nothing, or the
// sampler's own watch on the main thread (`lp_switch_watch_open`, from the shims: a
// context-switch record at every switch) and never reads it, or reads it once a millisecond
// as the sampler does (`lp_switch_watch_look_after`; until issue 36's tenth round the watch
// woke its reader at every record, and the eighth round's figures were taken so, at commit
// 9cfad75 and before). The other helpers sleep until the end: a helper's own timer would
// cost a computing thread on a virtual machine (wakeup-cost.c), so since the tenth round the
// reading helper's row holds its timer's cost too, as the sampler's looks do. Prints, for
// each watch, the paired difference in the child's time from its start to the end of the
// computation against the helper that opens nothing (median, p25, p75 of ROUNDS), the settings in turn, the order reversed every
// other round. Built against the shims alone (no Swift):
//
//   cc -O2 -ISources/_LaunchTracingShims/include -o /tmp/switch-watch-cost Benchmarks/switch-watch-cost.c Sources/_LaunchTracingShims/*.c -lpthread
//   /tmp/switch-watch-cost ROUNDS      (Linux; perf_event_paranoid 2 suffices)
//
// RESULTS.md, "Issue 36's bounds, eighth round": on a 2-core virtual machine the
// differences (tens of microseconds) sat inside quartiles of ±600 µs in 400 rounds; the
// launch's own measure is Benchmarks/milestone-split.py.
#define _GNU_SOURCE
#include "LaunchTracingShims.h"
#include <pthread.h>
#include <sched.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

enum { NOTHING, WATCH_UNREAD, WATCH_READ, SETTINGS };
static const char *names[SETTINGS] = {"nothing", "watch, unread", "watch, read"};

static pid_t main_thread;
static int setting;
static volatile uint64_t sink;
/// The end of the computation: `stopped`, and the read watch interrupted, under `lock`;
/// a helper that reads no watch sleeps on `stop_pipe` until it is written.
static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static int stopped;
static lp_switch_watch *read_watch;
static int stop_pipe[2];

static uint64_t now_ns(void) {
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (uint64_t)t.tv_sec * 1000000000ull + (uint64_t)t.tv_nsec;
}

static void *helper(void *unused) {
    (void)unused;
    lp_switch_watch *watch = setting == NOTHING ? 0 : lp_switch_watch_open((uint64_t)main_thread, -1);
    if (setting != NOTHING && watch == 0) fprintf(stderr, "no switch watch here (perf events forbidden?)\n"), _exit(2);
    if (setting == WATCH_READ) {
        pthread_mutex_lock(&lock);
        int over = stopped;
        if (!over) read_watch = watch;
        pthread_mutex_unlock(&lock);
        // A look a millisecond, as the sampler's, until the computation's end interrupts it.
        while (!over && lp_switch_watch_look_after(watch, 1000000) != LP_SWITCH_INTERRUPTED) {}
    } else {
        char byte;
        if (read(stop_pipe[0], &byte, 1) < 0) {}
    }
    lp_switch_watch_close(watch);
    return 0;
}

/// One round in a fresh process: microseconds from its start to the end of its computation.
static double round_in_child(void) {
    int pipe_ends[2];
    if (pipe(pipe_ends) != 0) perror("pipe"), exit(2);
    pid_t child = fork();
    if (child == 0) {
        main_thread = (pid_t)syscall(SYS_gettid);
        if (pipe(stop_pipe) != 0) _exit(2);
        uint64_t start = now_ns();
        pthread_attr_t attributes;
        pthread_attr_init(&attributes);
        cpu_set_t cpus;
        sched_getaffinity(0, sizeof cpus, &cpus);
        CPU_CLR(sched_getcpu(), &cpus);
        if (CPU_COUNT(&cpus) > 0) pthread_attr_setaffinity_np(&attributes, sizeof cpus, &cpus);
        pthread_t thread;
        pthread_create(&thread, &attributes, helper, 0);
        uint64_t x = 1;
        for (long step = 0; step < 15000000; step++) x = x * 6364136223846793005ull + 1;
        sink = x;
        double elapsed = (double)(now_ns() - start) / 1000.0;
        pthread_mutex_lock(&lock);
        stopped = 1;
        if (read_watch) lp_switch_watch_interrupt(read_watch);
        pthread_mutex_unlock(&lock);
        if (write(stop_pipe[1], "x", 1) != 1) _exit(2);
        pthread_join(thread, 0);
        if (write(pipe_ends[1], &elapsed, sizeof elapsed) != sizeof elapsed) _exit(2);
        _exit(0);
    }
    double elapsed = 0;
    if (read(pipe_ends[0], &elapsed, sizeof elapsed) != sizeof elapsed) fprintf(stderr, "a round failed\n"), exit(2);
    close(pipe_ends[0]);
    close(pipe_ends[1]);
    waitpid(child, 0, 0);
    return elapsed;
}

static int by_value(const void *a, const void *b) {
    double d = *(const double *)a - *(const double *)b;
    return d < 0 ? -1 : d > 0;
}

int main(int argc, char **argv) {
    int rounds = argc > 1 ? atoi(argv[1]) : 0;
    if (rounds < 4) fprintf(stderr, "usage: switch-watch-cost ROUNDS (4 or more)\n"), exit(2);
    double *times[SETTINGS];
    for (int s = 0; s < SETTINGS; s++) times[s] = calloc((size_t)rounds, sizeof(double));
    for (int round = 0; round < rounds; round++) {
        for (int turn = 0; turn < SETTINGS; turn++) {
            setting = round % 2 ? SETTINGS - 1 - turn : turn;
            times[setting][round] = round_in_child();
        }
    }
    double *differences = calloc((size_t)rounds, sizeof(double));
    for (int s = 1; s < SETTINGS; s++) {
        for (int round = 0; round < rounds; round++) differences[round] = times[s][round] - times[NOTHING][round];
        qsort(differences, (size_t)rounds, sizeof(double), by_value);
        printf("%-20s - nothing: median %+.1f µs (p25 %+.1f, p75 %+.1f)\n", names[s], differences[rounds / 2],
               differences[rounds / 4], differences[3 * rounds / 4]);
    }
    return 0;
}
