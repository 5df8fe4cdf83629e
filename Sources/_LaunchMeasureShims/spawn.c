// lp_spawn: clone + prctl(PR_SET_PDEATHSIG) + execve, from a thread that never
// exits (posix_spawn in a ThreadSanitizer build). See LaunchMeasureShims.h.

#define _GNU_SOURCE
#include "LaunchMeasureShims.h"
#include "sanitizers.h"

#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <sched.h>
#include <signal.h>
#include <spawn.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#ifndef _NSIG
#define _NSIG 65
#endif

/// The child's stack: its work before execve is a few system calls.
#define LP_CHILD_STACK (64 * 1024)
/// close_range(2): the same number on every Linux architecture (Linux 5.9+).
#define LP_SYS_CLOSE_RANGE 436

/// Writes `nanoseconds` as the launch's LAUNCHPROF_SPAWN_NS: always 20 digits,
/// zero-padded, so that the environment's size does not change from one launch to the next.
static void lp_write_digits(char *digits, uint64_t nanoseconds) {
    for (int i = 19; i >= 0; i--) {
        digits[i] = (char)('0' + nanoseconds % 10);
        nanoseconds /= 10;
    }
    digits[20] = 0;
}

#if !defined(LP_UNDER_THREAD_SANITIZER)

typedef struct {
    const lp_spawn_request *request;
    pid_t parent;
    /// Written by the child when a step before exec, or the exec, failed.
    volatile int error;
    int reset[_NSIG];
    int reset_count;
    /// glibc's own signals (SIGCANCEL, SIGSETXID), which its sigaction refuses:
    /// put back through the system call when they are not at their default.
    int raw_reset[4];
    int raw_reset_count;
    /// The launch's spawn stamp (0: none), announced to the group watcher with its group.
    uint64_t stamp;
} lp_child_args;

/// The kernel's struct sigaction, large enough on every architecture; the
/// handler comes first everywhere, and all zeros is SIG_DFL with no flags.
typedef struct {
    void *handler;
    unsigned long rest[7];
} lp_kernel_sigaction;

static int lp_child_main(void *opaque) {
    lp_child_args *args = opaque;
    const lp_spawn_request *request = args->request;

    // Handlers are launchprof's code (and would run on launchprof's memory):
    // every signal not at its default goes back to it, while all are blocked.
    struct sigaction fallback;
    memset(&fallback, 0, sizeof fallback);
    fallback.sa_handler = SIG_DFL;
    sigemptyset(&fallback.sa_mask);
    for (int i = 0; i < args->reset_count; i++) sigaction(args->reset[i], &fallback, NULL);
    lp_kernel_sigaction fallback_raw;
    memset(&fallback_raw, 0, sizeof fallback_raw);
    for (int i = 0; i < args->raw_reset_count; i++) syscall(SYS_rt_sigaction, args->raw_reset[i], &fallback_raw, NULL, 8);

    if (setpgid(0, 0) != 0) goto failed;
    if (prctl(PR_SET_PDEATHSIG, SIGKILL, 0, 0, 0) != 0) goto failed;
    // launchprof died before the prctl: the signal will never come, so go now.
    if (getppid() != args->parent) _exit(127);
    // The new group, announced to the watcher before anything in it can start another process.
    lp_watch_stamped_group((pid_t)syscall(SYS_getpid), args->stamp, args->parent);

    if (request->stdin_path) {
        int fd = open(request->stdin_path, O_RDONLY);
        if (fd < 0) goto failed;
        if (fd != 0) {
            if (dup2(fd, 0) < 0) goto failed;
            close(fd);
        }
    }
    int highest = 2;
    for (int i = 0; i < request->count; i++) {
        int from = request->from[i], to = request->to[i];
        if (from == to) {
            if (fcntl(to, F_SETFD, 0) < 0) goto failed;
        } else if (dup2(from, to) < 0) {
            goto failed;
        }
        if (to > highest) highest = to;
    }
    if (request->close_others) syscall(LP_SYS_CLOSE_RANGE, (unsigned)highest + 1, ~0U, 0U);

    sigset_t none;
    sigemptyset(&none);
    sigprocmask(SIG_SETMASK, &none, NULL);
    execve(request->path, request->argv, request->envp);
failed:
    args->error = errno ? errno : ECHILD;
    _exit(127);
}

