// What starting a thread costs the thread that starts it, in a fresh process busy on its
// CPU, as the main thread of a launch is when it starts the sampler: each round forks a
// child that computes for a few milliseconds, then times two `pthread_create`s of detached
// threads (the first of the process and the second). With the affinity attribute the
// sampler uses (every CPU of the process but the creator's), or without.
//
//   cc -O2 -o /tmp/thread-start-cost Benchmarks/thread-start-cost.c -lpthread
//   /tmp/thread-start-cost AFFINITY ROUNDS    (AFFINITY 0 or 1)
//
// RESULTS.md, "Issue 36's bounds, eighth round": 200 rounds on a 2-core virtual machine,
// the first 71 and 91 µs with the attribute (two runs) and 123 µs without (the new thread
// runs first on its creator's CPU), the second 36–39 µs.
#define _GNU_SOURCE
#include <pthread.h>
#include <sched.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

static volatile uint64_t sink;

static uint64_t now_ns(void) {
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (uint64_t)t.tv_sec * 1000000000ull + (uint64_t)t.tv_nsec;
}

static void *body(void *unused) {
    (void)unused;
    return 0;
}

static int by_value(const void *a, const void *b) {
    double d = *(const double *)a - *(const double *)b;
    return d < 0 ? -1 : d > 0;
}

int main(int argc, char **argv) {
    int rounds = argc > 2 ? atoi(argv[2]) : 0;
    if (argc < 3 || rounds < 4) fprintf(stderr, "usage: thread-start-cost AFFINITY(0|1) ROUNDS(4 or more)\n"), exit(2);
    int affinity = atoi(argv[1]);
    double *first = calloc((size_t)rounds, sizeof(double)), *second = calloc((size_t)rounds, sizeof(double));
    for (int round = 0; round < rounds; round++) {
        int pipe_ends[2];
        if (pipe(pipe_ends) != 0) perror("pipe"), exit(2);
        if (fork() == 0) {
            pthread_attr_t attributes;
            pthread_attr_init(&attributes);
            pthread_attr_setdetachstate(&attributes, PTHREAD_CREATE_DETACHED);
            if (affinity) {
                cpu_set_t cpus;
                sched_getaffinity(0, sizeof cpus, &cpus);
                CPU_CLR(sched_getcpu(), &cpus);
                if (CPU_COUNT(&cpus) > 0) pthread_attr_setaffinity_np(&attributes, sizeof cpus, &cpus);
            }
            uint64_t x = 1;
            for (long step = 0; step < 2000000; step++) x = x * 6364136223846793005ull + 1;  // be running
            sink = x;
            pthread_t thread;
            uint64_t start = now_ns();
            pthread_create(&thread, &attributes, body, 0);
            uint64_t between = now_ns();
            pthread_create(&thread, &attributes, body, 0);
            double times[2] = {(double)(between - start) / 1000.0, (double)(now_ns() - between) / 1000.0};
            if (write(pipe_ends[1], times, sizeof times) != sizeof times) _exit(2);
            _exit(0);
        }
        double times[2] = {0, 0};
        if (read(pipe_ends[0], times, sizeof times) != sizeof times) fprintf(stderr, "a round failed\n"), exit(2);
        close(pipe_ends[0]);
        close(pipe_ends[1]);
        wait(0);
        first[round] = times[0];
        second[round] = times[1];
    }
    qsort(first, (size_t)rounds, sizeof(double), by_value);
    qsort(second, (size_t)rounds, sizeof(double), by_value);
    printf("affinity %d: the first pthread_create %.1f µs (p25 %.1f, p75 %.1f), the second %.1f µs\n", affinity,
           first[rounds / 2], first[rounds / 4], first[3 * rounds / 4], second[rounds / 2]);
    return 0;
}
