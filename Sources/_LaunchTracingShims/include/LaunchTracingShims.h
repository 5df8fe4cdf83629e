// The C floor under LaunchTracing: always-inline tick reads, the thread-local
// buffer slot, the tracer's global state, and the constructor that stamps the
// earliest moment user code runs (`runtimeInit`).
//
// Everything here is `static inline` so that Swift's @inlinable entry points in
// LaunchTracing compile down to a handful of instructions at the call site.

#ifndef LAUNCH_TRACING_SHIMS_H
#define LAUNCH_TRACING_SHIMS_H

#include <stdint.h>
#include <time.h>

#if defined(__x86_64__)
#include <x86intrin.h>
#endif

#ifdef __cplusplus
extern "C" {
#endif

/// Where the hot path reads time from.
typedef enum {
    /// Raw CPU ticks (rdtsc on x86_64, CNTVCT_EL0 on arm64), converted to
    /// nanoseconds after the fact with calibration pairs.
    LP_TICK_SOURCE_CPU_COUNTER = 0,
    /// clock_gettime(CLOCK_MONOTONIC) (Darwin: the continuous clock) directly.
    LP_TICK_SOURCE_MONOTONIC = 1,
    /// A manual clock set by tests (`lp_manual_now`).
    LP_TICK_SOURCE_MANUAL = 2,
} lp_tick_source;

/// One recorded event: 32 bytes, written once at begin and patched at end.
///
/// What each byte buys:
/// - `begin` (8): the begin tick, whole: no base to keep, no wrap.
/// - `name` (8): the address of the name's NUL-terminated UTF-8 bytes, which live as
///   long as the process (a Swift `StaticString` literal, or a runtime name interned
///   into storage that is never freed), or a Unicode scalar value (flag
///   `LP_EVENT_FLAG_SCALAR_NAME`). Its length is taken at flush (`strlen`, once per
///   distinct address), not stored.
/// - `file` (8): the address of `#fileID`'s NUL-terminated UTF-8 bytes (same lifetime).
///   `#filePath` is not stored per event: a thread writes it once, in a note
///   (`LP_EVENT_NOTE`, `LP_NOTE_FILE_PATH`) before its first event of a file.
/// - `duration` (4): the end, as ticks after `begin`: 0 while a span is open (and for an
///   instant or a mark, which end where they begin); `LP_DURATION_LONG` for a span of
///   `LP_DURATION_LONG` ticks or more (1.4 s at 3 GHz), whose end tick is kept whole
///   in the process's long-end table (`lp_long_end`).
/// - `line` (2) and `kind` bits 2-5: `#line`, 20 bits (1,048,575 and later lines read as that).
/// - `kind` (1): the `lp_event_kind` (bits 0-1), the line's top 4 bits, and the flags
///   (`LP_EVENT_FLAG_USAGE`, `LP_EVENT_FLAG_SCALAR_NAME`).
/// - `category` (1): the `SpanCategory` (a mark: the milestone; a note: its kind).
typedef struct {
    uint64_t begin;        // ticks
    const void *name;      // NUL-terminated UTF-8 bytes that live forever (or a scalar value, see flags)
    const void *file;      // NUL-terminated UTF-8 bytes of #fileID
    uint32_t duration;     // end - begin, ticks; 0 while open; LP_DURATION_LONG: see lp_long_end
    uint16_t line;         // #line, low 16 bits (the top 4 are in kind)
    uint8_t kind;          // lp_event_kind | line bits 16-19 << 2 | flags
    uint8_t category;
} lp_event;

enum {
    /// A record that is not an event (the flush reads and skips it): `category` says which.
    LP_EVENT_NOTE = 0,
    LP_EVENT_SPAN = 1,
    LP_EVENT_INSTANT = 2,
    LP_EVENT_MARK = 3,
    /// Flag: `name` holds a Unicode scalar value, not a pointer.
    LP_EVENT_FLAG_SCALAR_NAME = 0x80,
    /// Flag: the span's resource usage is being accounted (slow path at end).
    LP_EVENT_FLAG_USAGE = 0x40,
    LP_EVENT_KIND_MASK = 0x03,
    /// Where the line's bits 16-19 sit in `kind`.
    LP_EVENT_LINE_HIGH_SHIFT = 2,
    LP_EVENT_LINE_HIGH_MASK = 0x3C,
    /// A note's `category`: `file` is a `#fileID`, `name` its `#filePath`.
    LP_NOTE_FILE_PATH = 1,
};

/// The largest line an event holds (a later line reads as this).
#define LP_EVENT_LINE_MAX 0xFFFFFu
/// `duration` of a span whose end is in the long-end table.
#define LP_DURATION_LONG 0xFFFFFFFFu

/// How many files a thread remembers having noted the `#filePath` of (direct-mapped).
enum { LP_SEEN_FILES = 16 };

/// A block of events taken from the process's trace arena: this header, then
/// events up to `limit`. A thread's chunks form a list, oldest first.
typedef struct lp_chunk {
    /// The thread's next chunk, or NULL; set once, before the thread moves on.
    struct lp_chunk *next;
    /// One past the last event written, stored when the thread moved on.
    lp_event *end;
    /// One past the last slot.
    lp_event *limit;
    /// The chunk's bytes, header included.
    uint64_t size;
} lp_chunk;

/// One reading of a thread's resource usage, taken at a span boundary (the slow
/// path of per-span accounting): what the boundaries between two readings are
/// attributed from.
typedef struct {
    /// The tick of the boundary the reading was taken for (a span's begin or end).
    uint64_t tick;
    /// CLOCK_MONOTONIC when it was taken, nanoseconds.
    uint64_t wall_ns;
    /// The thread CPU clock (CLOCK_THREAD_CPUTIME_ID), nanoseconds.
    uint64_t cpu_ns;
    /// The run-queue wait of the thread's schedstat, nanoseconds; UINT64_MAX when unknown.
    uint64_t run_queue_ns;
    uint64_t voluntary_switches;
    uint64_t involuntary_switches;
    uint64_t minor_faults;
    uint64_t major_faults;
} lp_reading;

/// A block of a thread's readings: blocks are chained, never moved or freed
/// while the thread lives, so a flush can copy readings while the thread adds more.
typedef struct lp_reading_block {
    /// The next block, or NULL; set once, before any reading in it is published.
    struct lp_reading_block *next;
    /// Readings the block holds.
    long capacity;
    lp_reading readings[];
} lp_reading_block;

/// A thread's accounting readings, oldest first, and what taking them needs.
/// Written only by its thread; a flush may read them at any time: `count` is
/// stored with release after the reading it adds is written and loaded with
/// acquire (`lp_account_reading_count`), and blocks stay where they are until
/// they are freed (`lp_account_release`, at the first reset after the thread
/// exited, when nothing records or flushes), so a reader copies whole readings.
typedef struct {
    /// The first block (NULL before the first reading) and the one being written.
    lp_reading_block *first;
    lp_reading_block *current;
    /// Readings in `current`.
    long used;
    /// Readings published, across blocks.
    long count;
    /// The latest usage as read (the thread's own copy: what the next reading compares
    /// with). After a late end it is read again, while the reading published for the
    /// end is of the moment the span ended.
    lp_reading last;
    /// The thread's open schedstat (-1: none), or -2 before it was opened.
    int schedstat_fd;
    /// System calls made for accounting since the last reset (a debug counter
    /// the benchmarks and tests read: the hot path's promise is that it stays small).
    uint64_t system_calls;
    /// The thread's OS id (read at its first reading), to find a switch count kept for it
    /// (`lp_account_count_switches`).
    uint64_t thread_id;
    /// The switch count's head as read just before the CPU clock of the last reading
    /// that read it (`switch_head_valid`), and that reading's wall time: a reading that
    /// finds the head where it was, less than `LP_ACCOUNTING_QUIET_LONGEST_NS` later, is
    /// taken without a system call (the thread did not leave the CPU in between).
    uint64_t switch_head;
    uint64_t switch_head_wall_ns;
    int switch_head_valid;
    /// Readings taken without a system call that way (a debug counter, like `system_calls`).
    uint64_t quiet_readings;
} lp_accounting;

/// A thread's events: the chunk being written and the list before it. Only its
/// own thread writes `next`, `limit`, `dropped` and `current` (and links chunks).
typedef struct {
    /// Where the next event goes; equal to `limit` when the chunk is full (or
    /// before the first chunk), which sends the next event to `lp_refill`.
    lp_event *next;
    lp_event *limit;
    /// Events not recorded because the process-wide cap was reached.
    uint64_t dropped;
    lp_chunk *first;
    lp_chunk *current;
    /// Non-zero when spans begun on this thread also record resource usage
    /// (CPU time, context switches, faults): the harness turns it on for the
    /// main thread while profiling.
    int accounting;
    /// Set when the thread exited (its events stay until the next reset).
    int exited;
    /// The thread's name when it exited (NUL-terminated, empty when unnamed),
    /// written before `exited`: registration reads no name, which costs a system
    /// call of several microseconds, more than a hundred spans.
    char exit_name[64];
    /// An accounted boundary before this tick is attributed from the readings
    /// around it instead of read (0: the next one is read).
    uint64_t next_reading_tick;
    /// From this tick on, every accounted boundary is read again (see `lp_account_due`).
    uint64_t forced_reading_tick;
    /// The thread's last accounted boundary, in ticks.
    uint64_t last_boundary_tick;
    /// Past the granularity, the gaps between consecutive accounted boundaries that
    /// could have held a wait (`LP_OFF_CPU_GAP_NS` or longer), added up, in ticks.
    uint64_t waitable_ticks;
    /// `LP_ACCOUNTING_WAITABLE_NS` and `LP_OFF_CPU_GAP_NS` in ticks, as converted at the
    /// last reading (0 before the first: every gap counts, and the next boundary is read).
    uint64_t waitable_limit_ticks;
    uint64_t off_cpu_gap_ticks;
    /// The thread's readings (NULL until its first accounted boundary; stored
    /// with release, read with acquire: a flush may be reading).
    lp_accounting *usage;
    /// The `file` of the thread's last event: another one sends the event through
    /// `lp_note_file` first (a compare on the hot path).
    const void *last_file;
    /// Files whose `#filePath` the thread noted since the last rewind (direct-mapped by address).
    const void *seen_files[LP_SEEN_FILES];
} lp_thread_buffer;

/// How long after a reading an accounted boundary is attributed rather than
/// read, nanoseconds: below the accuracy the advisor needs (its bound on a
/// span of 1 ms and longer is 50 µs of CPU or off-CPU time), and long enough
/// that spans of tens of microseconds pay a reading only every few spans.
enum { LP_ACCOUNTING_GRANULARITY_NS = 40 * 1000 };

/// Past the granularity, a boundary is read only once the gaps between the thread's
/// consecutive accounted boundaries that could have held a wait (each
/// `LP_OFF_CPU_GAP_NS` or longer) add up to this, nanoseconds: a switch-out (a block,
/// a preemption, a run-queue wait) lies within one gap at least as long as it lasted,
/// so the waits an attributed boundary can miss past the granularity add up to less
/// than this. A run of short spans (gaps under 3 µs) then pays a reading only every
/// `LP_ACCOUNTING_LONGEST_NS`, not every granularity.
enum { LP_ACCOUNTING_WAITABLE_NS = 10 * 1000 };

/// The longest a thread's boundaries go unread, nanoseconds, however short the gaps
/// between them.
enum { LP_ACCOUNTING_LONGEST_NS = 500 * 1000 };

/// A gap between wall and CPU time since the last reading larger than this
/// means the thread left the CPU (blocked or preempted): rusage and schedstat
/// are read then. Smaller, the counters and run-queue wait still hold, and a
/// boundary attributed between the two readings is exact.
enum { LP_OFF_CPU_GAP_NS = 3 * 1000 };

/// A reading that took longer than this, nanoseconds, was interrupted by a switch
/// (a reading takes a few microseconds): at a begin it is taken again, at an end the
/// wait after the end is taken out of it.
enum { LP_LATE_READING_NS = 20 * 1000 };

/// The slow path of `lp_record`: moves `buffer` to a new chunk (growing from
/// 4 KiB to 256 KiB per thread, taken from memory made resident ahead: by the populater,
/// except the process's first 16 KiB, which its first event makes resident, and where no
/// populater runs, by the thread that takes a chunk: see shims.c) and returns its
/// first slot, which `lp_record` fills and then publishes; or counts the event
/// as dropped and returns NULL once the process-wide cap is reached. Never inlined.
lp_event *lp_refill(lp_thread_buffer *buffer);

/// The events of `chunk`, and how many `buffer` wrote there (the last chunk's
/// count is read from `buffer->next`).
lp_event *lp_chunk_events(const lp_chunk *chunk);
long lp_chunk_count(const lp_thread_buffer *buffer, const lp_chunk *chunk);
/// The chunk after `chunk` in `buffer`'s list, NULL after the one being written.
const lp_chunk *lp_chunk_after(const lp_thread_buffer *buffer, const lp_chunk *chunk);
/// Events `buffer`'s thread dropped at the cap (an atomic load: it may be recording).
uint64_t lp_buffer_dropped(const lp_thread_buffer *buffer);
/// Rewinds `buffer` to its first chunk, keeping every chunk for reuse.
void lp_buffer_rewind(lp_thread_buffer *buffer);
/// Gives `buffer`'s chunks back to the arena (its thread exited and its events
/// were discarded); `buffer` is left empty.
void lp_buffer_release(lp_thread_buffer *buffer);

/// 1 once `buffer`'s thread has exited (an acquire load: its events are then final).
int lp_buffer_has_exited(const lp_thread_buffer *buffer);
/// The name `buffer`'s thread had when it exited, or NULL while it runs (or when it had none).
const char *lp_buffer_exit_name(const lp_thread_buffer *buffer);
/// Makes `buffer` the calling thread's, and marks it `exited` when the thread ends.
void lp_adopt_buffer(lp_thread_buffer *buffer);

/// The process-wide cap on event memory, in bytes (default 64 MiB, or
/// `LAUNCHPROF_TRACE_BUFFER_MB`). Setting it fails (returns -1) once the arena
/// exists, which is at the first event.
uint64_t lp_buffer_cap_get(void);
int lp_buffer_cap_set(uint64_t bytes);
/// Bytes of the arena handed out as chunks so far.
uint64_t lp_buffer_used(void);
/// With `fresh_only` 1, chunks given back by exited threads are not handed out again
/// while the arena has memory no chunk used yet: benchmarks measure on memory the
/// process never touched. 0 (the default) reuses them first.
void lp_arena_set_fresh_only(int fresh_only);
/// How many times a recording thread handed the arena's populater memory to make resident
/// ahead of the writers (0 when it does not run: see `lp_arena_populate` in shims.c).
uint64_t lp_populater_requests(void);
/// Starts the populater now, from the calling thread, where it would otherwise start at the
/// arena's first request, on the recording thread that made it (a thread's start costs
/// that thread tens of microseconds on a virtual machine). For a thread of the tracer's
/// user that runs beside the recording one anyway (the harness's sampler). Nothing where
/// it was started, or tried, already.
void lp_populater_start_ahead(void);

/// Global tracer state, one instance in the process.
typedef struct {
    /// 1 when recording, 0 when turned off. Read on every event.
    volatile int enabled;
    /// An lp_tick_source.
    volatile int tick_source;
    /// The manual clock's current reading (tick source MANUAL), nanoseconds.
    volatile uint64_t manual_now;
    /// Stamped by the constructor: the earliest moment user code ran.
    uint64_t runtime_init_ticks;
    uint64_t runtime_init_ns;
    /// Calibration pair taken by the constructor (ticks, CLOCK_MONOTONIC ns).
    uint64_t start_pair_ticks;
    uint64_t start_pair_ns;
    /// The CPU counter's frequency where the hardware states it (arm64's
    /// `cntfrq_el0`), ticks a second; 0 where it does not (x86: the calibration
    /// pairs measure it).
    uint64_t counter_hz;
} lp_state_t;

extern lp_state_t lp_state;
extern __thread lp_thread_buffer *lp_tls_buffer __attribute__((tls_model("initial-exec")));

/// CLOCK_MONOTONIC in nanoseconds (CLOCK_UPTIME_RAW-equivalent continuous clock on Darwin).
static inline __attribute__((always_inline)) uint64_t lp_monotonic_ns(void) {
    struct timespec ts;
#if defined(__APPLE__)
    clock_gettime(CLOCK_MONOTONIC_RAW, &ts);
#else
    clock_gettime(CLOCK_MONOTONIC, &ts);
#endif
    return (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
}

/// The raw CPU counter, or 0 where there is none.
static inline __attribute__((always_inline)) uint64_t lp_cpu_counter(void) {
#if defined(__x86_64__)
    return __rdtsc();
#elif defined(__aarch64__)
    uint64_t value;
    __asm__ __volatile__("mrs %0, cntvct_el0" : "=r"(value));
    return value;
#else
    return 0;
#endif
}

/// Reads the current tick from the configured source. The common case is one
/// predictable branch plus the counter read.
static inline __attribute__((always_inline)) uint64_t lp_now_ticks(void) {
    if (__builtin_expect(lp_state.tick_source == LP_TICK_SOURCE_CPU_COUNTER, 1)) {
        return lp_cpu_counter();
    }
    if (lp_state.tick_source == LP_TICK_SOURCE_MANUAL) {
        return lp_state.manual_now;
    }
    return lp_monotonic_ns();
}

static inline __attribute__((always_inline)) int lp_is_enabled(void) {
    return __builtin_expect(lp_state.enabled, 1);
}

static inline __attribute__((always_inline)) lp_thread_buffer *lp_current_buffer(void) {
    return lp_tls_buffer;
}

static inline __attribute__((always_inline)) void lp_set_current_buffer(lp_thread_buffer *buffer) {
    lp_tls_buffer = buffer;
}

/// Takes a reading for the accounted span `event` at its begin (`at_begin`,
/// which stamps the begin tick again after the reading) or at its end (tick `end`,
/// already stored). The slow path of accounting; never inlined.
void lp_account_read(lp_thread_buffer *buffer, lp_event *event, int at_begin, uint64_t end);

/// Whether the accounted boundary at `tick` of `buffer`'s thread takes a reading:
/// the last reading is older than the granularity, and either the gaps that could
/// have held a wait since then (`waitable_ticks`, to which this boundary's gap from
/// the previous one is added when it is `LP_OFF_CPU_GAP_NS` or longer) reach
/// `LP_ACCOUNTING_WAITABLE_NS`, or the last reading is `LP_ACCOUNTING_LONGEST_NS` old.
/// Within the granularity it costs a compare. A tick before the previous boundary's
/// (a clock set back) counts as a long gap.
static inline __attribute__((always_inline)) int lp_account_due(lp_thread_buffer *buffer, uint64_t tick) {
    if (__builtin_expect(tick < buffer->next_reading_tick, 1)) return 0;
    uint64_t gap = tick - buffer->last_boundary_tick;
    if (gap >= buffer->off_cpu_gap_ticks) buffer->waitable_ticks += gap;
    return buffer->waitable_ticks >= buffer->waitable_limit_ticks || tick >= buffer->forced_reading_tick;
}

/// Notes `path` as the `#filePath` of `file` in `buffer` (a note record before the
/// event that follows), once per file a thread records from until the next rewind,
/// and makes `file` the thread's last. The slow path of `lp_record` when the file
/// changes; never inlined. `path` NULL: nothing is noted.
void lp_note_file(lp_thread_buffer *buffer, const void *file, const void *path);

/// Appends an event to `buffer` (taking a new chunk out of line when the current
/// one is full), or counts it as dropped. Returns the event, or NULL when the
/// process-wide cap is reached. The begin tick is read last, so the tracer's own
/// bookkeeping is not inside the span. A span is left open (duration 0); an instant
/// or a mark ends where it begins. With `accounted` non-zero the event is marked
/// for resource accounting, and the thread's usage is read first when a reading
/// is due (`lp_account_due`; otherwise the boundary costs a compare and a store).
///
/// `name` and `file` are addresses of NUL-terminated UTF-8 bytes that stay valid
/// for the life of the process (StaticString literals, or runtime strings interned
/// once), or `name` a scalar value with `LP_EVENT_FLAG_SCALAR_NAME` in `kind`; no
/// length is taken (the flush takes it with `strlen`, once a distinct address). `path` (`#filePath`, or NULL) is noted
/// once per file and thread (`lp_note_file`). Lines past `LP_EVENT_LINE_MAX` read as it.
///
/// The event is published once every field is written: a release store of
/// `buffer->next` past it, which a reader (`lp_chunk_count`) loads with acquire,
/// so a flush while threads record sees whole events. After that only `duration`
/// (at `lp_end`) and the usage flag (a span ended on another thread) change, both
/// atomically: read a published event with `lp_event_load`.
static inline __attribute__((always_inline)) lp_event *lp_record(
    lp_thread_buffer *buffer, uint8_t kind, uint8_t category,
    const void *name, const void *file, const void *path, uint32_t line, int accounted) {
    if (__builtin_expect(file != buffer->last_file, 0)) lp_note_file(buffer, file, path);
    lp_event *event = buffer->next;
    if (__builtin_expect(event == buffer->limit, 0)) {
        event = lp_refill(buffer);
        if (event == 0) return 0;
    }
    uint32_t clamped = line < LP_EVENT_LINE_MAX ? line : LP_EVENT_LINE_MAX;
    event->name = name;
    event->file = file;
    event->duration = 0;
    event->line = (uint16_t)clamped;
    event->kind = (uint8_t)((accounted ? kind | LP_EVENT_FLAG_USAGE : kind) | ((clamped >> 16) << LP_EVENT_LINE_HIGH_SHIFT));
    event->category = category;
    uint64_t now = lp_now_ticks();
    event->begin = now;
    if (accounted != 0) {
        if (__builtin_expect(lp_account_due(buffer, now), 0)) {
            lp_account_read(buffer, event, 1, 0);
            now = event->begin;
        }
        buffer->last_boundary_tick = now;
    }
    __atomic_store_n(&buffer->next, event + 1, __ATOMIC_RELEASE);
    return event;
}

/// Keeps `end` as the end of `event`, a span of `LP_DURATION_LONG` ticks or more (or
/// one whose end precedes its begin: a clock set back), in the process's long-end
/// table, then marks its duration `LP_DURATION_LONG`. Never inlined.
void lp_end_long(lp_event *event, uint64_t end);

/// The end tick kept for `event` by `lp_end_long` (0 when none is). Takes a lock.
uint64_t lp_long_end(const lp_event *event);

/// Empties the long-end table (at a reset, when nothing records or flushes).
void lp_long_ends_clear(void);

/// Closes a span: stores its duration (an atomic store: a flush may be reading it)
/// and returns its end tick.
static inline __attribute__((always_inline)) uint64_t lp_end(lp_event *event) {
    uint64_t now = lp_now_ticks();
    uint64_t duration = now - event->begin;
    if (__builtin_expect(duration >= LP_DURATION_LONG, 0)) {
        lp_end_long(event, now);
        return now;
    }
    __atomic_store_n(&event->duration, duration == 0 ? 1u : (uint32_t)duration, __ATOMIC_RELAXED);
    return now;
}

/// An event as the flush reads it: `end` whole (0 while a span is open; see
/// `long_end`), `line` whole, `kind` the kind and its flags (line bits taken out).
typedef struct {
    uint64_t begin;
    uint64_t end;
    const void *name;
    const void *file;
    uint32_t line;
    uint8_t kind;
    uint8_t category;
    /// 1: the end is in the long-end table (`lp_long_end`), not in `end`.
    uint8_t long_end;
} lp_event_view;

/// A copy of a published event (see `lp_record`), unpacked: the fields that may
/// still change, `duration` and `kind`, are loaded atomically (the duration with
/// acquire, so a long end's table entry is seen by `lp_long_end` after it).
static inline lp_event_view lp_event_load(const lp_event *event) {
    lp_event_view view;
    view.begin = event->begin;
    uint32_t duration = __atomic_load_n(&event->duration, __ATOMIC_ACQUIRE);
    uint8_t kind = __atomic_load_n(&event->kind, __ATOMIC_RELAXED);
    view.name = event->name;
    view.file = event->file;
    view.line = (uint32_t)event->line | ((uint32_t)(kind & LP_EVENT_LINE_HIGH_MASK) >> LP_EVENT_LINE_HIGH_SHIFT) << 16;
    view.kind = (uint8_t)(kind & ~LP_EVENT_LINE_HIGH_MASK);
    view.category = event->category;
    view.long_end = duration == LP_DURATION_LONG;
    if (duration == 0) {
        view.end = (kind & LP_EVENT_KIND_MASK) == LP_EVENT_SPAN ? 0 : view.begin;
    } else {
        view.end = view.begin + duration;
    }
    return view;
}

/// What the flush's event loop carries from one event to the next (see `lp_encode_events`).
typedef struct {
    /// The name and file (addresses) the loop writes with these string ids; others stop it.
    const void *name;
    const void *file;
    uint32_t name_id;
    uint32_t file_id;
    /// The line and category of the last event written: an event with the same call site
    /// (name, file, line, category) is written as a row that says so (flag 0x40).
    uint32_t line;
    uint8_t category;
    /// The row flags of an event like the last one the loop wrote, ended (`site_word`; with
    /// flag 0x40: its call site).
    uint8_t site_flags;
    /// The last event the loop wrote, its `line`, `kind` and `category` as one word (see
    /// `lp_event_site_word`), or 0 when the last event written was not the loop's: an event
    /// with the same word and a duration written as a row with `site_flags` and no call site.
    /// No published event has the word 0 (a kind of 0 is a note, whose category is not 0).
    uint32_t site_word;
    /// The begin tick of the thread's last event written (0 before its first).
    uint64_t previous_begin;
    /// Events written so far.
    long events;
} lp_encode_state;

/// `line`, `kind` and `category` of `event` as one word, read at once (`kind` may still change).
static inline uint32_t lp_event_site_word(const lp_event *event) {
    typedef uint32_t __attribute__((may_alias, aligned(4))) lp_word;
    return __atomic_load_n((const lp_word *)&event->line, __ATOMIC_RELAXED);
}

/// The most bytes `lp_encode_events` writes an event.
enum { LP_ENCODED_EVENT_MAX = 2 + 5 * 10 };

/// Writes `events[from..<count]` as `threadTicks` rows into `out` (room for
/// `LP_ENCODED_EVENT_MAX` bytes an event), up to the first event it leaves to the
/// caller: a note, a mark, a scalar name, a long end, or a name or file other than
/// `state`'s. Returns that event's index (`count` when none), with the bytes
/// written in `*written`.
long lp_encode_events(lp_encode_state *state, const lp_event *events, long from, long count, uint8_t *out,
                      long *written);

/// The most bytes `lp_account_encode_readings` writes a reading.
enum { LP_ENCODED_READING_MAX = 8 * 10 };

/// Writes the first `count` readings of `buffer` (at most what `lp_account_reading_count`
/// returned) into `out` (room for `LP_ENCODED_READING_MAX` bytes a reading) as zigzag
/// varint deltas from the reading before (the first from zeros), field by field in
/// `lp_reading`'s order after `tick`; returns how many it wrote, the bytes in `*written`.
/// Safe while the thread records.
long lp_account_encode_readings(const lp_thread_buffer *buffer, long count, uint8_t *out, long *written);

/// CRC-32 (IEEE 802.3, reflected) of `count` bytes, slice-by-8: the checksum of version 1
/// trace files' sections.
uint32_t lp_crc32(const uint8_t *bytes, long count);
/// CRC-32C (Castagnoli, reflected) of `count` bytes, with the CPU's instruction where there
/// is one: the checksum of version 2 trace files' sections.
uint32_t lp_crc32c(const uint8_t *bytes, long count);
/// CRC-32C in software, whatever the CPU.
uint32_t lp_crc32c_software(const uint8_t *bytes, long count);

/// An accounted span's end, when it may have ended on another thread or outside
/// its thread's current chunk: reads if `buffer` began it and a reading is due,
/// else takes the span out of accounting (its thread's readings do not cover it).
void lp_account_end_elsewhere(lp_thread_buffer *buffer, lp_event *event, uint64_t end);

/// The end of `event` at tick `end`, an accounted span `buffer`'s thread began (its
/// duration stored), as a boundary of that thread: read when a reading is due (`lp_account_due`).
static inline __attribute__((always_inline)) void lp_account_end_boundary(lp_thread_buffer *buffer, lp_event *event, uint64_t end) {
    if (__builtin_expect(lp_account_due(buffer, end), 0)) lp_account_read(buffer, event, 0, end);
    buffer->last_boundary_tick = end;
}

/// The end of an accounted span at tick `end` (its duration stored): a boundary of the calling
/// thread when it began the span in its current chunk (`lp_account_end_boundary`),
/// else `lp_account_end_elsewhere`.
static inline __attribute__((always_inline)) void lp_account_end(lp_event *event, uint64_t end) {
    lp_thread_buffer *buffer = lp_tls_buffer;
    if (__builtin_expect(buffer != 0 && buffer->current != 0 && event >= (lp_event *)(buffer->current + 1)
                         && event < buffer->next, 1)) {
        lp_account_end_boundary(buffer, event, end);
        return;
    }
    lp_account_end_elsewhere(buffer, event, end);
}

/// Forgets `buffer`'s readings (keeping its schedstat descriptor and memory)
/// and makes its next accounted boundary a reading.
void lp_account_rewind(lp_thread_buffer *buffer);

/// Makes the next accounted boundary of `buffer`'s thread a reading.
static inline void lp_account_read_next(lp_thread_buffer *buffer) {
    buffer->next_reading_tick = 0;
    buffer->forced_reading_tick = 0;
    buffer->waitable_ticks = 0;
}

/// Frees `buffer`'s readings and closes its schedstat descriptor (its thread exited).
void lp_account_release(lp_thread_buffer *buffer);

/// How many readings `buffer`'s thread has published (an acquire load: it may be recording).
long lp_account_reading_count(const lp_thread_buffer *buffer);

/// Copies the first `count` readings of `buffer` (at most what
/// `lp_account_reading_count` returned) into `into`, oldest first; returns how
/// many it copied. Safe while the thread records.
long lp_account_copy_readings(const lp_thread_buffer *buffer, lp_reading *into, long count);

/// System calls `buffer`'s thread made for accounting since the last rewind.
uint64_t lp_account_system_calls(const lp_thread_buffer *buffer);

// Accessors for Swift (which must not touch a mutable C global directly in
// Swift 6 mode).
static inline void lp_set_enabled(int enabled) { lp_state.enabled = enabled; }
static inline int lp_tick_source_get(void) { return lp_state.tick_source; }
static inline void lp_tick_source_set(int source) { lp_state.tick_source = source; }
static inline void lp_manual_set(uint64_t now) { lp_state.manual_now = now; }
static inline uint64_t lp_manual_get(void) { return lp_state.manual_now; }
static inline uint64_t lp_runtime_init_ticks(void) { return lp_state.runtime_init_ticks; }
static inline uint64_t lp_runtime_init_ns(void) { return lp_state.runtime_init_ns; }
static inline uint64_t lp_start_pair_ticks(void) { return lp_state.start_pair_ticks; }
static inline uint64_t lp_start_pair_ns(void) { return lp_state.start_pair_ns; }
static inline void lp_set_start_pair(uint64_t ticks, uint64_t ns) {
    lp_state.start_pair_ticks = ticks;
    lp_state.start_pair_ns = ns;
}

/// Takes a (ticks, nanoseconds) calibration pair with the tightest sandwich out of
/// a few tries, so the pair's uncertainty is a few tens of nanoseconds.
void lp_calibration_pair(uint64_t *ticks, uint64_t *ns);

/// True when the CPU counter runs at a constant rate across cores and sleep
/// states (x86_64: CPUID invariant-TSC bit; arm64: always).
int lp_cpu_counter_is_invariant(void);

/// The OS thread id (Linux gettid; Darwin pthread_threadid_np).
uint64_t lp_thread_id(void);

/// 1 when called on the process's main thread.
int lp_is_main_thread(void);
/// 1 when `thread_id` (from `lp_thread_id`) is the process's main thread.
int lp_is_main_thread_id(uint64_t thread_id);

/// Copies the calling thread's name into `buffer` (NUL-terminated); returns
/// its length, 0 when unnamed or unavailable.
int lp_current_thread_name(uint8_t *buffer, long capacity);

/// Names the calling thread (truncated to 15 bytes on Linux).
void lp_set_current_thread_name(const char *name);

/// Starts a detached thread running `body(argument)`, with the caller's signal mask.
/// Where `avoid_cpu` (-1: none) is one of several CPUs the process may use, the thread
/// may use every one but it, from its start: it is never placed there, so it neither
/// preempts the thread running there nor has to be moved off it (a move preempts the CPU
/// it leaves). 0 on success, else an errno.
int lp_thread_start_detached(void *(*body)(void *), void *argument, int avoid_cpu);

struct rusage;
/// The calling thread's usage: getrusage(RUSAGE_THREAD) on Linux (a GNU
/// extension, hence here), the process's on Darwin.
int lp_thread_rusage(struct rusage *usage);

/// A watch on another thread of this process leaving and taking the CPU (Linux:
/// a perf event with context-switch records; `perf_event_paranoid` 2 allows it
/// for a process's own threads). The kernel wakes its reader only once per ring's
/// worth of records (about two thousand switches): the reader looks at the records
/// from memory at its own pace (`lp_switch_watch_look_after`).
typedef struct lp_switch_watch lp_switch_watch;

/// The CPU the calling thread runs on now (`sched_getcpu`), or -1 where that is not known.
int lp_current_cpu(void);

/// What a switch watch last saw of its thread.
enum {
    /// It left the CPU by its own doing (blocked in a call, a fault, a lock).
    LP_SWITCH_BLOCKED = 1,
    /// It is running, or runnable (preempted: waiting for a core).
    LP_SWITCH_RUNNING = 0,
    /// Nothing seen yet, or records were lost.
    LP_SWITCH_UNKNOWN = -1,
    /// The wait was ended by `lp_switch_watch_interrupt`.
    LP_SWITCH_INTERRUPTED = -2,
};

/// Starts watching thread `thread_id` (an OS id of this process), last seen on CPU
/// `thread_cpu` (-1: not known); NULL where perf events are not available (another
/// OS, a container that forbids them, valgrind): the caller falls back to a timer.
lp_switch_watch *lp_switch_watch_open(uint64_t thread_id, int thread_cpu);
/// Reads the records that arrived since the last read, without waiting; returns the state the last one says.
int lp_switch_watch_drain(lp_switch_watch *watch);
/// Sleeps `pause_ns` (or until an interrupt), then reads the records as
/// `lp_switch_watch_drain` does. The thread's switches do not end the pause: waking the
/// reader at a switch would cost the thread's CPU an interrupt.
int lp_switch_watch_look_after(lp_switch_watch *watch, int64_t pause_ns);
/// The switch records read so far (by the thread that reads them).
uint64_t lp_switch_watch_switches(const lp_switch_watch *watch);
/// Ends the current or next wait at once. Any thread.
void lp_switch_watch_interrupt(lp_switch_watch *watch);
/// Keeps the calling thread (the reader) off the CPU the watched thread last ran on,
/// where the reader's own wake-ups would preempt it: when the reader runs on that CPU
/// now, an affinity of every CPU the reader may use but that one. Nothing where the reader runs elsewhere
/// (moving it would cost the watched thread a preemption), may use no other CPU, or the
/// CPU is not known.
void lp_switch_watch_keep_away(lp_switch_watch *watch);
void lp_switch_watch_close(lp_switch_watch *watch);

/// The longest a thread's readings are taken without a system call while it does not
/// leave the CPU (`lp_account_count_switches`), nanoseconds: then the CPU clock is read
/// again. Time the CPU clock does not count (interrupts, the hypervisor's steal: a few
/// percent) adds up for no longer, and the reading that reads the clock again puts it
/// before itself, as time off the CPU: at most a few tens of microseconds in one place.
enum { LP_ACCOUNTING_QUIET_LONGEST_NS = 2 * 1000 * 1000 };

/// Lends accounting a count that grows whenever thread `thread_id` switches: `head`
/// (the perf ring's `data_head`, which grows with every record written) and `tail` (the
/// reader's `data_tail`) of a ring of `data_size` bytes. While the head has not moved
/// since a reading, the thread did not leave the CPU, so its next reading takes the CPU
/// clock as the last one plus the wall time since, with no system call. A ring more than
/// half full (whose next records could be lost without moving the head) lends nothing.
/// Up to 8 counts at a time, process-wide, one a thread; returns 0 when none more can be lent.
int lp_account_count_switches(uint64_t thread_id, const uint64_t *head, const uint64_t *tail, uint64_t data_size);
/// Makes the memory where switch counts are lent the process's own, before any is lent:
/// called where a thread turns accounting on, so that the thread that lends a count later
/// does not take a copy-on-write fault whose TLB flush interrupts the accounted thread.
void lp_account_prepare_switch_counts(void);
/// Takes back the count `head` lent (nothing when it is not the one lent), waiting for a
/// reading that is using it to finish: after it returns, the ring may be unmapped.
void lp_account_stop_counting_switches(const uint64_t *head);
/// Readings of `buffer`'s thread taken without a system call since the last rewind.
uint64_t lp_account_quiet_readings(const lp_thread_buffer *buffer);

#ifdef __cplusplus
}
#endif

#endif
