// Per-span resource accounting's slow path: a reading of the calling thread's
// CPU clock, and of its rusage and schedstat only when it left the CPU since
// the last reading. Boundaries within LP_ACCOUNTING_GRANULARITY_NS of a reading,
// and, up to LP_ACCOUNTING_LONGEST_NS, those until the gaps that could have held a
// wait add up to LP_ACCOUNTING_WAITABLE_NS (`lp_account_due`), take none: they are
// attributed from the readings around them at flush. Where a switch watch lends
// accounting its thread's switch count (LaunchHarness's sampler watches the main
// thread), a reading while the count stays put takes no system call either: the thread
// did not leave the CPU, so its CPU clock ran with the wall clock (lp_account_take_quiet).

#define _GNU_SOURCE
#include "LaunchTracingShims.h"

#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sched.h>
#include <sys/resource.h>
#include <unistd.h>
#if defined(__linux__)
#include <sys/syscall.h>
#endif

static uint64_t lp_thread_cpu_ns(void) {
    struct timespec now;
    if (clock_gettime(CLOCK_THREAD_CPUTIME_ID, &now) != 0) return 0;
    return (uint64_t)now.tv_sec * 1000000000ull + (uint64_t)now.tv_nsec;
}

/// The run-queue wait in an open schedstat ("run time, run-queue wait, timeslices"), or UINT64_MAX.
static uint64_t lp_schedstat_run_queue(int fd) {
    if (fd < 0) return UINT64_MAX;
    char text[96];
    ssize_t count = pread(fd, text, sizeof text, 0);
    if (count <= 0) return UINT64_MAX;
    int field = 0, digits = 0;
    uint64_t value = 0;
    for (ssize_t index = 0; index < count; index++) {
        char byte = text[index];
        if (byte >= '0' && byte <= '9') {
            if (field == 1) value = value * 10 + (uint64_t)(byte - '0'), digits++;
        } else {
            if (field == 1) break;
            field++;
        }
    }
    return digits > 0 ? value : UINT64_MAX;
}

/// The thread's schedstat, opened. The main thread's is the process's own
/// (`/proc/self/schedstat` is its group leader's, not a sum over threads): one new
/// entry under `/proc/self`, which the Swift runtime has looked up already, where
/// `task/TID/schedstat` makes three (7 against 13 µs a first open on a virtual machine).
static int lp_open_schedstat(uint64_t thread_id) {
#if defined(__linux__)
    if (lp_is_main_thread_id(thread_id)) return open("/proc/self/schedstat", O_RDONLY | O_CLOEXEC);
    char path[64];
    snprintf(path, sizeof path, "/proc/self/task/%llu/schedstat", (unsigned long long)thread_id);
    return open(path, O_RDONLY | O_CLOEXEC);
#else
    return -1;
#endif
}

/// True when ticks convert to nanoseconds exactly enough to tell a late reading:
/// ticks are nanoseconds, or the CPU counter has run 1 ms past the constructor's
/// calibration pair (before that `lp_ticks_in` goes by the counter's stated
/// frequency, or 1 tick a nanosecond).
static int lp_ticks_calibrated(uint64_t tick, uint64_t wall_ns) {
    if (lp_state.tick_source != LP_TICK_SOURCE_CPU_COUNTER) return 1;
    return wall_ns > lp_state.start_pair_ns && wall_ns - lp_state.start_pair_ns >= 1000000 && tick > lp_state.start_pair_ticks;
}

/// Ticks in `ns` nanoseconds of the tick source, from the constructor's calibration
/// pair and this reading. Until 1 ms has passed (`lp_ticks_calibrated`): from the
/// counter's stated frequency where the hardware states it (arm64), else 1 tick a
/// nanosecond (x86's invariant TSC runs at 1 GHz or more, so that errs towards
/// reading more often).
static uint64_t lp_ticks_in(uint64_t ns, uint64_t tick, uint64_t wall_ns) {
    if (lp_state.tick_source != LP_TICK_SOURCE_CPU_COUNTER) return ns;
    if (!lp_ticks_calibrated(tick, wall_ns)) {
        return lp_state.counter_hz != 0 ? (uint64_t)((double)ns * (double)lp_state.counter_hz / 1e9) : ns;
    }
    return (uint64_t)((double)ns * (double)(tick - lp_state.start_pair_ticks) / (double)(wall_ns - lp_state.start_pair_ns));
}

