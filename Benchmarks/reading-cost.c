// The wall-time cost of a per-span accounting reading, in the steady state of a
// thread whose spans are each long enough to be read (45 µs of work: one reading
// a span): an accounted span against an unaccounted one, each side's fastest of
// BATCHES turns of 20 spans, interleaved, after 200 accounted spans and 100 ms.
// Also the system calls a reading made. Built against the shims alone (no Swift):
//
//   cc -O2 -w -ISources/_LaunchTracingShims/include -o /tmp/reading-cost \
//      Benchmarks/reading-cost.c Sources/_LaunchTracingShims/*.c -lpthread
//   /tmp/reading-cost 300 41000   # BATCHES, STEPS of work a span (41,000: about 45 µs here)
//
// Build it again against another checkout's shims to compare two versions.

#include "LaunchTracingShims.h"
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

static volatile uint64_t sink;

static void work(int steps) {
    uint64_t x = 1;
    for (int i = 0; i < steps; i++) x = x * 6364136223846793005ull + 1;
    sink = x;
}

static uint64_t turn(lp_thread_buffer *buffer, int spans, int steps, int accounted) {
    buffer->accounting = accounted;
    uint64_t start = lp_monotonic_ns();
    for (int i = 0; i < spans; i++) {
        lp_event *event = lp_record(buffer, LP_EVENT_SPAN, 0, "Row", "reading-cost.c", 0, 1, accounted);
        work(steps);
        if (event == 0) continue;
        uint64_t end = lp_end(event);
        if (accounted) lp_account_end(event, end);
    }
    return lp_monotonic_ns() - start;
}

int main(int argc, char **argv) {
    if (argc != 3) {
        fprintf(stderr, "usage: reading-cost BATCHES STEPS\n");
        return 2;
    }
    int batches = atoi(argv[1]), steps = atoi(argv[2]);
    static lp_thread_buffer buffer;
    lp_adopt_buffer(&buffer);
    turn(&buffer, 200, steps, 1);
    usleep(100000);
    uint64_t accounted = UINT64_MAX, plain = UINT64_MAX;
    uint64_t calls = lp_account_system_calls(&buffer);
    long readings = lp_account_reading_count(&buffer);
    for (int i = 0; i < batches; i++) {
        uint64_t a = turn(&buffer, 20, steps, 1), p = turn(&buffer, 20, steps, 0);
        if (a < accounted) accounted = a;
        if (p < plain) plain = p;
    }
    readings = lp_account_reading_count(&buffer) - readings;
    calls = lp_account_system_calls(&buffer) - calls;
    printf("accounted span: %.0f ns over an unaccounted one (fastest of %d turns of 20, %d steps a span); "
           "%.2f readings a span, %.2f system calls a reading\n",
           ((double)accounted - (double)plain) / 20, batches, steps,
           (double)readings / (20.0 * batches), readings > 0 ? (double)calls / (double)readings : 0);
    return 0;
}
