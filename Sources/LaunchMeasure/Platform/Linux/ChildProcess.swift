// A launched child: its pidfd, whether it exited, reaping it, signalling its group.

import LaunchAnalysis
import LaunchTracing
import _LaunchMeasureShims

#if canImport(Glibc)
    import Glibc
#else
    // Launching relies on Linux: pidfd, /proc/sys/vm/drop_caches, PR_SET_PDEATHSIG.
    #error("The launcher runs on Linux only: see LaunchMeasure.docc/PortingTheLauncher.md")
#endif

extension Platform {
    /// A descriptor that becomes readable when `pid` exits (`pidfd_open`, Linux
    /// 5.3+; close-on-exec), or nil where the kernel or a sandbox refuses it.
    static func processDescriptor(_ pid: Int32) -> Int32? {
        let fd: Int32
        if let pidfdOpen = SpawnExtras.pidfdOpen {
            fd = pidfdOpen(pid, 0)
        } else if let syscall2 = SpawnExtras.syscall2 {
            fd = Int32(truncatingIfNeeded: syscall2(SpawnExtras.pidfdOpenNumber, pid, 0))
        } else {
            return nil
        }
        return fd >= 0 ? fd : nil
    }

    /// True when the child `pid` has exited, leaving it unreaped
    /// (`waitid(WEXITED | WNOHANG | WNOWAIT)`), so its process group stays valid.
    static func hasExited(_ pid: Int32) -> Bool {
        var info = siginfo_t()
        guard waitid(P_PID, id_t(pid), &info, WEXITED | WNOHANG | WNOWAIT) == 0 else {
            return errno == ECHILD
        }
        return info._sifields._sigchld.si_pid != 0
    }

    /// How a child ended.
    enum ExitStatus: Equatable {
        case exited(code: Int32)
        case signaled(signal: Int32)
    }

    /// Reaps the child `pid`, waiting for it to end (`wait4`): how it ended, and the
    /// CPU time it and the descendants it reaped itself used.
    static func reap(_ pid: Int32) throws(SystemError) -> (status: ExitStatus, cpu: CPUTime) {
        defer { _ = startedChildren.withLock { $0.remove(pid) } }
        // Withdrawn from the group watcher first: what is left in the group (a server --setup started) is not its to end.
        lp_forget_group(pid)
        var status: Int32 = 0
        var usage = rusage()
        while wait4(pid, &status, 0, &usage) == -1 {
            if errno != EINTR { throw .current }
        }
        return (exitStatus(status), cpuTime(usage))
    }

    /// WIFEXITED / WEXITSTATUS / WTERMSIG, which Swift does not import.
    static func exitStatus(_ status: Int32) -> ExitStatus {
        let low = status & 0x7f
        return low == 0 ? .exited(code: (status >> 8) & 0xff) : .signaled(signal: low)
    }

    /// The user and system CPU time a `rusage` holds.
    static func cpuTime(_ usage: rusage) -> CPUTime {
        func nanoseconds(_ time: timeval) -> UInt64 {
            UInt64(max(0, time.tv_sec)) * 1_000_000_000 + UInt64(max(0, time.tv_usec)) * 1_000
        }
        return CPUTime(userNanoseconds: nanoseconds(usage.ru_utime), systemNanoseconds: nanoseconds(usage.ru_stime))
    }

    /// Sends `signal` to every process in the group `group` (`killpg`); a group
    /// that no longer exists is not an error.
    static func signalGroup(_ group: Int32, _ signal: Int32) {
        _ = killpg(group, signal)
    }

    /// SIGTERM: asks a process to end.
    static let terminateSignal = SIGTERM
    /// SIGKILL: ends a process, which cannot refuse.
    static let killSignal = SIGKILL

    /// The short name of a signal (`SEGV`), from Linux's numbering.
    static func signalName(_ signal: Int32) -> String? {
        let names: [Int32: String] = [
            SIGHUP: "HUP", SIGINT: "INT", SIGQUIT: "QUIT", SIGILL: "ILL", SIGTRAP: "TRAP", SIGABRT: "ABRT",
            SIGBUS: "BUS", SIGFPE: "FPE", SIGKILL: "KILL", SIGUSR1: "USR1", SIGSEGV: "SEGV", SIGUSR2: "USR2",
            SIGPIPE: "PIPE", SIGALRM: "ALRM", SIGTERM: "TERM", SIGXCPU: "XCPU", SIGXFSZ: "XFSZ", SIGSYS: "SYS",
        ]
        return names[signal]
    }
}
