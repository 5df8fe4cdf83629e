// Valgrind client requests, written by hand after valgrind.h (its magic
// instruction sequences for x86-64 and arm64 Linux), so the tracer builds where
// valgrind's headers are not installed. Elsewhere they do nothing.

#include "ValgrindRequests.h"
#include <stdlib.h>
#include <string.h>

#if defined(__linux__) && (defined(__x86_64__) || defined(__aarch64__))
#define LP_HAS_CLIENT_REQUESTS 1
#endif

/// Issues client request `request` with `arg1`; returns `fallback` when not under valgrind.
static unsigned long lp_client_request(unsigned long fallback, unsigned long request, unsigned long arg1) {
#if defined(LP_HAS_CLIENT_REQUESTS)
    volatile unsigned long args[6] = { request, arg1, 0, 0, 0, 0 };
    volatile unsigned long result;
#if defined(__x86_64__)
    __asm__ volatile("rolq $3,  %%rdi ; rolq $13, %%rdi\n\t"
                     "rolq $61, %%rdi ; rolq $51, %%rdi\n\t"
                     "xchgq %%rbx,%%rbx"
                     : "=d"(result)
                     : "a"(&args[0]), "0"(fallback)
                     : "cc", "memory");
#else
    __asm__ volatile("mov x3, %1\n\t"
                     "mov x4, %2\n\t"
                     "ror x12, x12, #3  ;  ror x12, x12, #13 \n\t"
                     "ror x12, x12, #51 ;  ror x12, x12, #61 \n\t"
                     "orr x10, x10, x10\n\t"
                     "mov %0, x3"
                     : "=r"(result)
                     : "r"(fallback), "r"(&args[0])
                     : "cc", "memory", "x3", "x4");
#endif
    return result;
#else
    (void)request;
    (void)arg1;
    return fallback;
#endif
}

enum {
    LP_VG_RUNNING_ON_VALGRIND = 0x1001,
    LP_CALLGRIND_BASE = (('C' & 0xff) << 24) | (('T' & 0xff) << 16),
    LP_CALLGRIND_DUMP_STATS_AT = LP_CALLGRIND_BASE + 3,
};

int lp_running_on_valgrind(void) {
    return lp_client_request(0, LP_VG_RUNNING_ON_VALGRIND, 0) != 0;
}

static int lp_marks_enabled = 0;

int lp_instruction_marks_enabled(void) { return lp_marks_enabled; }

void lp_callgrind_dump_at(const char *name) {
    if (!lp_marks_enabled) return;
    lp_client_request(0, LP_CALLGRIND_DUMP_STATS_AT, (unsigned long)name);
}

/// After the tracer's own constructor stamps `runtimeInit` (priority 101): what
/// ran before it is the loader's, so the first dump closes the `loader` phase.
__attribute__((constructor(102))) static void lp_instruction_marks_init(void) {
    const char *wanted = getenv("LAUNCHPROF_COUNT_INSTRUCTIONS");
    if (wanted == 0 || strcmp(wanted, "1") != 0) return;
    if (!lp_running_on_valgrind()) return;
    lp_marks_enabled = 1;
    lp_callgrind_dump_at("launchprof:milestone:runtimeInit");
}