/// Runs on the spawning thread: every signal blocked there, for the whole process's life.
static int lp_spawn_here(const lp_spawn_request *request, pid_t *pid, uint64_t *spawn_ns) {
    static char *stack = NULL;
    if (!stack) {
        void *memory = mmap(NULL, LP_CHILD_STACK, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_STACK, -1, 0);
        if (memory == MAP_FAILED) return errno;
        stack = memory;
    }
    lp_child_args args;
    memset(&args, 0, sizeof args);
    args.request = request;
    args.parent = getpid();
    for (int signal = 1; signal < _NSIG; signal++) {
        if (signal == SIGKILL || signal == SIGSTOP) continue;
        struct sigaction current;
        if (sigaction(signal, NULL, &current) == 0) {
            if (current.sa_handler != SIG_DFL) args.reset[args.reset_count++] = signal;
            continue;
        }
        // glibc's own signals: asked of the kernel itself (a parent may ignore them, and ignoring survives exec).
        lp_kernel_sigaction raw;
        memset(&raw, 0, sizeof raw);
        if (syscall(SYS_rt_sigaction, signal, NULL, &raw, 8) == 0 && raw.handler != NULL && args.raw_reset_count < 4) {
            args.raw_reset[args.raw_reset_count++] = signal;
        }
    }

    struct timespec now;
    clock_gettime(CLOCK_MONOTONIC, &now);
    uint64_t nanoseconds = (uint64_t)now.tv_sec * 1000000000ull + (uint64_t)now.tv_nsec;
    if (request->stamp_digits) lp_write_digits(request->stamp_digits, nanoseconds);
    args.stamp = request->stamp_digits ? nanoseconds : 0;
    // CLONE_VFORK: this thread resumes once the child has exec'd or exited.
    pid_t child = clone(lp_child_main, stack + LP_CHILD_STACK, CLONE_VM | CLONE_VFORK | SIGCHLD, &args);
    if (child < 0) return errno;
    if (args.error) {
        lp_forget_group(child);
        int status;
        while (waitpid(child, &status, 0) < 0 && errno == EINTR) {}
        return args.error;
    }
    *pid = child;
    *spawn_ns = nanoseconds;
    return 0;
}

#else

/// The spawn time's decimal digits and a NUL, into `digits` (room for 21 bytes).
/// ThreadSanitizer's build: the same contract through posix_spawn (glibc's clone
/// runs no instrumented code in the child), except PR_SET_PDEATHSIG, which
/// posix_spawn cannot ask for: the group watcher (started the same way) ends the
/// child's group, the child with it, when launchprof dies. The group is announced
/// to it here, after the spawn, rather than by the child before its execve.
static int lp_spawn_here(const lp_spawn_request *request, pid_t *pid, uint64_t *spawn_ns) {
    posix_spawn_file_actions_t actions;
    posix_spawnattr_t attributes;
    int error = posix_spawn_file_actions_init(&actions);
    if (error) return error;
    error = posix_spawnattr_init(&attributes);
    if (error) {
        posix_spawn_file_actions_destroy(&actions);
        return error;
    }
    // The same steps in the same order as the clone path: stdin, then each move, then the rest closed.
    if (request->stdin_path) error = posix_spawn_file_actions_addopen(&actions, 0, request->stdin_path, O_RDONLY, 0);
    int highest = 2;
    for (int i = 0; i < request->count && !error; i++) {
        // from == to clears close-on-exec (glibc 2.29+, Austin Group issue 411).
        error = posix_spawn_file_actions_adddup2(&actions, request->from[i], request->to[i]);
        if (request->to[i] > highest) highest = request->to[i];
    }
    if (!error && request->close_others) error = posix_spawn_file_actions_addclosefrom_np(&actions, highest + 1);
    // Every signal back to its default, glibc's own (SIGCANCEL, SIGSETXID) too:
    // sigfillset leaves them out, and glibc's child then sets them to SIG_IGN,
    // which would survive the exec. All bits set is every signal (what sigfillset
    // does before it clears those two); the child's sigaction takes them.
    sigset_t every, none;
    memset(&every, 0xff, sizeof every);
    sigemptyset(&none);
    if (!error) error = posix_spawnattr_setsigdefault(&attributes, &every);
    if (!error) error = posix_spawnattr_setsigmask(&attributes, &none);
    if (!error) error = posix_spawnattr_setpgroup(&attributes, 0);
    if (!error) error = posix_spawnattr_setflags(&attributes, POSIX_SPAWN_SETPGROUP | POSIX_SPAWN_SETSIGDEF | POSIX_SPAWN_SETSIGMASK);
    if (!error) {
        struct timespec now;
        clock_gettime(CLOCK_MONOTONIC, &now);
        uint64_t nanoseconds = (uint64_t)now.tv_sec * 1000000000ull + (uint64_t)now.tv_nsec;
        if (request->stamp_digits) lp_write_digits(request->stamp_digits, nanoseconds);
        pid_t child = 0;
        // glibc reports the exec's own failure (ENOENT, EACCES…) once the child has exited; it reaps it.
        error = posix_spawn(&child, request->path, &actions, &attributes, request->argv, request->envp);
        if (!error) {
            lp_watch_group(child, getpid());
            *pid = child;
            *spawn_ns = nanoseconds;
        }
    }
    posix_spawnattr_destroy(&attributes);
    posix_spawn_file_actions_destroy(&actions);
    return error;
}