/// A free slot for the next reading of `accounting`, chaining a new block (twice
/// the last one's size) when the current one is full; NULL when memory is short.
/// Blocks already written are never moved: a flush may be copying them.
static lp_reading *lp_account_slot(lp_accounting *accounting) {
    lp_reading_block *block = accounting->current;
    if (block != 0 && accounting->used < block->capacity) return &block->readings[accounting->used];
    // After a rewind the blocks of the last recording are reused in order.
    lp_reading_block *next = block == 0 ? accounting->first : block->next;
    if (next == 0) {
        long capacity = block == 0 ? 256 : block->capacity * 2;
        next = malloc(sizeof(lp_reading_block) + (size_t)capacity * sizeof(lp_reading));
        if (next == 0) return 0;
        next->next = 0;
        next->capacity = capacity;
        // Published by the release store of `count` after its first reading.
        if (block == 0) accounting->first = next; else block->next = next;
    }
    accounting->current = next;
    accounting->used = 0;
    return &next->readings[0];
}

/// Nanoseconds in `ticks` ticks of the tick source, the inverse of `lp_ticks_in`
/// (only where `lp_ticks_calibrated`).
static uint64_t lp_ns_in(uint64_t ticks, uint64_t tick, uint64_t wall_ns) {
    if (lp_state.tick_source != LP_TICK_SOURCE_CPU_COUNTER) return ticks;
    return (uint64_t)((double)ticks * (double)(wall_ns - lp_state.start_pair_ns) / (double)(tick - lp_state.start_pair_ticks));
}

/// The run-queue wait read from `accounting`'s schedstat (opened at its first use), counted as system calls.
static uint64_t lp_account_run_queue(lp_accounting *accounting) {
    if (accounting->schedstat_fd == -2) {
        accounting->schedstat_fd = lp_open_schedstat(accounting->thread_id);
        accounting->system_calls += 1;
    }
    if (accounting->schedstat_fd >= 0) accounting->system_calls += 1;
    return lp_schedstat_run_queue(accounting->schedstat_fd);
}

/// Counts lent by switch watches (`lp_account_count_switches`), each published whole
/// in a slot; `users` counts the readings using one, so that taking it back can wait
/// for them before its ring is unmapped; `lent` counts those lent now: a reading of a
/// program with no switch watch (any but LaunchHarness's) looks no further than that
/// load, and one lent as it loads is seen at the next reading.
///
/// One object within one page (128-byte aligned, at most 128 bytes), which
/// `lp_account_prepare_switch_counts` writes before any count is lent. Otherwise the
/// first reading's load of `lent` maps the shared zero page there, and the watch's
/// thread that lends a count later takes a copy-on-write fault whose TLB flush
/// interrupts the reading thread on its CPU (one cross-CPU flush in every harness
/// launch, seen with the `tlb:tlb_flush` tracepoint).
typedef struct {
    const uint64_t *head;
    const uint64_t *tail;
    uint64_t data_size;
    uint64_t thread_id;
} lp_switch_count_t;
enum { LP_SWITCH_COUNT_SLOTS = 8 };
static struct {
    lp_switch_count_t *slots[LP_SWITCH_COUNT_SLOTS];
    int users;
    int lent;
    int prepared;
} lp_switch_counts __attribute__((aligned(128)));
_Static_assert(sizeof lp_switch_counts <= 128, "the switch counts must not straddle a page");

void lp_account_prepare_switch_counts(void) {
    __atomic_store_n(&lp_switch_counts.prepared, 1, __ATOMIC_RELAXED);
}

int lp_account_count_switches(uint64_t thread_id, const uint64_t *head, const uint64_t *tail, uint64_t data_size) {
    lp_switch_count_t *count = malloc(sizeof *count);
    if (count == 0) return 0;
    *count = (lp_switch_count_t){.head = head, .tail = tail, .data_size = data_size, .thread_id = thread_id};
    for (int slot = 0; slot < LP_SWITCH_COUNT_SLOTS; slot++) {
        lp_switch_count_t *none = 0;
        if (__atomic_compare_exchange_n(&lp_switch_counts.slots[slot], &none, count, 0, __ATOMIC_SEQ_CST, __ATOMIC_SEQ_CST)) {
            __atomic_add_fetch(&lp_switch_counts.lent, 1, __ATOMIC_SEQ_CST);
            return 1;
        }
    }
    free(count);
    return 0;
}

