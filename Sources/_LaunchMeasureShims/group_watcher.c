// lp_start_group_watcher / lp_watch_group / lp_forget_group: a process that
// ends the launches' process groups when launchprof dies. See LaunchMeasureShims.h.

#define _GNU_SOURCE
#include "LaunchMeasureShims.h"
#include "sanitizers.h"

#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <signal.h>
#include <spawn.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <sys/mman.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

/// close_range(2): the same number on every Linux architecture (Linux 5.9+).
#define LP_SYS_CLOSE_RANGE 436
/// The most groups the watcher follows at once (launches under way in one process).
#define LP_WATCH_MAX 1024

static pthread_mutex_t lp_watch_lock = PTHREAD_MUTEX_INITIALIZER;
/// launchprof's end of the socket pair (close-on-exec, numbered 10 or above), or -1.
static int lp_watch_fd = -1;
static pid_t lp_watch_pid = 0;
/// The process that started the watcher: a process forked from it has none.
static pid_t lp_watch_owner = 0;

/// One message to the watcher: a group to follow (> 0) with its launch's spawn
/// stamp (0: none), or one to forget (< 0).
typedef struct {
    int32_t group;
    uint32_t unused;
    uint64_t stamp;
} lp_watch_message;

#if !defined(LP_UNDER_THREAD_SANITIZER)

/// Closes every descriptor but `keep` (close_range, or one by one where the kernel lacks it).
static void lp_close_all_but(int keep) {
    int closed = 0;
    if (keep > 0) closed = syscall(LP_SYS_CLOSE_RANGE, 0U, (unsigned)keep - 1, 0U) == 0;
    else closed = 1;
    if (closed && syscall(LP_SYS_CLOSE_RANGE, (unsigned)keep + 1, ~0U, 0U) == 0) return;
    struct rlimit limit;
    long highest = getrlimit(RLIMIT_NOFILE, &limit) == 0 && limit.rlim_cur != RLIM_INFINITY ? (long)limit.rlim_cur : 65536;
    if (highest > 1048576) highest = 1048576;
    for (long fd = 0; fd < highest; fd++) {
        if (fd != keep) close((int)fd);
    }
}

/// Reads up to `size - 1` bytes of the file at `path` into `buffer`; the count, or -1.
static ssize_t lp_read_file(const char *path, char *buffer, size_t size) {
    int fd = open(path, O_RDONLY | O_CLOEXEC);
    if (fd < 0) return -1;
    ssize_t total = 0;
    while ((size_t)total < size - 1) {
        ssize_t got = read(fd, buffer + total, size - 1 - (size_t)total);
        if (got < 0 && errno == EINTR) continue;
        if (got <= 0) break;
        total += got;
    }
    close(fd);
    return total;
}

/// "/proc/<pid>/<name>" into `path` (room for 64 bytes), without stdio's locale or allocation.
static void lp_proc_path(char *path, long pid, const char *name) {
    char digits[24];
    int length = 0;
    do { digits[length++] = (char)('0' + pid % 10); pid /= 10; } while (pid > 0 && length < 20);
    char *at = path;
    for (const char *p = "/proc/"; *p; p++) *at++ = *p;
    while (length > 0) *at++ = digits[--length];
    *at++ = '/';
    for (const char *p = name; *p && at < path + 62; p++) *at++ = *p;
    *at = 0;
}

/// One process of the table the watcher reads from /proc before it ends anything.
typedef struct {
    int32_t pid, parent, group;
    int16_t marked, zombie;
} lp_proc_entry;

/// True when the environment in `buffer` (`count` bytes of NUL-ended entries)
/// holds `LAUNCHPROF_SPAWN_NS=<stamp as 20 digits>` for one of the `count_stamps` stamps.
static int lp_holds_stamp(const char *buffer, ssize_t count, const uint64_t *stamps, int count_stamps) {
    static const char name[] = "LAUNCHPROF_SPAWN_NS=";
    const size_t name_length = sizeof name - 1;
    ssize_t start = 0;
    while (start < count) {
        ssize_t end = start;
        while (end < count && buffer[end] != 0) end++;
        if ((size_t)(end - start) == name_length + 20 && memcmp(buffer + start, name, name_length) == 0) {
            uint64_t value = 0;
            int digits = 1;
            for (size_t i = 0; i < 20; i++) {
                char c = buffer[start + (ssize_t)name_length + (ssize_t)i];
                if (c < '0' || c > '9') { digits = 0; break; }
                value = value * 10 + (uint64_t)(c - '0');
            }
            for (int i = 0; digits && i < count_stamps; i++) {
                if (stamps[i] != 0 && stamps[i] == value) return 1;
            }
        }
        start = end + 1;
    }
    return 0;
}

