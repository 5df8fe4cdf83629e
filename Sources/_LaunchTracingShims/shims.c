#define _GNU_SOURCE
#include "LaunchTracingShims.h"

#include <pthread.h>
#include <sched.h>
#include <signal.h>
#include "ValgrindRequests.h"
#include <stdlib.h>
#include <sys/mman.h>
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

// MARK: The trace arena
//
// Every thread's chunks come from one region reserved (not committed) at the
// first event, as large as the cap. Chunks are handed out by a bump pointer
// under a lock (the slow path only). The first LP_POOL_FIRST bytes are left to
// fault in as the process's first recording thread writes them (a page's first write
// costs about 2 µs on a virtual machine, where MADV_POPULATE_WRITE of the four pages
// cost 27 µs: a process that records a few events pays for one page). Once
// chunks reach past half of them, a thread of the tracer's own, the populater,
// keeps the arena resident ahead of the bump pointer, as far ahead as chunks were
// handed out so far (a thread's next chunk is as large as all its chunks before it),
// at least LP_POPULATE_STEP (each request wakes the populater, which costs the
// recording thread a wake-up of another CPU) and at most LP_POOL_AHEAD (the harness
// starts the populater from its sampler's thread, ahead of the first request: see
// lp_populater_start_ahead), so a recording thread neither faults pages in nor waits
// for them to be (a page's first write costs about 2 µs on a virtual machine, 0.5 ns
// a byte of events), unless it outruns the populater; and a launch that records a
// few thousand events does not pay for megabytes it never writes (on a busy machine
// the populater's CPU time comes out of the launch's: see Benchmarks/RESULTS.md). Where no thread can be started, and in a
// launch whose instructions are counted (under valgrind), there is no populater:
// the recording thread that takes the chunk populates ahead itself, under the
// arena lock (see lp_arena_populate). Beyond the first 2 MiB the arena asks for
// huge pages, which are filled at a fraction of the cost a byte where the kernel
// grants them: asked by whoever populates first (the populater, else the recording
// thread), not at the first event (the advice costs about 8 µs, and a process that
// records a few events never gets there).
// A thread's first chunk is small and each next one twice as large, up to
// LP_CHUNK_MAX, so a thread holds memory in proportion to what it recorded.

enum {
    LP_CHUNK_FIRST = 4 * 1024,
    LP_CHUNK_MAX = 256 * 1024,
    /// Counted as resident from the process's first event, though left to fault in as it is
    /// written (no populater request until half of it is handed out): a process that records a
    /// few events grows by the pages it writes.
    LP_POOL_FIRST = 16 * 1024,
    /// The farthest ahead of the bump pointer the populater keeps the arena resident (the
    /// lead is what was handed out so far, from LP_POOL_FIRST up to this; asked for again
    /// once less than half of it is left, and then at least LP_POPULATE_STEP ahead).
    LP_POOL_AHEAD = 2 * 1024 * 1024,
    /// The populater's step (a writer that catches up finds pages resident sooner), and
    /// the least a request asks for.
    LP_POPULATE_STEP = 256 * 1024,
    /// Where huge pages may begin (small processes never touch them).
    LP_HUGE_FROM = 2 * 1024 * 1024,
};

#ifndef MADV_POPULATE_WRITE
#define MADV_POPULATE_WRITE 23
#endif

enum { LP_CHUNK_CLASSES = 7 };  // 4 KiB << 0 ... 4 KiB << 6 = 256 KiB

static struct {
    pthread_mutex_t lock;
    char *base;          // NULL until the first chunk; (char *)-1 when reserving failed
    uint64_t reserved;   // bytes reserved at base (the cap in force then)
    uint64_t cap;        // bytes that chunks may hold at once
    uint64_t bumped;     // bytes of the reservation handed out at least once
    uint64_t held;       // bytes held by threads' chunks now
    uint64_t resident;   // bytes made resident from base, or asked of the populater
    /// Chunks of threads that exited, given back by lp_buffer_release, by size class.
    lp_chunk *free[LP_CHUNK_CLASSES];
    volatile int full;   // 1 once no chunk of any size is left
    int huge_advised;    // 1 once the reservation past LP_HUGE_FROM was advised to use huge pages
    int fresh_only;      // 1: chunks given back are not taken again while fresh memory is left (benchmarks)
} lp_arena = {
    .lock = PTHREAD_MUTEX_INITIALIZER,
    .cap = 64ull * 1024 * 1024,
};