void lp_account_stop_counting_switches(const uint64_t *head) {
    for (int slot = 0; slot < LP_SWITCH_COUNT_SLOTS; slot++) {
        lp_switch_count_t *count = __atomic_load_n(&lp_switch_counts.slots[slot], __ATOMIC_SEQ_CST);
        if (count == 0 || count->head != head) continue;
        if (!__atomic_compare_exchange_n(&lp_switch_counts.slots[slot], &count, 0, 0, __ATOMIC_SEQ_CST, __ATOMIC_SEQ_CST)) {
            return;
        }
        __atomic_sub_fetch(&lp_switch_counts.lent, 1, __ATOMIC_SEQ_CST);
        // A reading that loaded the count before it was taken back finishes with it first.
        while (__atomic_load_n(&lp_switch_counts.users, __ATOMIC_SEQ_CST) != 0) sched_yield();
        free(count);
        return;
    }
}

/// The head of a switch count lent for thread `thread_id`, read now, in `*head`; 0
/// when none is lent for it, or its ring is more than half full.
static int lp_switch_head(uint64_t thread_id, uint64_t *head) {
    if (__atomic_load_n(&lp_switch_counts.lent, __ATOMIC_RELAXED) == 0) return 0;
    int found = 0;
    __atomic_add_fetch(&lp_switch_counts.users, 1, __ATOMIC_SEQ_CST);
    for (int slot = 0; slot < LP_SWITCH_COUNT_SLOTS; slot++) {
        const lp_switch_count_t *count = __atomic_load_n(&lp_switch_counts.slots[slot], __ATOMIC_SEQ_CST);
        if (count == 0 || count->thread_id != thread_id) continue;
        uint64_t now = __atomic_load_n(count->head, __ATOMIC_ACQUIRE);
        uint64_t tail = __atomic_load_n(count->tail, __ATOMIC_ACQUIRE);
        if (now - tail <= count->data_size / 2) {
            *head = now;
            found = 1;
        }
        break;
    }
    __atomic_sub_fetch(&lp_switch_counts.users, 1, __ATOMIC_SEQ_CST);
    return found;
}

/// Takes the reading without a system call when the thread's switch count has not moved
/// since the last reading that read the CPU clock (less than
/// `LP_ACCOUNTING_QUIET_LONGEST_NS` ago): it did not leave the CPU since `last`, so its
/// CPU clock has run with the wall clock, and its counters and run-queue wait are
/// `last`'s. `reading->wall_ns` is read already. Returns 0 when it must read.
static int lp_account_take_quiet(lp_accounting *accounting, const lp_reading *last, lp_reading *reading) {
    uint64_t head;
    if (last == 0 || !accounting->switch_head_valid || reading->wall_ns < last->wall_ns
        || reading->wall_ns - accounting->switch_head_wall_ns >= LP_ACCOUNTING_QUIET_LONGEST_NS
        || !lp_switch_head(accounting->thread_id, &head) || head != accounting->switch_head) {
        return 0;
    }
    reading->cpu_ns = last->cpu_ns + (reading->wall_ns - last->wall_ns);
    reading->voluntary_switches = last->voluntary_switches;
    reading->involuntary_switches = last->involuntary_switches;
    reading->minor_faults = last->minor_faults;
    reading->major_faults = last->major_faults;
    reading->run_queue_ns = last->run_queue_ns;
    accounting->quiet_readings += 1;
    return 1;
}

/// Takes the calling thread's usage now: the wall and CPU clocks, and, when it left
/// the CPU since `last`, its rusage and schedstat (otherwise those of `last` hold).
static void lp_account_take(lp_accounting *accounting, const lp_reading *last, lp_reading *reading) {
    reading->wall_ns = lp_monotonic_ns();
    if (lp_account_take_quiet(accounting, last, reading)) return;
    // The switch count around the CPU clock: unmoved, a later reading that finds it
    // where it is now knows the thread stayed on the CPU from this reading to that one.
    uint64_t head_before = 0, head_after = 1;
    int counted = lp_switch_head(accounting->thread_id, &head_before);
    reading->cpu_ns = lp_thread_cpu_ns();
    accounting->system_calls += 1;
    // After readings taken without the CPU clock, which ran it with the wall clock, the
    // clock may be behind the last of them by the time interrupts and the hypervisor took
    // (which it does not count): that time falls here, as time off the CPU before this
    // reading, as it would have been spread over readings taken with the clock.
    if (last != 0 && reading->cpu_ns < last->cpu_ns) reading->cpu_ns = last->cpu_ns;
    accounting->switch_head_valid = counted && lp_switch_head(accounting->thread_id, &head_after)
        && head_after == head_before;
    accounting->switch_head = head_before;
    accounting->switch_head_wall_ns = reading->wall_ns;
    int64_t gap = last == 0 ? INT64_MAX
        : (int64_t)(reading->wall_ns - last->wall_ns) - (int64_t)(reading->cpu_ns - last->cpu_ns);
    if (last != 0 && gap < LP_OFF_CPU_GAP_NS) {
        // It stayed on the CPU: no switch, no fault that blocked, no run-queue wait.
        reading->voluntary_switches = last->voluntary_switches;
        reading->involuntary_switches = last->involuntary_switches;
        reading->minor_faults = last->minor_faults;
        reading->major_faults = last->major_faults;
        reading->run_queue_ns = last->run_queue_ns;
        return;
    }
    struct rusage usage;
    accounting->system_calls += 1;
    if (lp_thread_rusage(&usage) == 0) {
        reading->voluntary_switches = (uint64_t)usage.ru_nvcsw;
        reading->involuntary_switches = (uint64_t)usage.ru_nivcsw;
        reading->minor_faults = (uint64_t)usage.ru_minflt;
        reading->major_faults = (uint64_t)usage.ru_majflt;
    } else if (last != 0) {
        reading->voluntary_switches = last->voluntary_switches;
        reading->involuntary_switches = last->involuntary_switches;
        reading->minor_faults = last->minor_faults;
        reading->major_faults = last->major_faults;
    } else {
        reading->voluntary_switches = reading->involuntary_switches = reading->minor_faults = reading->major_faults = 0;
    }
    // The run-queue wait grows only after a switch.
    if (last != 0 && last->run_queue_ns != UINT64_MAX
        && last->voluntary_switches + last->involuntary_switches == reading->voluntary_switches + reading->involuntary_switches) {
        reading->run_queue_ns = last->run_queue_ns;
    } else {
        reading->run_queue_ns = lp_account_run_queue(accounting);
    }
}

