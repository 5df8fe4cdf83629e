// The flush's inner loop: events written as the trace file's `threadTicks` rows, and the
// sections' CRC-32, in C (the Swift they replace cost several times as many instructions
// an event; the flush at exit pays this once per event).
#include "LaunchTracingShims.h"

#include <pthread.h>
#include <string.h>

static inline uint8_t *lp_put_varint(uint8_t *out, uint64_t value) {
    // Straight-line up to 3 bytes (ids, lines, most tick deltas); a loop past that.
    if (value < 0x80) {
        *out = (uint8_t)value;
        return out + 1;
    }
    if (value < 0x4000) {
        out[0] = (uint8_t)(value | 0x80);
        out[1] = (uint8_t)(value >> 7);
        return out + 2;
    }
    if (value < 0x200000) {
        out[0] = (uint8_t)(value | 0x80);
        out[1] = (uint8_t)((value >> 7) | 0x80);
        out[2] = (uint8_t)(value >> 14);
        return out + 3;
    }
    while (value >= 0x80) {
        *out++ = (uint8_t)(value | 0x80);
        value >>= 7;
    }
    *out++ = (uint8_t)value;
    return out;
}

static inline uint8_t *lp_put_signed(uint8_t *out, uint64_t difference) {
    int64_t value = (int64_t)difference;
    return lp_put_varint(out, ((uint64_t)value << 1) ^ (uint64_t)(value >> 63));
}

long lp_encode_events(lp_encode_state *state, const lp_event *events, long from, long count, uint8_t *out,
                      long *written) {
    uint8_t *start = out;
    // The state in locals: stores through `out` could alias it, and would reload it every byte.
    const void *name = state->name, *file = state->file;
    uint32_t site_word = state->site_word;
    uint8_t site_flags = state->site_flags;
    uint64_t previous_begin = state->previous_begin;
    const lp_event *event = events + from, *end = events + (name == 0 || file == 0 ? from : count);
    for (; event < end; event++) {
        if (event->name != name || event->file != file) break;
        uint32_t duration = __atomic_load_n(&event->duration, __ATOMIC_ACQUIRE);
        uint32_t word = lp_event_site_word(event);
        uint64_t begin = event->begin;
        // The common row: an ended span (not a long one) with the last row's call site, kind and flags.
        if (__builtin_expect(word == site_word, 1) && __builtin_expect(duration - 1u < LP_DURATION_LONG - 1u, 1)) {
            *out++ = site_flags;
        } else {
            uint8_t stored = __atomic_load_n(&event->kind, __ATOMIC_RELAXED);
            uint8_t kind = stored & LP_EVENT_KIND_MASK;
            // Left to the caller: notes (kind 0), marks (kind 3), scalar names, long ends.
            if ((((1u << kind) & 0x9u) | (stored & LP_EVENT_FLAG_SCALAR_NAME)) != 0 || duration == LP_DURATION_LONG) {
                break;
            }
            int open = kind == LP_EVENT_SPAN && duration == 0;
            uint8_t ended = (uint8_t)(kind | ((stored & LP_EVENT_FLAG_USAGE) ? 0x20 : 0));
            uint8_t flags = open ? (uint8_t)(kind | 0x10) : ended;
            uint32_t line = (uint32_t)event->line | ((uint32_t)(stored & LP_EVENT_LINE_HIGH_MASK) >> LP_EVENT_LINE_HIGH_SHIFT) << 16;
            uint8_t category = event->category;
            if (line == state->line && category == state->category) {
                *out++ = flags | 0x40;  // the previous event's call site: name, file, line and category
            } else {
                *out++ = flags;
                *out++ = category;
                out = lp_put_varint(out, state->name_id);
                out = lp_put_varint(out, state->file_id);
                out = lp_put_varint(out, line);
                state->line = line;
                state->category = category;
            }
            site_word = word;
            site_flags = ended | 0x40;
            if (open) {
                out = lp_put_signed(out, begin - previous_begin);
                previous_begin = begin;
                continue;
            }
        }
        out = lp_put_signed(out, begin - previous_begin);
        out = lp_put_varint(out, (uint64_t)duration << 1);  // zigzag of a positive delta
        previous_begin = begin;
    }
    state->site_word = site_word;
    state->site_flags = site_flags;
    state->previous_begin = previous_begin;
    long index = event - events;
    state->events += index - from;
    *written = out - start;
    return index;
}

long lp_account_encode_readings(const lp_thread_buffer *buffer, long count, uint8_t *out, long *written) {
    uint8_t *start = out;
    *written = 0;
    const lp_accounting *accounting = __atomic_load_n(&buffer->usage, __ATOMIC_ACQUIRE);
    if (accounting == 0) return 0;
    long published = __atomic_load_n(&accounting->count, __ATOMIC_ACQUIRE);
    if (count > published) count = published;
    // As lp_account_copy_readings: a block's `next` is read only when a published reading lies beyond it.
    long done = 0;
    lp_reading previous = {0};
    for (const lp_reading_block *block = count > 0 ? accounting->first : 0; block != 0; block = block->next) {
        long take = count - done < block->capacity ? count - done : block->capacity;
        for (long index = 0; index < take; index++) {
            lp_reading reading = block->readings[index];  // (a copy: `out` could alias it)
            out = lp_put_signed(out, reading.tick - previous.tick);
            out = lp_put_signed(out, reading.wall_ns - previous.wall_ns);
            out = lp_put_signed(out, reading.cpu_ns - previous.cpu_ns);
            out = lp_put_signed(out, reading.run_queue_ns - previous.run_queue_ns);
            out = lp_put_signed(out, reading.voluntary_switches - previous.voluntary_switches);
            out = lp_put_signed(out, reading.involuntary_switches - previous.involuntary_switches);
            out = lp_put_signed(out, reading.minor_faults - previous.minor_faults);
            out = lp_put_signed(out, reading.major_faults - previous.major_faults);
            previous = reading;
        }
        done += take;
        if (done == count) break;
    }
    *written = out - start;
    return done;
}