static pthread_key_t lp_exit_key;
static pthread_once_t lp_exit_key_once = PTHREAD_ONCE_INIT;

/// The thread's destructor: keeps its name (a reader may find its id reused
/// by another thread), then marks it exited.
static void lp_thread_exited(void *opaque) {
    lp_thread_buffer *buffer = opaque;
    lp_current_thread_name((uint8_t *)buffer->exit_name, (long)sizeof buffer->exit_name);
    __atomic_store_n(&buffer->exited, 1, __ATOMIC_RELEASE);
}

static void lp_make_exit_key(void) {
    pthread_key_create(&lp_exit_key, lp_thread_exited);
}

void lp_adopt_buffer(lp_thread_buffer *buffer) {
    pthread_once(&lp_exit_key_once, lp_make_exit_key);
    pthread_setspecific(lp_exit_key, buffer);
    lp_tls_buffer = buffer;
}

uint64_t lp_buffer_cap_get(void) {
    pthread_mutex_lock(&lp_arena.lock);
    uint64_t cap = lp_arena.cap;
    pthread_mutex_unlock(&lp_arena.lock);
    return cap;
}

int lp_buffer_cap_set(uint64_t bytes) {
    pthread_mutex_lock(&lp_arena.lock);
    if (lp_arena.base == (char *)-1) {  // reserving failed: try again with this size
        lp_arena.base = 0;
        lp_arena.full = 0;
    }
    int ok = lp_arena.base == 0 || bytes <= lp_arena.reserved;
    if (ok) {
        lp_arena.cap = bytes;
        if (lp_arena.base != 0) lp_arena.full = lp_arena.held + sizeof(lp_chunk) + sizeof(lp_event) > bytes;
    }
    pthread_mutex_unlock(&lp_arena.lock);
    return ok ? 0 : -1;
}

void lp_arena_set_fresh_only(int fresh_only) {
    pthread_mutex_lock(&lp_arena.lock);
    lp_arena.fresh_only = fresh_only;
    pthread_mutex_unlock(&lp_arena.lock);
}

uint64_t lp_buffer_used(void) {
    pthread_mutex_lock(&lp_arena.lock);
    uint64_t held = lp_arena.held;
    pthread_mutex_unlock(&lp_arena.lock);
    return held;
}

static uint64_t lp_chunk_size(const lp_chunk *chunk) {
    return chunk->size;
}

/// The largest class whose size `bytes` covers.
static int lp_chunk_class(uint64_t bytes) {
    int class = 0;
    while (class + 1 < LP_CHUNK_CLASSES && ((uint64_t)LP_CHUNK_FIRST << (class + 1)) <= bytes) class++;
    return class;
}

int lp_buffer_has_exited(const lp_thread_buffer *buffer) {
    return __atomic_load_n(&buffer->exited, __ATOMIC_ACQUIRE);
}

const char *lp_buffer_exit_name(const lp_thread_buffer *buffer) {
    if (!lp_buffer_has_exited(buffer) || buffer->exit_name[0] == 0) return 0;
    return buffer->exit_name;
}

void lp_buffer_release(lp_thread_buffer *buffer) {
    pthread_mutex_lock(&lp_arena.lock);
    lp_chunk *chunk = buffer->first;
    while (chunk != 0) {
        lp_chunk *next = chunk->next;
        uint64_t size = lp_chunk_size(chunk);
        int class = lp_chunk_class(size);
        chunk->next = lp_arena.free[class];
        lp_arena.free[class] = chunk;
        lp_arena.held -= size;
        chunk = next;
    }
    lp_arena.full = 0;
    pthread_mutex_unlock(&lp_arena.lock);
    buffer->first = buffer->current = 0;
    buffer->next = buffer->limit = 0;
}