/// Reads /proc into `table` (room for `capacity`): every process's parent and group,
/// marked when it is in one of `groups` or its environment holds one of `stamps`
/// (the one descendants rule LaunchMeasure's ProcessTable.swift applies), then marks
/// what descends from a marked one by parentage. Returns how many were read.
static int lp_read_table(lp_proc_entry *table, int capacity, const int32_t *groups, const uint64_t *stamps,
                         int count, char *environment, size_t environment_size) {
    int proc = open("/proc", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
    if (proc < 0) return 0;
    int found = 0;
    pid_t me = getpid();
    char entries[8192];
    for (;;) {
        long got = syscall(SYS_getdents64, proc, entries, sizeof entries);
        if (got < 0 && errno == EINTR) continue;
        if (got <= 0) break;
        for (long offset = 0; offset < got;) {
            // struct linux_dirent64: d_ino (8), d_off (8), d_reclen (2), d_type (1), d_name.
            unsigned short length;
            memcpy(&length, entries + offset + 16, sizeof length);
            const char *name = entries + offset + 19;
            offset += length;
            long pid = 0;
            int digits = 1;
            for (const char *c = name; *c; c++) {
                if (*c < '0' || *c > '9') { digits = 0; break; }
                pid = pid * 10 + (*c - '0');
            }
            if (!digits || pid <= 0 || pid == me || found >= capacity) continue;
            char path[64], stat[1024];
            lp_proc_path(path, pid, "stat");
            ssize_t size = lp_read_file(path, stat, sizeof stat);
            if (size <= 0) continue;
            stat[size] = 0;
            // "pid (comm) state ppid pgrp …": comm may hold anything, so read after the last ')'.
            char *close_paren = NULL;
            for (char *c = stat; *c; c++) if (*c == ')') close_paren = c;
            if (!close_paren) continue;
            char *fields = close_paren + 1;
            long values[3] = {0, 0, 0};  // state, ppid, pgrp
            int field = -1;
            for (char *c = fields; *c && field < 3; c++) {
                if (*c == ' ') { field++; continue; }
                if (field == 0) values[0] = *c;
                if (field >= 1 && field <= 2) values[field] = values[field] * 10 + (*c >= '0' && *c <= '9' ? *c - '0' : 0);
            }
            lp_proc_entry *entry = &table[found++];
            entry->pid = (int32_t)pid;
            entry->parent = (int32_t)values[1];
            entry->group = (int32_t)values[2];
            entry->marked = 0;
            entry->zombie = values[0] == 'Z';
            for (int i = 0; i < count; i++) if (groups[i] == entry->group) entry->marked = 1;
            if (!entry->marked) {
                lp_proc_path(path, pid, "environ");
                ssize_t length_read = lp_read_file(path, environment, environment_size);
                if (length_read > 0 && lp_holds_stamp(environment, length_read, stamps, count)) entry->marked = 1;
            }
        }
    }
    close(proc);
    // Parentage: whatever descends from a marked process is the launch's too.
    for (int grew = 1; grew;) {
        grew = 0;
        for (int i = 0; i < found; i++) {
            if (table[i].marked) continue;
            for (int j = 0; j < found; j++) {
                if (table[j].marked && table[j].pid == table[i].parent) {
                    table[i].marked = 1;
                    grew = 1;
                    break;
                }
            }
        }
    }
    return found;
}

/// Ends every group followed and every process of their launches that left them
/// (``lp_read_table``), reading /proc again until a pass finds none left (a
/// process forked during a pass is found by the next).
static void lp_end_launches(const int32_t *groups, const uint64_t *stamps, int count) {
    const int capacity = 65536;
    size_t table_size = sizeof(lp_proc_entry) * (size_t)capacity;
    size_t environment_size = 1 << 20;
    void *memory = mmap(NULL, table_size + environment_size, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    for (int i = 0; i < count; i++) kill(-groups[i], SIGSTOP);  // nothing in them forks meanwhile
    if (memory != MAP_FAILED) {
        lp_proc_entry *table = memory;
        char *environment = (char *)memory + table_size;
        for (int pass = 0; pass < 16; pass++) {
            int found = lp_read_table(table, capacity, groups, stamps, count, environment, environment_size);
            int ended = 0;
            for (int i = 0; i < found; i++) {
                if (table[i].marked && !table[i].zombie && kill(table[i].pid, SIGKILL) == 0) ended++;
            }
            for (int i = 0; i < count; i++) kill(-groups[i], SIGKILL);
            if (ended == 0) break;
            // Killed ones become zombies (skipped by the next pass) once the signal is delivered.
            struct timespec pause = {0, 20 * 1000 * 1000};
            nanosleep(&pause, NULL);
        }
        munmap(memory, table_size + environment_size);
    }
    for (int i = 0; i < count; i++) kill(-groups[i], SIGKILL);
}

/// The watcher: no Swift, no allocation, only system calls. Every signal but
/// SIGKILL blocked (a Ctrl-C or SIGTERM sent to launchprof's process group
/// must not end it first). Reads messages until launchprof's end is closed —
/// launchprof exited, however it died — then ends every group still followed
/// and what of their launches left them (``lp_end_launches``).
static void lp_watcher_main(int fd) {
    sigset_t all;
    sigfillset(&all);
    sigprocmask(SIG_SETMASK, &all, NULL);
    lp_close_all_but(fd);
    if (chdir("/") != 0) { /* only so that no mount is kept busy */ }
    int32_t groups[LP_WATCH_MAX];
    uint64_t stamps[LP_WATCH_MAX];
    int count = 0;
    for (;;) {
        lp_watch_message message;
        memset(&message, 0, sizeof message);
        ssize_t got = recv(fd, &message, sizeof message, 0);
        if (got < 0 && errno == EINTR) continue;
        if (got <= 0) break;  // end of file: launchprof is gone
        if (got != (ssize_t)sizeof message || message.group == 0) continue;
        if (message.group > 0) {
            if (count < LP_WATCH_MAX) {
                groups[count] = message.group;
                stamps[count++] = message.stamp;
            }
        } else {
            for (int i = 0; i < count; i++) {
                if (groups[i] == -message.group) {
                    --count;
                    groups[i] = groups[count];
                    stamps[i] = stamps[count];
                    break;
                }
            }
        }
    }
    lp_end_launches(groups, stamps, count);
    _exit(0);
}

/// Starts `lp_watcher_main` two forks away; its pid in `*child`. Called with
/// lp_watch_lock held, `end` the watcher's end of the socket pair.
static int lp_spawn_watcher(int end, pid_t *child) {
    int report[2] = {-1, -1};
    if (pipe2(report, O_CLOEXEC) != 0) return errno;
    // Two forks: the watcher is nobody's child here (its parent exits at once), so
    // launchprof, the subreaper of its launches' orphans, never finds it among them.
    pid_t middle = fork();
    if (middle < 0) {
        int error = errno;
        close(report[0]);
        close(report[1]);
        return error;
    }
    if (middle == 0) {
        pid_t watcher = fork();
        if (watcher == 0) lp_watcher_main(end);
        ssize_t written = write(report[1], &watcher, sizeof watcher);
        _exit(written == (ssize_t)sizeof watcher && watcher > 0 ? 0 : 1);
    }
    close(report[1]);
    pid_t watcher = -1;
    ssize_t got;
    do { got = read(report[0], &watcher, sizeof watcher); } while (got < 0 && errno == EINTR);
    int status;
    while (waitpid(middle, &status, 0) < 0 && errno == EINTR) {}
    close(report[0]);
    if (got != (ssize_t)sizeof watcher || watcher <= 0) return ECHILD;
    *child = watcher;
    return 0;
}

#else

/// ThreadSanitizer's build cannot fork (see sanitizers.h): the watcher is this
/// shell script, started with posix_spawn. The outer shell starts the loop in the
/// background (so that it is nobody's child here), writes its pid to fd 3 and
/// exits. The loop reads one line a message from launchprof's socket ("123": a
/// group to follow, "-123": one to forget) with every signal it can ignore
/// ignored, and at end of file kills every group still followed.
static const char lp_watcher_script[] =
    "trap '' HUP INT QUIT TERM PIPE USR1 USR2 ALRM TSTP TTIN TTOU\n"
    "cd /\n"
    "{\n"
    "  groups=''\n"
    "  while read -r message; do\n"
    "    case $message in\n"
    "      -*) kept=''; for group in $groups; do [ \"$group\" = \"${message#-}\" ] || kept=\"$kept $group\"; done; groups=$kept ;;\n"
    "      *[!0-9]*|'') ;;\n"
    "      *) groups=\"$groups $message\" ;;\n"
    "    esac\n"
    "  done\n"
    "  for group in $groups; do kill -s KILL -- \"-$group\" 2>/dev/null; done\n"
    "} 0<&4 3>&- 4<&- &\n"
    "echo $! >&3\n";

/// Starts the script; its pid in `*child`. Called with lp_watch_lock held, `end`
/// the watcher's end of the socket pair.
static int lp_spawn_watcher(int end, pid_t *child) {
    int report[2] = {-1, -1};
    if (pipe2(report, O_CLOEXEC) != 0) return errno;
    posix_spawn_file_actions_t actions;
    posix_spawnattr_t attributes;
    int error = posix_spawn_file_actions_init(&actions);
    if (error) {
        close(report[0]);
        close(report[1]);
        return error;
    }
    posix_spawnattr_init(&attributes);
    sigset_t every;
    sigfillset(&every);
    error = posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0);
    if (!error) error = posix_spawn_file_actions_addopen(&actions, 1, "/dev/null", O_WRONLY, 0);
    if (!error) error = posix_spawn_file_actions_adddup2(&actions, 1, 2);
    if (!error) error = posix_spawn_file_actions_adddup2(&actions, report[1], 3);
    if (!error) error = posix_spawn_file_actions_adddup2(&actions, end, 4);
    if (!error) error = posix_spawn_file_actions_addclosefrom_np(&actions, 5);
    if (!error) error = posix_spawnattr_setsigdefault(&attributes, &every);
    if (!error) error = posix_spawnattr_setflags(&attributes, POSIX_SPAWN_SETSIGDEF);
    pid_t shell = -1;
    char *const argv[] = {"sh", "-c", (char *)lp_watcher_script, NULL};
    char *const envp[] = {"PATH=/usr/bin:/bin", NULL};
    if (!error) error = posix_spawn(&shell, "/bin/sh", &actions, &attributes, argv, envp);
    posix_spawnattr_destroy(&attributes);
    posix_spawn_file_actions_destroy(&actions);
    close(report[1]);
    if (error) {
        close(report[0]);
        return error;
    }
    char digits[24];
    size_t length = 0;
    for (;;) {
        ssize_t got = read(report[0], digits + length, sizeof digits - 1 - length);
        if (got < 0 && errno == EINTR) continue;
        if (got <= 0) break;
        length += (size_t)got;
        if (length == sizeof digits - 1) break;
    }
    digits[length] = 0;
    close(report[0]);
    int status;
    while (waitpid(shell, &status, 0) < 0 && errno == EINTR) {}
    long pid = strtol(digits, NULL, 10);
    if (pid <= 0) return ECHILD;
    *child = (pid_t)pid;
    return 0;
}

#endif

int lp_start_group_watcher(pid_t *watcher) {
    pthread_mutex_lock(&lp_watch_lock);
    if (__atomic_load_n(&lp_watch_owner, __ATOMIC_ACQUIRE) == getpid()) {
        *watcher = lp_watch_pid;
        pthread_mutex_unlock(&lp_watch_lock);
        return 0;
    }
    int ends[2] = {-1, -1};
    int type = SOCK_SEQPACKET;
#if defined(LP_UNDER_THREAD_SANITIZER)
    type = SOCK_STREAM;  // the script reads lines
#endif
    if (socketpair(AF_UNIX, type | SOCK_CLOEXEC, 0, ends) != 0) {
        int error = errno;
        pthread_mutex_unlock(&lp_watch_lock);
        return error;
    }
    int mine = fcntl(ends[0], F_DUPFD_CLOEXEC, 10);
    pid_t child = -1;
    int error = mine < 0 ? errno : lp_spawn_watcher(ends[1], &child);
    close(ends[0]);
    close(ends[1]);
    if (error) {
        if (mine >= 0) close(mine);
        pthread_mutex_unlock(&lp_watch_lock);
        return error;
    }
    ends[0] = mine;
    // Published with release stores: lp_watch_send reads them without the lock,
    // from the spawning thread, its children and the reaping threads.
    lp_watch_pid = child;
    __atomic_store_n(&lp_watch_fd, ends[0], __ATOMIC_RELEASE);
    __atomic_store_n(&lp_watch_owner, getpid(), __ATOMIC_RELEASE);
    *watcher = child;
    pthread_mutex_unlock(&lp_watch_lock);
    return 0;
}

/// One message to the watcher; never blocks, never raises SIGPIPE.
static void lp_watch_send(int32_t group, uint64_t stamp, pid_t from) {
    if (__atomic_load_n(&lp_watch_owner, __ATOMIC_ACQUIRE) != from) return;
    int fd = __atomic_load_n(&lp_watch_fd, __ATOMIC_ACQUIRE);
    if (fd < 0) return;
#if defined(LP_UNDER_THREAD_SANITIZER)
    (void)stamp;  // the script follows groups alone
    char line[16];
    int length = snprintf(line, sizeof line, "%d\n", (int)group);
    while (send(fd, line, (size_t)length, MSG_NOSIGNAL | MSG_DONTWAIT) < 0 && errno == EINTR) {}
#else
    lp_watch_message message;
    memset(&message, 0, sizeof message);
    message.group = group;
    message.stamp = stamp;
    while (send(fd, &message, sizeof message, MSG_NOSIGNAL | MSG_DONTWAIT) < 0 && errno == EINTR) {}
#endif
}

void lp_watch_group(pid_t group, pid_t owner) { lp_watch_send((int32_t)group, 0, owner); }

void lp_watch_stamped_group(pid_t group, uint64_t stamp, pid_t owner) {
    lp_watch_send((int32_t)group, stamp, owner);
}

void lp_forget_group(pid_t group) { lp_watch_send(-(int32_t)group, 0, getpid()); }