/// An end's reading the thread was switched out before finishing (the span ended
/// at tick `end`): the wait fell after the span's end, and schedstat may hold it.
/// Reads the CPU clock and schedstat again into `raw` (the thread's usage now, what
/// the next reading starts from), and makes `reading` that of the moment the span
/// ended: the wall time since the end that the CPU clock did not count (the wait)
/// comes out of its run-queue wait, never below `last`'s. The wait then falls
/// between this reading and the next, outside every span.
static void lp_account_late_end(
    lp_accounting *accounting, const lp_reading *last, lp_reading *reading, lp_reading *raw, uint64_t end) {
    uint64_t cpu = lp_thread_cpu_ns();
    uint64_t run_queue = lp_account_run_queue(accounting);
    uint64_t now = lp_now_ticks(), wall = lp_monotonic_ns();
    accounting->system_calls += 1;
    if (run_queue == UINT64_MAX || !lp_ticks_calibrated(now, wall)) return;
    uint64_t since_end = lp_ns_in(now - end, now, wall);
    uint64_t ran = cpu > reading->cpu_ns ? cpu - reading->cpu_ns : 0;
    uint64_t waited = since_end > ran ? since_end - ran : 0;
    raw->wall_ns = wall;
    raw->cpu_ns = cpu;
    raw->run_queue_ns = run_queue;
    uint64_t floor = last != 0 && last->run_queue_ns != UINT64_MAX ? last->run_queue_ns : 0;
    reading->run_queue_ns = run_queue > floor + waited ? run_queue - waited : floor;
    if (wall > since_end) reading->wall_ns = wall - since_end;
}

__attribute__((noinline, cold)) void lp_account_read(lp_thread_buffer *buffer, lp_event *event, int at_begin, uint64_t end) {
    lp_accounting *accounting = buffer->usage;
    if (accounting == 0) {
        accounting = calloc(1, sizeof *accounting);
        if (accounting == 0) return;
        accounting->schedstat_fd = -2;
        accounting->thread_id = lp_thread_id();
        __atomic_store_n(&buffer->usage, accounting, __ATOMIC_RELEASE);
    }
    lp_reading *slot = lp_account_slot(accounting);
    if (slot == 0) return;  // attributed from the readings there are
    const lp_reading *last = accounting->count > 0 ? &accounting->last : 0;
    // `reading` is published for the boundary; `raw`, the usage as read, is what the
    // next reading starts from (they differ after a late end).
    lp_reading reading, raw;
    if (at_begin) {
        // The begin is stamped again after the reading, so the reading is outside the
        // span. A thread switched out between the two would begin the span after a wait
        // its reading does not hold (and its end's reading does): taken again, up to twice.
        for (int tries = 0;; tries++) {
            uint64_t start = lp_now_ticks();
            lp_account_take(accounting, last, &reading);
            event->begin = lp_now_ticks();
            if (tries == 2 || !lp_ticks_calibrated(event->begin, reading.wall_ns)
                || event->begin - start <= lp_ticks_in(LP_LATE_READING_NS, event->begin, reading.wall_ns)) break;
        }
        reading.tick = event->begin;
        raw = reading;
    } else {
        lp_account_take(accounting, last, &reading);
        reading.tick = end;
        raw = reading;
        uint64_t now = lp_now_ticks();
        if (lp_ticks_calibrated(now, reading.wall_ns) && now - end > lp_ticks_in(LP_LATE_READING_NS, now, reading.wall_ns)) {
            lp_account_late_end(accounting, last, &reading, &raw, end);
        }
    }
    *slot = reading;
    accounting->last = raw;
    accounting->used += 1;
    // Publishes the reading (and a block chained for it) to a flush.
    __atomic_store_n(&accounting->count, accounting->count + 1, __ATOMIC_RELEASE);
    buffer->next_reading_tick = reading.tick + lp_ticks_in(LP_ACCOUNTING_GRANULARITY_NS, reading.tick, reading.wall_ns);
    buffer->forced_reading_tick = reading.tick + lp_ticks_in(LP_ACCOUNTING_LONGEST_NS, reading.tick, reading.wall_ns);
    buffer->waitable_limit_ticks = lp_ticks_in(LP_ACCOUNTING_WAITABLE_NS, reading.tick, reading.wall_ns);
    buffer->off_cpu_gap_ticks = lp_ticks_in(LP_OFF_CPU_GAP_NS, reading.tick, reading.wall_ns);
    buffer->waitable_ticks = 0;
}