/// Makes [from, to) of the arena resident: one madvise where the kernel has
/// MADV_POPULATE_WRITE (Linux 5.14), else a write to each page. The first call also
/// asks for huge pages past LP_HUGE_FROM (once: only the populater, or the recording
/// thread where none runs, calls it, and `base` and `reserved` are fixed by then).
static void lp_arena_prefault(uint64_t from, uint64_t to) {
    if (to <= from) return;
#if defined(__linux__) && defined(MADV_HUGEPAGE)
    if (!__atomic_exchange_n(&lp_arena.huge_advised, 1, __ATOMIC_RELAXED) && lp_arena.reserved > LP_HUGE_FROM) {
        madvise(lp_arena.base + LP_HUGE_FROM, lp_arena.reserved - LP_HUGE_FROM, MADV_HUGEPAGE);
    }
#endif
#if defined(__linux__)
    if (madvise(lp_arena.base + from, to - from, MADV_POPULATE_WRITE) == 0) return;
#endif
    long page = sysconf(_SC_PAGESIZE);
    for (uint64_t offset = from; offset < to; offset += (uint64_t)page) {
        ((volatile char *)lp_arena.base)[offset] = 0;
    }
}

// MARK: The populater

static struct {
    pthread_mutex_t lock;
    pthread_cond_t wake;
    /// The arena is to be resident up to here, and is up to `done`.
    uint64_t wanted;
    uint64_t done;
    /// 0 before it started, 1 running, -1 when it cannot run (the recording thread populates).
    int state;
    /// Requests handed to the populater (a debug counter for tests).
    uint64_t requests;
} lp_populater = {
    .lock = PTHREAD_MUTEX_INITIALIZER,
    .wake = PTHREAD_COND_INITIALIZER,
};

/// Starts a detached thread as `lp_thread_start_detached` does, with a stack of
/// `stack_bytes` (0: the default) and, with `block_signals`, every signal blocked in it
/// (a thread of the tracer's own never runs a handler of the program's).
static int lp_thread_start(void *(*body)(void *), void *argument, int avoid_cpu, size_t stack_bytes, int block_signals);

static void *lp_populater_main(void *unused) {
    (void)unused;
    // Named by itself (one system call), not by its starter (three, through /proc).
    lp_set_current_thread_name("lp-populate");
    pthread_mutex_lock(&lp_populater.lock);
    for (;;) {
        while (lp_populater.wanted <= lp_populater.done) pthread_cond_wait(&lp_populater.wake, &lp_populater.lock);
        uint64_t from = lp_populater.done, to = lp_populater.wanted;
        pthread_mutex_unlock(&lp_populater.lock);
        while (from < to) {
            uint64_t step = to - from < LP_POPULATE_STEP ? to : from + LP_POPULATE_STEP;
            lp_arena_prefault(from, step);
            from = step;
        }
        pthread_mutex_lock(&lp_populater.lock);
        lp_populater.done = to;
    }
    return 0;
}

/// In a child forked from a process whose populater ran, none runs: the next request starts one.
static void lp_populater_after_fork(void) {
    pthread_mutex_init(&lp_populater.lock, 0);
    pthread_cond_init(&lp_populater.wake, 0);
    lp_populater.state = 0;
    lp_populater.done = lp_populater.wanted;
}

/// Starts the populater if none was tried yet, its requests to start at `from`; with
/// `off_callers_cpu`, never on the calling thread's CPU. Called with the arena lock held.
static void lp_populater_start_locked(uint64_t from, int off_callers_cpu) {
    if (lp_populater.state != 0) return;
    lp_populater.state = -1;
    if (lp_instruction_marks_enabled()) return;
    lp_populater.done = lp_populater.wanted = from;
    if (lp_thread_start(lp_populater_main, 0, off_callers_cpu ? lp_current_cpu() : -1, 64 * 1024, 1) == 0) {
        lp_populater.state = 1;
        static int registered = 0;
        if (!registered) pthread_atfork(0, 0, lp_populater_after_fork), registered = 1;
    }
}

