// Watching a thread of this process leave the CPU (Linux): a perf software event
// that records the thread's context switches, so the main-thread sampler can look at
// them from memory once a period and sample only when the thread has blocked, instead
// of reading /proc every millisecond. The kernel is not asked to wake the reader at
// each switch: on a 2-core virtual machine that cost a 30 ms launch about 0.1 ms more
// (Benchmarks/RESULTS.md).

#define _GNU_SOURCE
#include "LaunchTracingShims.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#if defined(__linux__)
#include <linux/perf_event.h>
#include <poll.h>
#include <sched.h>
#include <sys/eventfd.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#endif

struct lp_switch_watch {
    /// The perf event on the watched thread, and its ring: a metadata page, then `data_size` bytes.
    int fd;
    void *ring;
    size_t ring_size;
    uint64_t data_size;
    /// An eventfd that ends a wait (`lp_switch_watch_interrupt`).
    int wake;
    /// What the last record said: LP_SWITCH_BLOCKED or LP_SWITCH_RUNNING.
    int state;
    /// Switch records read so far.
    uint64_t switches;
    /// The CPU of the last switch record (where the thread runs, or last ran); -1 unknown.
    int thread_cpu;
#if defined(__linux__)
    /// The watched thread's id, and the CPUs it may use (read when the reader first moves).
    uint64_t thread_id;
    cpu_set_t reader_cpus;
    int reader_cpus_known;
#endif
};

enum { LP_SWITCH_RING_PAGES = 8 };

int lp_current_cpu(void) {
#if defined(__linux__)
    return sched_getcpu();
#else
    return -1;
#endif
}

lp_switch_watch *lp_switch_watch_open(uint64_t thread_id, int thread_cpu) {
#if defined(__linux__) && defined(PERF_RECORD_MISC_SWITCH_OUT_PREEMPT)
    struct perf_event_attr attr;
    memset(&attr, 0, sizeof attr);
    attr.size = sizeof attr;
    attr.type = PERF_TYPE_SOFTWARE;
    attr.config = PERF_COUNT_SW_DUMMY;
    attr.context_switch = 1;
    // What an unprivileged process may watch of its own threads (perf_event_paranoid 2).
    attr.exclude_kernel = 1;
    attr.exclude_hv = 1;
    // Wake a reader (an interrupt on the thread's CPU) only once per ring's worth of bytes
    // written, about two thousand switch records: the reader looks at its own pace.
    long page = sysconf(_SC_PAGESIZE);
    attr.watermark = 1;
    attr.wakeup_watermark = (uint32_t)(page * LP_SWITCH_RING_PAGES);
    // Each record ends with the CPU it happened on (`struct sample_id`: u32 cpu, u32 reserved).
    attr.sample_id_all = 1;
    attr.sample_type = PERF_SAMPLE_CPU;
    long fd = syscall(SYS_perf_event_open, &attr, (pid_t)thread_id, -1, -1, PERF_FLAG_FD_CLOEXEC);
    if (fd < 0) return 0;
    size_t size = (size_t)page * (1 + LP_SWITCH_RING_PAGES);
    // Writable: the reader moves `data_tail`, so the kernel never overwrites records not yet read.
    void *ring = mmap(0, size, PROT_READ | PROT_WRITE, MAP_SHARED, (int)fd, 0);
    if (ring == MAP_FAILED) {
        close((int)fd);
        return 0;
    }
    int wake = eventfd(0, EFD_CLOEXEC | EFD_NONBLOCK);
    lp_switch_watch *watch = calloc(1, sizeof *watch);
    if (wake < 0 || watch == 0) {
        if (wake >= 0) close(wake);
        free(watch);
        munmap(ring, size);
        close((int)fd);
        return 0;
    }
    watch->fd = (int)fd;
    watch->ring = ring;
    watch->ring_size = size;
    watch->data_size = (uint64_t)page * LP_SWITCH_RING_PAGES;
    watch->wake = wake;
    watch->state = LP_SWITCH_UNKNOWN;
    watch->thread_cpu = thread_cpu;
    watch->thread_id = thread_id;
    // Accounting's readings of the thread skip the CPU clock while this ring's head stays put.
    struct perf_event_mmap_page *meta = ring;
    lp_account_count_switches(thread_id, (const uint64_t *)&meta->data_head, (const uint64_t *)&meta->data_tail,
                              watch->data_size);
    return watch;
#else
    (void)thread_id;
    (void)thread_cpu;
    return 0;
#endif
}

