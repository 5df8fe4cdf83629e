// lp_start_group_watcher / lp_watch_group / lp_forget_group: a process that
// ends the launches' process groups when launchprof dies. See LaunchMeasureShims.h.

#define _GNU_SOURCE
#include "LaunchMeasureShims.h"

#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <signal.h>
#include <stdint.h>
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

/// The watcher: no Swift, no allocation, only system calls. Every signal but
/// SIGKILL blocked (a Ctrl-C or SIGTERM sent to launchprof's process group
/// must not end it first). Reads messages until launchprof's end is closed —
/// launchprof exited, however it died — then kills every group still followed.
static void lp_watcher_main(int fd) {
    sigset_t all;
    sigfillset(&all);
    sigprocmask(SIG_SETMASK, &all, NULL);
    lp_close_all_but(fd);
    if (chdir("/") != 0) { /* only so that no mount is kept busy */ }
    int32_t groups[LP_WATCH_MAX];
    int count = 0;
    for (;;) {
        int32_t message = 0;
        ssize_t got = recv(fd, &message, sizeof message, 0);
        if (got < 0 && errno == EINTR) continue;
        if (got <= 0) break;  // end of file: launchprof is gone
        if (got != (ssize_t)sizeof message || message == 0) continue;
        if (message > 0) {
            if (count < LP_WATCH_MAX) groups[count++] = message;
        } else {
            for (int i = 0; i < count; i++) {
                if (groups[i] == -message) {
                    groups[i] = groups[--count];
                    break;
                }
            }
        }
    }
    for (int i = 0; i < count; i++) kill(-groups[i], SIGKILL);
    _exit(0);
}

#if defined(__has_feature)
#if __has_feature(thread_sanitizer)
#define LP_UNDER_THREAD_SANITIZER 1
#endif
#endif

int lp_start_group_watcher(pid_t *watcher) {
#if defined(LP_UNDER_THREAD_SANITIZER)
    // ThreadSanitizer's runtime cannot follow a fork from a multi-threaded process (a
    // CHECK fails in the child): a sanitized build runs without the watcher.
    (void)watcher;
    return ENOTSUP;
#endif
    pthread_mutex_lock(&lp_watch_lock);
    if (__atomic_load_n(&lp_watch_owner, __ATOMIC_ACQUIRE) == getpid()) {
        *watcher = lp_watch_pid;
        pthread_mutex_unlock(&lp_watch_lock);
        return 0;
    }
    int error = 0;
    int ends[2] = {-1, -1}, report[2] = {-1, -1};
    if (socketpair(AF_UNIX, SOCK_SEQPACKET | SOCK_CLOEXEC, 0, ends) != 0 || pipe2(report, O_CLOEXEC) != 0) {
        error = errno;
        goto failed;
    }
    int mine = fcntl(ends[0], F_DUPFD_CLOEXEC, 10);
    if (mine < 0) {
        error = errno;
        goto failed;
    }
    close(ends[0]);
    ends[0] = mine;
    // Two forks: the watcher is nobody's child here (its parent exits at once), so
    // launchprof, the subreaper of its launches' orphans, never finds it among them.
    pid_t middle = fork();
    if (middle < 0) {
        error = errno;
        goto failed;
    }
    if (middle == 0) {
        pid_t child = fork();
        if (child == 0) lp_watcher_main(ends[1]);
        ssize_t written = write(report[1], &child, sizeof child);
        _exit(written == (ssize_t)sizeof child && child > 0 ? 0 : 1);
    }
    close(ends[1]);
    ends[1] = -1;
    close(report[1]);
    report[1] = -1;
    pid_t child = -1;
    ssize_t got;
    do { got = read(report[0], &child, sizeof child); } while (got < 0 && errno == EINTR);
    int status;
    while (waitpid(middle, &status, 0) < 0 && errno == EINTR) {}
    close(report[0]);
    if (got != (ssize_t)sizeof child || child <= 0) {
        close(ends[0]);
        pthread_mutex_unlock(&lp_watch_lock);
        return ECHILD;
    }
    // Published with release stores: lp_watch_send reads them without the lock,
    // from the spawning thread, its children and the reaping threads.
    lp_watch_pid = child;
    __atomic_store_n(&lp_watch_fd, ends[0], __ATOMIC_RELEASE);
    __atomic_store_n(&lp_watch_owner, getpid(), __ATOMIC_RELEASE);
    *watcher = child;
    pthread_mutex_unlock(&lp_watch_lock);
    return 0;

failed:
    for (int i = 0; i < 2; i++) {
        if (ends[i] >= 0) close(ends[i]);
        if (report[i] >= 0) close(report[i]);
    }
    pthread_mutex_unlock(&lp_watch_lock);
    return error ? error : ECHILD;
}

/// One message to the watcher; never blocks, never raises SIGPIPE.
static void lp_watch_send(int32_t message, pid_t from) {
    if (__atomic_load_n(&lp_watch_owner, __ATOMIC_ACQUIRE) != from) return;
    int fd = __atomic_load_n(&lp_watch_fd, __ATOMIC_ACQUIRE);
    if (fd < 0) return;
    while (send(fd, &message, sizeof message, MSG_NOSIGNAL | MSG_DONTWAIT) < 0 && errno == EINTR) {}
}

void lp_watch_group(pid_t group, pid_t owner) { lp_watch_send((int32_t)group, owner); }

void lp_forget_group(pid_t group) { lp_watch_send(-(int32_t)group, getpid()); }