void lp_populater_start_ahead(void) {
    pthread_mutex_lock(&lp_arena.lock);
    // Before the first event the first pool is not resident yet, but it will be, by its recorder.
    uint64_t resident = lp_arena.base == 0 ? LP_POOL_FIRST : lp_arena.resident;
    // Anywhere the calling thread may run: the harness's sampler, which calls this, keeps
    // off the main thread's CPU, and a thread starts with its starter's CPU mask.
    lp_populater_start_locked(resident, 0);
    pthread_mutex_unlock(&lp_arena.lock);
}

/// Asks for [from, to) of the arena to be made resident, off the calling thread: by
/// the populater, started at the first request unless `lp_populater_start_ahead` started it (its signals blocked, named
/// "lp-populate"); on the calling thread where no thread can be started, and in a
/// launch whose instructions are counted (valgrind runs threads one at a time, and
/// the count would depend on when the populater ran). Called with the arena lock held.
static void lp_arena_populate(uint64_t from, uint64_t to) {
    if (to <= from) return;
    // Kept off the recording thread's CPU: without that, the new thread may start on it
    // (it did on a 2-core virtual machine), and its first steps (the huge-page advice, a
    // step of pages) preempt the thread that asked (Benchmarks/RESULTS.md: 0.1 ms less
    // for a 10,000-span launch traced without the harness's sampler).
    lp_populater_start_locked(from, 1);
    if (lp_populater.state != 1) {
        lp_arena_prefault(from, to);
        return;
    }
    pthread_mutex_lock(&lp_populater.lock);
    if (to > lp_populater.wanted) lp_populater.wanted = to;
    lp_populater.requests += 1;
    pthread_cond_signal(&lp_populater.wake);
    pthread_mutex_unlock(&lp_populater.lock);
}

uint64_t lp_populater_requests(void) {
    pthread_mutex_lock(&lp_populater.lock);
    uint64_t requests = lp_populater.state == 1 ? lp_populater.requests : 0;
    pthread_mutex_unlock(&lp_populater.lock);
    return requests;
}