int lp_switch_watch_drain(lp_switch_watch *watch) {
#if defined(__linux__) && defined(PERF_RECORD_MISC_SWITCH_OUT_PREEMPT)
    struct perf_event_mmap_page *meta = watch->ring;
    const char *data = (const char *)watch->ring + (watch->ring_size - watch->data_size);
    uint64_t head = __atomic_load_n(&meta->data_head, __ATOMIC_ACQUIRE);
    uint64_t tail = meta->data_tail;
    while (tail + sizeof(struct perf_event_header) <= head) {
        struct perf_event_header header;
        memcpy(&header, data + (tail % watch->data_size), sizeof header);  // records are 8-byte aligned: never split
        if (header.size == 0) break;
        if (header.type == PERF_RECORD_SWITCH) {
            int out = (header.misc & PERF_RECORD_MISC_SWITCH_OUT) != 0;
            int preempted = (header.misc & PERF_RECORD_MISC_SWITCH_OUT_PREEMPT) != 0;
            // Preempted, the thread is runnable: waiting for a core, which accounting measures.
            watch->state = out && !preempted ? LP_SWITCH_BLOCKED : LP_SWITCH_RUNNING;
            watch->switches += 1;
            // The sample_id trailer: the record's last 8 bytes, the CPU first.
            if (header.size >= sizeof header + 8) {
                uint32_t cpu;
                uint64_t at = tail + header.size - 8;
                memcpy(&cpu, data + (at % watch->data_size), sizeof cpu);
                watch->thread_cpu = (int)cpu;
            }
        } else if (header.type == PERF_RECORD_LOST) {
            watch->state = LP_SWITCH_UNKNOWN;
        }
        tail += header.size;
    }
    __atomic_store_n(&meta->data_tail, tail, __ATOMIC_RELEASE);
    return watch->state;
#else
    (void)watch;
    return LP_SWITCH_UNKNOWN;
#endif
}

int lp_switch_watch_look_after(lp_switch_watch *watch, int64_t pause_ns) {
#if defined(__linux__) && defined(PERF_RECORD_MISC_SWITCH_OUT_PREEMPT)
    // Only the interrupt's eventfd: the kernel does not wake readers of the ring (see lp_switch_watch_open).
    struct pollfd fds[1] = {{.fd = watch->wake, .events = POLLIN}};
    if (pause_ns < 0) pause_ns = 0;
    struct timespec pause = {.tv_sec = pause_ns / 1000000000, .tv_nsec = pause_ns % 1000000000};
    int ready = ppoll(fds, 1, &pause, 0);
    // A poll that cannot wait (not an interrupted one) must not make the reader spin: a plain sleep.
    if (ready < 0 && errno != EINTR) nanosleep(&pause, 0);
    if (ready > 0 && (fds[0].revents & POLLIN)) {
        uint64_t count;
        if (read(watch->wake, &count, sizeof count) < 0) {}
        return LP_SWITCH_INTERRUPTED;
    }
    return lp_switch_watch_drain(watch);
#else
    (void)watch;
    (void)pause_ns;
    return LP_SWITCH_UNKNOWN;
#endif
}

uint64_t lp_switch_watch_switches(const lp_switch_watch *watch) {
    return watch->switches;
}

void lp_switch_watch_interrupt(lp_switch_watch *watch) {
#if defined(__linux__)
    uint64_t one = 1;
    if (write(watch->wake, &one, sizeof one) < 0) {}
#else
    (void)watch;
#endif
}

void lp_switch_watch_keep_away(lp_switch_watch *watch) {
#if defined(__linux__)
    int cpu = watch->thread_cpu;
    // Only where the reader runs on that CPU now: moving a thread costs the CPU it leaves a
    // preemption (the migration stopper runs there), about 0.2 ms of a launch on a 2-core VM.
    if (cpu < 0 || cpu >= CPU_SETSIZE || sched_getcpu() != cpu) return;
    if (!watch->reader_cpus_known) {
        // The watched thread's CPUs: the reader's own may already leave one out.
        if (sched_getaffinity((pid_t)watch->thread_id, sizeof watch->reader_cpus, &watch->reader_cpus) != 0) return;
        watch->reader_cpus_known = 1;
    }
    cpu_set_t away = watch->reader_cpus;
    CPU_CLR(cpu, &away);
    if (CPU_COUNT(&away) == 0) return;  // one CPU for both: nothing to keep away to
    sched_setaffinity(0, sizeof away, &away);
#else
    (void)watch;
#endif
}

void lp_switch_watch_close(lp_switch_watch *watch) {
    if (watch == 0) return;
#if defined(__linux__)
    lp_account_stop_counting_switches((const uint64_t *)&((struct perf_event_mmap_page *)watch->ring)->data_head);
    munmap(watch->ring, watch->ring_size);
    close(watch->fd);
    close(watch->wake);
#endif
    free(watch);
}