void lp_account_end_elsewhere(lp_thread_buffer *buffer, lp_event *event, uint64_t end) {
    // Began by `buffer`'s thread in an earlier chunk?
    if (buffer != 0 && buffer->accounting) {
        for (const lp_chunk *chunk = buffer->first; chunk != 0 && chunk != buffer->current; chunk = chunk->next) {
            lp_event *events = lp_chunk_events(chunk);
            if (event >= events && event < chunk->end) {
                lp_account_end_boundary(buffer, event, end);
                return;
            }
        }
    }
    // Ended on another thread: that thread's readings say nothing of this one.
    __atomic_fetch_and(&event->kind, (uint8_t)~LP_EVENT_FLAG_USAGE, __ATOMIC_RELAXED);
}

void lp_account_rewind(lp_thread_buffer *buffer) {
    if (buffer->usage != 0) {
        buffer->usage->current = 0;
        buffer->usage->used = 0;
        buffer->usage->count = 0;
        buffer->usage->system_calls = 0;
        buffer->usage->quiet_readings = 0;
        buffer->usage->switch_head_valid = 0;
    }
    lp_account_read_next(buffer);
}

void lp_account_release(lp_thread_buffer *buffer) {
    lp_accounting *accounting = buffer->usage;
    buffer->usage = 0;
    lp_account_read_next(buffer);
    if (accounting == 0) return;
    if (accounting->schedstat_fd >= 0) close(accounting->schedstat_fd);
    for (lp_reading_block *block = accounting->first; block != 0;) {
        lp_reading_block *next = block->next;
        free(block);
        block = next;
    }
    free(accounting);
}

long lp_account_reading_count(const lp_thread_buffer *buffer) {
    const lp_accounting *accounting = __atomic_load_n(&buffer->usage, __ATOMIC_ACQUIRE);
    return accounting == 0 ? 0 : __atomic_load_n(&accounting->count, __ATOMIC_ACQUIRE);
}

long lp_account_copy_readings(const lp_thread_buffer *buffer, lp_reading *into, long count) {
    const lp_accounting *accounting = __atomic_load_n(&buffer->usage, __ATOMIC_ACQUIRE);
    if (accounting == 0) return 0;
    long published = __atomic_load_n(&accounting->count, __ATOMIC_ACQUIRE);
    if (count > published) count = published;
    // Every block holding one of the first `published` readings was chained before it was published.
    // A block's `next` is read only when a published reading lies beyond it: the
    // thread may be chaining the next block now.
    long copied = 0;
    for (const lp_reading_block *block = count > 0 ? accounting->first : 0; block != 0; block = block->next) {
        long take = count - copied < block->capacity ? count - copied : block->capacity;
        memcpy(into + copied, block->readings, (size_t)take * sizeof(lp_reading));
        copied += take;
        if (copied == count) break;
    }
    return copied;
}

uint64_t lp_account_system_calls(const lp_thread_buffer *buffer) {
    return buffer->usage == 0 ? 0 : buffer->usage->system_calls;
}

uint64_t lp_account_quiet_readings(const lp_thread_buffer *buffer) {
    return buffer->usage == 0 ? 0 : buffer->usage->quiet_readings;
}