/// A chunk of about `want` bytes (less at the cap's edge), or NULL at the cap.
/// Called with the lock held.
static lp_chunk *lp_arena_take(uint64_t want) {
    if (lp_arena.base == 0) {
        uint64_t reserve = lp_arena.cap & ~(uint64_t)(LP_CHUNK_FIRST - 1);
        if (reserve == 0) return 0;  // a cap of nothing: drop, and reserve when it is raised
        void *memory = mmap(0, (size_t)reserve, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
        if (memory == MAP_FAILED) {
            lp_arena.base = (char *)-1;
            lp_arena.full = 1;
            return 0;
        }
        lp_arena.base = memory;
        lp_arena.reserved = reserve;
        // Not made resident here: its writers fault its pages in (see the top of this section).
        lp_arena.resident = reserve < LP_POOL_FIRST ? reserve : LP_POOL_FIRST;
    }
    if (lp_arena.base == (char *)-1) return 0;
    uint64_t left = lp_arena.cap > lp_arena.held ? lp_arena.cap - lp_arena.held : 0;
    if (want > left) want = left;
    if (want < sizeof(lp_chunk) + sizeof(lp_event)) {
        lp_arena.full = 1;
        return 0;
    }
    // A chunk given back by an exited thread, of this size class; else fresh
    // memory; else any chunk given back.
    int class = lp_chunk_class(want);
    lp_chunk *chunk = lp_arena.free[class];
    if (chunk != 0 && lp_chunk_size(chunk) > left) chunk = 0;
    if (lp_arena.fresh_only && lp_arena.reserved - lp_arena.bumped >= want) chunk = 0;
    uint64_t fresh = lp_arena.reserved - lp_arena.bumped;
    if (want > fresh) want = fresh;
    // Fresh memory used up: any chunk given back will do, larger ones first.
    for (int other = LP_CHUNK_CLASSES - 1; chunk == 0 && want < sizeof(lp_chunk) + sizeof(lp_event)
         && other >= 0; other--) {
        lp_chunk *candidate = lp_arena.free[other];
        if (candidate != 0 && lp_chunk_size(candidate) <= left) chunk = candidate, class = other;
    }
    if (chunk != 0) {
        lp_arena.free[class] = chunk->next;
    } else {
        if (want < sizeof(lp_chunk) + sizeof(lp_event)) {
            lp_arena.full = 1;
            return 0;
        }
        chunk = (lp_chunk *)(lp_arena.base + lp_arena.bumped);
        lp_arena.bumped += want;
        // Less than half the lead left (first: the first event's pool half used): more, off this
        // thread where the populater runs (on it where none does: see lp_arena_populate).
        uint64_t ahead = lp_arena.bumped < LP_POOL_FIRST   ? LP_POOL_FIRST
                         : lp_arena.bumped < LP_POOL_AHEAD ? lp_arena.bumped
                                                           : LP_POOL_AHEAD;
        if (lp_arena.bumped + ahead / 2 > lp_arena.resident && lp_arena.resident < lp_arena.reserved) {
            // A request asks for a populater step at least: each one wakes the populater, which
            // costs the recording thread a wake-up of another CPU (tens of microseconds on a
            // virtual machine), so a launch of 10,000 spans asks twice rather than six times.
            if (ahead < LP_POPULATE_STEP) ahead = LP_POPULATE_STEP;
            uint64_t target = lp_arena.bumped + ahead;
            if (target > lp_arena.reserved) target = lp_arena.reserved;
            lp_arena_populate(lp_arena.resident, target);
            lp_arena.resident = target;
        }
        chunk->size = want;
        chunk->limit = (lp_event *)(chunk + 1) + (want - sizeof(lp_chunk)) / sizeof(lp_event);
    }
    lp_arena.held += lp_chunk_size(chunk);
    chunk->next = 0;
    chunk->end = (lp_event *)(chunk + 1);
    return chunk;
}

lp_event *lp_chunk_events(const lp_chunk *chunk) {
    return (lp_event *)(chunk + 1);
}

/// Counts an event dropped at the cap: only the thread writes, a flush may read.
static void lp_buffer_count_drop(lp_thread_buffer *buffer) {
    __atomic_store_n(&buffer->dropped, __atomic_load_n(&buffer->dropped, __ATOMIC_RELAXED) + 1, __ATOMIC_RELAXED);
}

uint64_t lp_buffer_dropped(const lp_thread_buffer *buffer) {
    return __atomic_load_n(&buffer->dropped, __ATOMIC_RELAXED);
}

__attribute__((noinline, cold)) lp_event *lp_refill(lp_thread_buffer *buffer) {
    lp_chunk *current = buffer->current;
    lp_chunk *chunk = current == 0 ? buffer->first : __atomic_load_n(&current->next, __ATOMIC_ACQUIRE);
    if (chunk == 0) {
        if (lp_arena.full) {
            lp_buffer_count_drop(buffer);
            return 0;
        }
        uint64_t want = LP_CHUNK_FIRST;
        if (current != 0) {
            uint64_t size = current->size;
            want = size >= LP_CHUNK_MAX / 2 ? LP_CHUNK_MAX : size * 2;
        }
        pthread_mutex_lock(&lp_arena.lock);
        chunk = lp_arena_take(want);
        pthread_mutex_unlock(&lp_arena.lock);
        if (chunk == 0) {
            lp_buffer_count_drop(buffer);
            return 0;
        }
        if (current == 0) {
            __atomic_store_n(&buffer->first, chunk, __ATOMIC_RELEASE);
        } else {
            __atomic_store_n(&current->next, chunk, __ATOMIC_RELEASE);
        }
    }
    // The chunk left behind is complete: its end is published before the
    // thread moves on, so a reader that sees the move sees the end. The new
    // chunk's end already marks it empty (set when it was taken or rewound);
    // `next` points at its first slot, which lp_record publishes once written.
    if (current != 0) __atomic_store_n(&current->end, buffer->next, __ATOMIC_RELEASE);
    lp_event *event = lp_chunk_events(chunk);
    __atomic_store_n(&buffer->current, chunk, __ATOMIC_RELEASE);
    buffer->limit = chunk->limit;
    __atomic_store_n(&buffer->next, event, __ATOMIC_RELEASE);
    return event;
}

long lp_chunk_count(const lp_thread_buffer *buffer, const lp_chunk *chunk) {
    lp_event *events = lp_chunk_events(chunk);
    if (__atomic_load_n(&buffer->current, __ATOMIC_ACQUIRE) == chunk) {
        // Acquire: every event before `next` was written before it was published.
        lp_event *next = __atomic_load_n(&buffer->next, __ATOMIC_ACQUIRE);
        if (next >= events && next <= chunk->limit) return next - events;
    }
    // Left behind (or left while being read): its end was stored first.
    lp_event *end = __atomic_load_n(&chunk->end, __ATOMIC_ACQUIRE);
    return end >= events && end <= chunk->limit ? end - events : 0;
}

const lp_chunk *lp_chunk_after(const lp_thread_buffer *buffer, const lp_chunk *chunk) {
    if (chunk == 0) return __atomic_load_n(&buffer->first, __ATOMIC_ACQUIRE);
    if (__atomic_load_n(&buffer->current, __ATOMIC_ACQUIRE) == chunk) return 0;
    return __atomic_load_n(&chunk->next, __ATOMIC_ACQUIRE);
}

__attribute__((noinline, cold)) void lp_note_file(lp_thread_buffer *buffer, const void *file, const void *path) {
    buffer->last_file = file;
    if (path == 0 || file == 0) return;
    uintptr_t address = (uintptr_t)file;
    unsigned slot = (unsigned)((address >> 3) ^ (address >> 11)) & (LP_SEEN_FILES - 1);
    if (buffer->seen_files[slot] == file) return;
    lp_event *note = buffer->next;
    if (note == buffer->limit) {
        note = lp_refill(buffer);
        if (note == 0) {  // at the cap: a note is not an event, its drop is not counted
            __atomic_store_n(&buffer->dropped, __atomic_load_n(&buffer->dropped, __ATOMIC_RELAXED) - 1, __ATOMIC_RELAXED);
            return;
        }
    }
    note->begin = 0;
    note->name = path;
    note->file = file;
    note->duration = 0;
    note->line = 0;
    note->kind = LP_EVENT_NOTE;
    note->category = LP_NOTE_FILE_PATH;
    __atomic_store_n(&buffer->next, note + 1, __ATOMIC_RELEASE);
    buffer->seen_files[slot] = file;
}

// MARK: Long ends
//
// A span of LP_DURATION_LONG ticks or more keeps its end here: a few a launch at most.

static struct {
    pthread_mutex_t lock;
    struct lp_long_end_entry { const lp_event *event; uint64_t end; } *entries;
    long count, capacity;
} lp_long_ends = { .lock = PTHREAD_MUTEX_INITIALIZER };

__attribute__((noinline, cold)) void lp_end_long(lp_event *event, uint64_t end) {
    pthread_mutex_lock(&lp_long_ends.lock);
    long found = -1;
    for (long index = 0; index < lp_long_ends.count; index++) {
        if (lp_long_ends.entries[index].event == event) found = index;
    }
    if (found < 0 && lp_long_ends.count == lp_long_ends.capacity) {
        long capacity = lp_long_ends.capacity == 0 ? 16 : lp_long_ends.capacity * 2;
        void *grown = realloc(lp_long_ends.entries, (size_t)capacity * sizeof *lp_long_ends.entries);
        if (grown != 0) lp_long_ends.entries = grown, lp_long_ends.capacity = capacity;
    }
    if (found < 0 && lp_long_ends.count < lp_long_ends.capacity) found = lp_long_ends.count++;
    if (found >= 0) lp_long_ends.entries[found] = (struct lp_long_end_entry){event, end};
    pthread_mutex_unlock(&lp_long_ends.lock);
    if (found >= 0) {
        __atomic_store_n(&event->duration, LP_DURATION_LONG, __ATOMIC_RELEASE);
    } else {  // no memory: the longest duration an event holds
        __atomic_store_n(&event->duration, LP_DURATION_LONG - 1, __ATOMIC_RELAXED);
    }
}

uint64_t lp_long_end(const lp_event *event) {
    uint64_t end = 0;
    pthread_mutex_lock(&lp_long_ends.lock);
    for (long index = 0; index < lp_long_ends.count; index++) {
        if (lp_long_ends.entries[index].event == event) end = lp_long_ends.entries[index].end;
    }
    pthread_mutex_unlock(&lp_long_ends.lock);
    return end;
}

void lp_long_ends_clear(void) {
    pthread_mutex_lock(&lp_long_ends.lock);
    lp_long_ends.count = 0;
    pthread_mutex_unlock(&lp_long_ends.lock);
}

void lp_buffer_rewind(lp_thread_buffer *buffer) {
    buffer->last_file = 0;
    for (int slot = 0; slot < LP_SEEN_FILES; slot++) buffer->seen_files[slot] = 0;
    for (lp_chunk *chunk = buffer->first; chunk != 0; chunk = chunk->next) {
        chunk->end = lp_chunk_events(chunk);
    }
    buffer->current = 0;
    buffer->next = 0;
    buffer->limit = 0;
    buffer->dropped = 0;
}

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

/// The CPU counter's stated frequency, ticks a second: arm64's `cntfrq_el0`; 0
/// where the hardware states none (x86's TSC frequency is measured instead).
static uint64_t lp_cpu_counter_frequency(void) {
#if defined(__aarch64__)
    uint64_t value;
    __asm__ __volatile__("mrs %0, cntfrq_el0" : "=r"(value));
    return value;
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

int lp_is_main_thread_id(uint64_t thread_id) {
#if defined(__linux__)
    return thread_id == (uint64_t)getpid();
#else
    (void)thread_id;
    return lp_is_main_thread();
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
        lp_state.counter_hz = lp_cpu_counter_frequency();
    } else {
        lp_state.tick_source = LP_TICK_SOURCE_MONOTONIC;
        lp_state.runtime_init_ticks = ns;
    }
    lp_state.runtime_init_ns = ns;
    const char *megabytes = getenv("LAUNCHPROF_TRACE_BUFFER_MB");
    if (megabytes != 0 && *megabytes != 0) {
        char *end = 0;
        unsigned long long value = strtoull(megabytes, &end, 10);
        if (end != 0 && *end == 0 && megabytes[0] != '-' && value <= (1ull << 24)) {
            lp_arena.cap = value * 1024 * 1024;
        }
    }
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

int lp_thread_start_detached(void *(*body)(void *), void *argument, int avoid_cpu) {
    return lp_thread_start(body, argument, avoid_cpu, 0, 0);
}

static int lp_thread_start(void *(*body)(void *), void *argument, int avoid_cpu, size_t stack_bytes, int block_signals) {
    pthread_attr_t attributes;
    pthread_attr_init(&attributes);
    pthread_attr_setdetachstate(&attributes, PTHREAD_CREATE_DETACHED);
    if (stack_bytes != 0) pthread_attr_setstacksize(&attributes, stack_bytes);
#if defined(__linux__)
    cpu_set_t cpus;
    if (avoid_cpu >= 0 && avoid_cpu < CPU_SETSIZE && sched_getaffinity(0, sizeof cpus, &cpus) == 0
        && CPU_ISSET(avoid_cpu, &cpus)) {
        CPU_CLR(avoid_cpu, &cpus);
        if (CPU_COUNT(&cpus) > 0) pthread_attr_setaffinity_np(&attributes, sizeof cpus, &cpus);
    }
#else
    (void)avoid_cpu;
#endif
    // A mask set here is the new thread's from its first instruction.
    sigset_t all, previous;
    if (block_signals) {
        sigfillset(&all);
        pthread_sigmask(SIG_SETMASK, &all, &previous);
    }
    pthread_t thread;
    int result = pthread_create(&thread, &attributes, body, argument);
    if (block_signals) pthread_sigmask(SIG_SETMASK, &previous, 0);
    pthread_attr_destroy(&attributes);
    return result;
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