// MARK: CRC-32 (IEEE 802.3, reflected, polynomial 0xEDB88320) and CRC-32C (Castagnoli,
// reflected, polynomial 0x82F63B78), slice-by-8; CRC-32C with the CPU's instruction where
// there is one (x86_64 SSE 4.2, arm64's CRC extension).

static uint32_t lp_crc_tables[2][8][256];
static pthread_once_t lp_crc_once = PTHREAD_ONCE_INIT;

static void lp_crc_make_tables(void) {
    const uint32_t polynomials[2] = {0xEDB88320u, 0x82F63B78u};
    for (int which = 0; which < 2; which++) {
        for (uint32_t index = 0; index < 256; index++) {
            uint32_t crc = index;
            for (int bit = 0; bit < 8; bit++) crc = crc & 1 ? (crc >> 1) ^ polynomials[which] : crc >> 1;
            lp_crc_tables[which][0][index] = crc;
        }
        for (uint32_t index = 0; index < 256; index++) {
            uint32_t crc = lp_crc_tables[which][0][index];
            for (int table = 1; table < 8; table++) {
                crc = lp_crc_tables[which][0][crc & 0xFF] ^ (crc >> 8);
                lp_crc_tables[which][table][index] = crc;
            }
        }
    }
}

static uint32_t lp_crc_slice8(const uint32_t (*t)[256], const uint8_t *bytes, long count) {
    uint32_t crc = 0xFFFFFFFFu;
    long index = 0;
    for (; index + 8 <= count; index += 8) {
        uint32_t low = ((uint32_t)bytes[index] | (uint32_t)bytes[index + 1] << 8 | (uint32_t)bytes[index + 2] << 16
                        | (uint32_t)bytes[index + 3] << 24) ^ crc;
        uint32_t high = (uint32_t)bytes[index + 4] | (uint32_t)bytes[index + 5] << 8 | (uint32_t)bytes[index + 6] << 16
                        | (uint32_t)bytes[index + 7] << 24;
        crc = t[7][low & 0xFF] ^ t[6][(low >> 8) & 0xFF] ^ t[5][(low >> 16) & 0xFF] ^ t[4][low >> 24]
            ^ t[3][high & 0xFF] ^ t[2][(high >> 8) & 0xFF] ^ t[1][(high >> 16) & 0xFF] ^ t[0][high >> 24];
    }
    for (; index < count; index++) crc = t[0][(crc ^ bytes[index]) & 0xFF] ^ (crc >> 8);
    return crc ^ 0xFFFFFFFFu;
}

uint32_t lp_crc32(const uint8_t *bytes, long count) {
    pthread_once(&lp_crc_once, lp_crc_make_tables);
    return lp_crc_slice8(lp_crc_tables[0], bytes, count);
}

#if defined(__x86_64__)
__attribute__((target("sse4.2"))) static uint32_t lp_crc32c_instruction(const uint8_t *bytes, long count) {
    uint64_t crc = 0xFFFFFFFFu;
    long index = 0;
    for (; index + 8 <= count; index += 8) {
        uint64_t word;
        memcpy(&word, bytes + index, 8);
        crc = __builtin_ia32_crc32di(crc, word);
    }
    uint32_t low = (uint32_t)crc;
    for (; index < count; index++) low = __builtin_ia32_crc32qi(low, bytes[index]);
    return low ^ 0xFFFFFFFFu;
}
#elif defined(__aarch64__) && defined(__ARM_FEATURE_CRC32)
#include <arm_acle.h>
static uint32_t lp_crc32c_instruction(const uint8_t *bytes, long count) {
    uint32_t crc = 0xFFFFFFFFu;
    long index = 0;
    for (; index + 8 <= count; index += 8) {
        uint64_t word;
        memcpy(&word, bytes + index, 8);
        crc = __crc32cd(crc, word);
    }
    for (; index < count; index++) crc = __crc32cb(crc, bytes[index]);
    return crc ^ 0xFFFFFFFFu;
}
#endif

uint32_t lp_crc32c(const uint8_t *bytes, long count) {
#if defined(__x86_64__)
    static int instruction = -1;
    if (instruction < 0) instruction = __builtin_cpu_supports("sse4.2") ? 1 : 0;
    if (instruction) return lp_crc32c_instruction(bytes, count);
#elif defined(__aarch64__) && defined(__ARM_FEATURE_CRC32)
    return lp_crc32c_instruction(bytes, count);
#endif
    pthread_once(&lp_crc_once, lp_crc_make_tables);
    return lp_crc_slice8(lp_crc_tables[1], bytes, count);
}

/// The software CRC-32C, whatever the CPU (tests compare the two).
uint32_t lp_crc32c_software(const uint8_t *bytes, long count) {
    pthread_once(&lp_crc_once, lp_crc_make_tables);
    return lp_crc_slice8(lp_crc_tables[1], bytes, count);
}
