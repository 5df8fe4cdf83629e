// What the sampler's switch watch costs a thread that computes, in a fresh process as in a
// launch: each round forks a child whose main thread starts a helper thread (kept off its
// CPU, as the sampler is, and asleep until the end) and computes about 24 ms; the helper
// opens nothing, or a
// context-switch watch on the main thread (the sampler's settings: a wake-up at every
// record), without a ring, with a ring it never reads, or with a ring it drains at each
// wake-up. Prints, for each watch, the paired difference in the child's time from its
// start to the end of the computation against the helper that opens nothing (median, p25,
// p75 of ROUNDS), the four settings in turn, the order reversed every other round.
//
//   cc -O2 -o /tmp/switch-watch-cost Benchmarks/switch-watch-cost.c -lpthread
//   /tmp/switch-watch-cost ROUNDS      (Linux; perf_event_paranoid 2 suffices)
//
// RESULTS.md, "Issue 36's bounds, eighth round": on a 2-core virtual machine the
// differences (tens of microseconds) sat inside quartiles of ±600 µs in 400 rounds; the
// launch's own measure is Benchmarks/milestone-split.py.
#define _GNU_SOURCE
#include <linux/perf_event.h>
#include <poll.h>
#include <pthread.h>
#include <sched.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/eventfd.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

enum { NOTHING, WATCH, WATCH_RING, WATCH_RING_READ, SETTINGS };
static const char *names[SETTINGS] = {"nothing", "watch, no ring", "watch, ring unread", "watch, ring drained"};
static const size_t ring_bytes = 4096 * 9;  // the sampler's: a header page and 8 data pages

static pid_t main_thread;
static int setting;
static int stop_event;  // an eventfd written when the computation ends
static volatile uint64_t sink;

static uint64_t now_ns(void) {
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (uint64_t)t.tv_sec * 1000000000ull + (uint64_t)t.tv_nsec;
}

static void *helper(void *unused) {
    (void)unused;
    int fd = -1;
    void *ring = 0;
    if (setting != NOTHING) {
        struct perf_event_attr attr;
        memset(&attr, 0, sizeof attr);
        attr.size = sizeof attr;
        attr.type = PERF_TYPE_SOFTWARE;
        attr.config = PERF_COUNT_SW_DUMMY;
        attr.context_switch = 1;
        attr.exclude_kernel = 1;
        attr.exclude_hv = 1;
        attr.watermark = 1;
        attr.wakeup_watermark = 1;
        attr.sample_id_all = 1;
        attr.sample_type = PERF_SAMPLE_CPU;
        fd = (int)syscall(SYS_perf_event_open, &attr, main_thread, -1, -1, PERF_FLAG_FD_CLOEXEC);
        if (fd < 0) perror("perf_event_open"), _exit(2);
        if (setting != WATCH) {
            ring = mmap(0, ring_bytes, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
            if (ring == MAP_FAILED) perror("mmap"), _exit(2);
        }
    }
    // Every setting idles the same way, asleep until the end (no timer: a helper's own
    // wake-ups cost a computing thread on a virtual machine, see wakeup-cost.c); the drained
    // ring's helper is also woken by the watch.
    struct pollfd waits[2] = {{.fd = stop_event, .events = POLLIN}, {.fd = fd, .events = POLLIN}};
    int watched = setting == WATCH_RING_READ ? 2 : 1;
    while (poll(waits, (nfds_t)watched, -1) >= 0 && !(waits[0].revents & POLLIN)) {
        struct perf_event_mmap_page *page = ring;
        __atomic_store_n(&page->data_tail, __atomic_load_n(&page->data_head, __ATOMIC_ACQUIRE), __ATOMIC_RELEASE);
    }
    if (ring) munmap(ring, ring_bytes);
    if (fd >= 0) close(fd);
    return 0;
}

/// One round in a fresh process: microseconds from its start to the end of its computation.
static double round_in_child(void) {
    int pipe_ends[2];
    if (pipe(pipe_ends) != 0) perror("pipe"), exit(2);
    pid_t child = fork();
    if (child == 0) {
        main_thread = (pid_t)syscall(SYS_gettid);
        stop_event = eventfd(0, EFD_CLOEXEC);
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
        uint64_t one = 1;
        if (write(stop_event, &one, sizeof one) != sizeof one) _exit(2);
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
