// What a second thread's wake-ups cost a thread that computes: the main thread computes
// about 33 ms while another thread sleeps to a deadline every PERIOD_US (doing nothing
// else), pinned to the main thread's CPU, to another, or free. Prints the main thread's
// wall and CPU time (ms), its preemptions and the sleeper's wake-ups.
//
//   cc -O2 -o /tmp/wakeup-cost Benchmarks/wakeup-cost.c -lpthread
//   /tmp/wakeup-cost ON PIN PERIOD_US    (ON 0|1; PIN 0 free, 1 the main thread's CPU, 2 CPU 1)
//
// Alternate the modes launch by launch and compare medians (RESULTS.md, "Issue 36's bounds,
// third round"): on a 2-core virtual machine a 1 ms sleeper cost +1.0 ms of a 33 ms computation.
#define _GNU_SOURCE
#include <pthread.h>
#include <sched.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/resource.h>
#include <time.h>

static volatile int stop;
static int pin, period_us, wakeups;

static uint64_t now(void) {
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (uint64_t)t.tv_sec * 1000000000ull + (uint64_t)t.tv_nsec;
}

static void set_cpu(int cpu) {
    cpu_set_t set;
    CPU_ZERO(&set);
    CPU_SET(cpu, &set);
    sched_setaffinity(0, sizeof set, &set);
}

static void *sleeper(void *unused) {
    (void)unused;
    if (pin == 1) set_cpu(0);
    if (pin == 2) set_cpu(1);
    uint64_t next = now();
    while (!stop) {
        wakeups++;
        next += (uint64_t)period_us * 1000;
        struct timespec deadline = {(time_t)(next / 1000000000), (long)(next % 1000000000)};
        clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &deadline, 0);
    }
    return 0;
}

static double work(void) {
    static double a[1 << 16];
    double sum = 0;
    for (int round = 0; round < 400; round++)
        for (int i = 0; i < (1 << 16); i++) {
            a[i] = a[i] * 0.5 + i;
            sum += a[i];
        }
    return sum;
}

int main(int argc, char **argv) {
    if (argc != 4) {
        fprintf(stderr, "usage: wakeup-cost ON PIN PERIOD_US\n");
        return 2;
    }
    int on = atoi(argv[1]);
    pin = atoi(argv[2]);
    period_us = atoi(argv[3]);
    if (pin) set_cpu(0);
    pthread_t thread;
    if (on) pthread_create(&thread, 0, sleeper, 0);
    struct timespec cpu_before, cpu_after;
    uint64_t start = now();
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &cpu_before);
    double sum = work();
    uint64_t end = now();
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &cpu_after);
    stop = 1;
    if (on) pthread_join(thread, 0);
    struct rusage usage;
    getrusage(RUSAGE_THREAD, &usage);
    double cpu_ms = (double)(cpu_after.tv_sec - cpu_before.tv_sec) * 1e3 + (cpu_after.tv_nsec - cpu_before.tv_nsec) / 1e6;
    printf("wall %.3f ms cpu %.3f ms preempted %ld wakeups %d (%d)\n", (end - start) / 1e6, cpu_ms, usage.ru_nivcsw,
           wakeups, sum > 0);
    return 0;
}
