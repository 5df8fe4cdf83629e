#define _GNU_SOURCE
#include "LaunchTracingShims.h"

#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/resource.h>
#if defined(__linux__)
#include <sys/syscall.h>
#endif
#if defined(__x86_64__)
#include <cpuid.h>
#endif

lp_state_t lp_state = {
    .enabled = 1,
    .tick_source = LP_TICK_SOURCE_MONOTONIC,
};

__thread lp_thread_buffer *lp_tls_buffer __attribute__((tls_model("initial-exec"))) = 0;

int lp_cpu_counter_is_invariant(void) {
#if defined(__x86_64__)
    unsigned int eax, ebx, ecx, edx;
    if (!__get_cpuid(0x80000000, &eax, &ebx, &ecx, &edx) || eax < 0x80000007) return 0;
    if (!__get_cpuid(0x80000007, &eax, &ebx, &ecx, &edx)) return 0;
    return (edx >> 8) & 1;
#elif defined(__aarch64__)
    return 1;
#else
    return 0;
#endif
}

void lp_calibration_pair(uint64_t *ticks, uint64_t *ns) {
    uint64_t best_width = UINT64_MAX;
    for (int attempt = 0; attempt < 7; attempt++) {
        uint64_t before = lp_cpu_counter();
        uint64_t now = lp_monotonic_ns();
        uint64_t after = lp_cpu_counter();
        if (after - before < best_width) {
            best_width = after - before;
            *ticks = before + (after - before) / 2;
            *ns = now;
        }
    }
}

uint64_t lp_thread_id(void) {
#if defined(__linux__)
    return (uint64_t)syscall(SYS_gettid);
#elif defined(__APPLE__)
    uint64_t tid = 0;
    pthread_threadid_np(NULL, &tid);
    return tid;
#else
    return 0;
#endif
}

int lp_is_main_thread(void) {
#if defined(__linux__)
    return (pid_t)syscall(SYS_gettid) == getpid();
#elif defined(__APPLE__)
    return pthread_main_np();
#else
    return 0;
#endif
}

/// Stamps `runtimeInit` as early as a constructor can, and takes the first
/// calibration pair. `LAUNCHPROF_TRACING=0` turns tracing off from the start;
/// `LAUNCHPROF_CLOCK=monotonic` forces the clock_gettime path.
__attribute__((constructor(101))) static void lp_runtime_init(void) {
    uint64_t ticks = 0, ns = 0;
    lp_calibration_pair(&ticks, &ns);
    lp_state.start_pair_ticks = ticks;
    lp_state.start_pair_ns = ns;
    const char *clock = getenv("LAUNCHPROF_CLOCK");
    int force_monotonic = clock != 0 && strcmp(clock, "monotonic") == 0;
    if (!force_monotonic && lp_cpu_counter_is_invariant()) {
        lp_state.tick_source = LP_TICK_SOURCE_CPU_COUNTER;
        lp_state.runtime_init_ticks = ticks;
    } else {
        lp_state.tick_source = LP_TICK_SOURCE_MONOTONIC;
        lp_state.runtime_init_ticks = ns;
    }
    lp_state.runtime_init_ns = ns;
    const char *tracing = getenv("LAUNCHPROF_TRACING");
    if (tracing != 0 && strcmp(tracing, "0") == 0) lp_state.enabled = 0;
}

int lp_current_thread_name(uint8_t *buffer, long capacity) {
    if (capacity <= 0) return 0;
    buffer[0] = 0;
#if defined(__linux__) || defined(__APPLE__)
    if (pthread_getname_np(pthread_self(), (char *)buffer, (size_t)capacity) != 0) return 0;
#endif
    buffer[capacity - 1] = 0;
    return (int)strlen((const char *)buffer);
}

int lp_thread_rusage(struct rusage *usage) {
#if defined(__linux__)
    return getrusage(RUSAGE_THREAD, usage);
#else
    return getrusage(RUSAGE_SELF, usage);
#endif
}

void lp_set_current_thread_name(const char *name) {
    char truncated[16];
    strncpy(truncated, name, sizeof truncated - 1);
    truncated[sizeof truncated - 1] = 0;
#if defined(__linux__)
    pthread_setname_np(pthread_self(), truncated);
#elif defined(__APPLE__)
    pthread_setname_np(truncated);
#endif
}
