// The C floor under LaunchMeasure: starting a child that dies with launchprof.
//
// posix_spawn has no point between fork and exec at which the child could ask
// for PR_SET_PDEATHSIG, so launchprof starts its children here: clone (a vfork
// with a stack of its own), then, in the child, the process group, the signal
// dispositions and mask, the descriptors, prctl(PR_SET_PDEATHSIG, SIGKILL), a
// check that the parent is still there, and execve.
//
// A ThreadSanitizer build (whose runtime cannot follow a clone that shares its
// memory, nor a fork from a multi-threaded process) starts both the launches and
// the group watcher with posix_spawn instead: the same process group, signals,
// descriptors, environment and exec errors, but no PR_SET_PDEATHSIG; the group
// watcher (then a /bin/sh loop) alone ends the launches when launchprof dies.

#ifndef LAUNCH_MEASURE_SHIMS_H
#define LAUNCH_MEASURE_SHIMS_H

#include <stdint.h>
#include <sys/types.h>

#ifdef __cplusplus
extern "C" {
#endif

/// What to start and how. Every pointer must stay valid until `lp_spawn` returns.
typedef struct {
    /// The program's path (no PATH search: execve).
    const char *path;
    /// NULL-terminated argv and envp.
    char *const *argv;
    char *const *envp;
    /// `count` descriptors: `from[i]` is moved onto `to[i]` in the child (dup2;
    /// close-on-exec cleared when they are equal).
    const int *from;
    const int *to;
    int count;
    /// The file opened read-only on fd 0, or NULL to leave fd 0 as it is.
    const char *stdin_path;
    /// When non-zero, every descriptor above the highest `to` is closed in the
    /// child (close_range, Linux 5.9+; where the kernel lacks it, close-on-exec
    /// descriptors still close at exec).
    int close_others;
    /// Where the spawn time's decimal digits and a NUL are written, read from
    /// CLOCK_MONOTONIC just before the child is made (NULL: none). Room for 21 bytes.
    char *stamp_digits;
} lp_spawn_request;

/// Starts `request` from a thread of launchprof's that lives as long as the
/// process (made on first use in each process, every signal blocked), so that
/// the child's PR_SET_PDEATHSIG fires only when launchprof itself ends. Calls
/// from several threads take turns.
///
/// The child leads a new process group, has an empty signal mask and every
/// signal at its default action, and gets SIGKILL when launchprof dies (also
/// when it died before the child could ask: the parent is checked after the
/// prctl; under ThreadSanitizer the group watcher does this instead, see the
/// top of this file). Returns 0 and sets `*pid` and `*spawn_ns` (CLOCK_MONOTONIC read just
/// before the clone), or an errno value: the exec's own failure (ENOENT,
/// EACCES, ENOEXEC…) once the child that failed has been reaped.
int lp_spawn(const lp_spawn_request *request, pid_t *pid, uint64_t *spawn_ns);

/// Starts, once per process, the group watcher: a small process (two forks
/// away, so nobody's child here; no Swift, only system calls) that outlives
/// launchprof. Each child `lp_spawn` starts announces its new process group to
/// it before its `execve`; `lp_forget_group` withdraws one. When launchprof
/// ends, however it ends (SIGKILL included), its end of their socket closes and
/// the watcher sends SIGKILL to every group still announced, then exits:
/// PR_SET_PDEATHSIG reaches only the direct child, the watcher what the child
/// started in its group. Every signal but SIGKILL is blocked in it. Later
/// calls return the same watcher. Returns 0 and sets `*watcher`, or an errno value.
int lp_start_group_watcher(pid_t *watcher);

/// Announces `group` to the watcher, if this process (`owner`, its pid) started
/// one; called by `lp_spawn`'s child. Never blocks.
void lp_watch_group(pid_t group, pid_t owner);

/// Announces `group` as ``lp_watch_group`` does, with the launch's spawn stamp
/// (`LAUNCHPROF_SPAWN_NS`, 0 for none): when launchprof dies the watcher also ends
/// every process whose environment holds that stamp (a descendant that left the
/// group: `setsid`, a double fork) and every process that descends by parentage
/// from one it ends, before ending any. (Under ThreadSanitizer: the group alone.)
void lp_watch_stamped_group(pid_t group, uint64_t stamp, pid_t owner);

/// Tells the watcher that the group `group` is no business of its any more
/// (its launch ended and was ended): call it before reaping the group's leader.
void lp_forget_group(pid_t group);

/// Frees the blocks of `length` bytes of the open file `fd` from `offset`
/// (`fallocate` with `FALLOC_FL_PUNCH_HOLE | FALLOC_FL_KEEP_SIZE`): the size
/// stays and the range reads as zeros. Returns 0, or an errno value
/// (`EOPNOTSUPP` where the file system cannot).
int lp_punch_hole(int fd, int64_t offset, int64_t length);

/// Opens a pseudo-terminal: `*master` to read what the child writes to
/// `*slave`, both close-on-exec. The slave is nobody's controlling terminal,
/// 80×24, with output processing off (no `\r` before each `\n`) and no echo.
/// Returns 0, or an errno value.
int lp_open_pseudo_terminal(int *master, int *slave);

#ifdef __cplusplus
}
#endif

#endif