#endif

// The spawning thread and its one-job mailbox.
typedef struct {
    const lp_spawn_request *request;
    pid_t pid;
    uint64_t spawn_ns;
    int result;
    int finished;
} lp_spawn_job;

static pthread_mutex_t lp_lock = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t lp_posted = PTHREAD_COND_INITIALIZER;
static pthread_cond_t lp_done = PTHREAD_COND_INITIALIZER;
static lp_spawn_job *lp_job = NULL;
/// The process whose spawning thread is running (0: none yet). A process
/// forked from this one has no such thread: it makes its own.
static pid_t lp_spawner_process = 0;
static pthread_once_t lp_fork_handlers_once = PTHREAD_ONCE_INIT;

static void *lp_spawner(void *unused) {
    (void)unused;
    pthread_mutex_lock(&lp_lock);
    for (;;) {
        while (!lp_job || lp_job->finished) pthread_cond_wait(&lp_posted, &lp_lock);
        lp_spawn_job *job = lp_job;
        pthread_mutex_unlock(&lp_lock);
        job->result = lp_spawn_here(job->request, &job->pid, &job->spawn_ns);
        pthread_mutex_lock(&lp_lock);
        job->finished = 1;
        pthread_cond_broadcast(&lp_done);
    }
    return NULL;
}

// fork() copies this state but not the spawning thread: the child starts afresh.
static void lp_before_fork(void) { pthread_mutex_lock(&lp_lock); }
static void lp_after_fork_in_parent(void) { pthread_mutex_unlock(&lp_lock); }
static void lp_after_fork_in_child(void) {
    pthread_mutex_init(&lp_lock, NULL);
    pthread_cond_init(&lp_posted, NULL);
    pthread_cond_init(&lp_done, NULL);
    lp_job = NULL;
    lp_spawner_process = 0;
}
static void lp_register_fork_handlers(void) {
    pthread_atfork(lp_before_fork, lp_after_fork_in_parent, lp_after_fork_in_child);
}

/// Starts the spawning thread, every signal blocked in it; called with lp_lock held.
static int lp_start_spawner(void) {
    sigset_t all, old;
    sigfillset(&all);
    pthread_sigmask(SIG_BLOCK, &all, &old);  // the new thread inherits the full mask
    pthread_attr_t attributes;
    pthread_attr_init(&attributes);
    pthread_attr_setdetachstate(&attributes, PTHREAD_CREATE_DETACHED);
    pthread_t thread;
    int error = pthread_create(&thread, &attributes, lp_spawner, NULL);
    pthread_attr_destroy(&attributes);
    pthread_sigmask(SIG_SETMASK, &old, NULL);
    if (error == 0) lp_spawner_process = getpid();
    return error;
}

int lp_spawn(const lp_spawn_request *request, pid_t *pid, uint64_t *spawn_ns) {
    pthread_once(&lp_fork_handlers_once, lp_register_fork_handlers);
    lp_spawn_job job = {.request = request};
    pthread_mutex_lock(&lp_lock);
    if (lp_spawner_process != getpid()) {
        int error = lp_start_spawner();
        if (error) {
            pthread_mutex_unlock(&lp_lock);
            return error;
        }
    }
    while (lp_job) pthread_cond_wait(&lp_done, &lp_lock);  // one spawn at a time; its caller empties the slot
    lp_job = &job;
    pthread_cond_signal(&lp_posted);
    while (!job.finished) pthread_cond_wait(&lp_done, &lp_lock);
    lp_job = NULL;
    pthread_cond_broadcast(&lp_done);
    pthread_mutex_unlock(&lp_lock);
    if (job.result == 0) {
        *pid = job.pid;
        *spawn_ns = job.spawn_ns;
    }
    return job.result;
}
