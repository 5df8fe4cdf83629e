// Every system call LaunchMeasure makes goes through the small wrappers in this
// folder, one concern a file, with Swift names: the logic files need no `#if`
// and no libc import. LaunchMeasure runs on Linux only.

#if canImport(Glibc)
import Glibc
#else
// Launching relies on Linux: pidfd, /proc/sys/vm/drop_caches, PR_SET_PDEATHSIG.
#error("Unsupported Platform")
#endif
import LaunchTracing

/// Namespace for the system calls LaunchMeasure wraps.
enum Platform {
    /// Sleeps at least `nanoseconds` (restarted after signals).
    static func sleep(nanoseconds: UInt64) {
        var remaining = timespec(tv_sec: Int(nanoseconds / 1_000_000_000), tv_nsec: Int(nanoseconds % 1_000_000_000))
        var left = timespec()
        while nanosleep(&remaining, &left) == -1 && errno == EINTR { remaining = left }
    }

    /// The text of a NUL-terminated C string held in `storage` (an array or a
    /// fixed-size C char array such as `utsname.sysname` or `dirent.d_name`).
    static func text<Storage>(_ storage: Storage) -> String {
        withUnsafeBytes(of: storage) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) }
    }
}

extension SystemError {
    /// `EACCES`, `EPERM` or `EROFS`: the caller lacks the privilege, not the means.
    var isPermissionProblem: Bool { code == EACCES || code == EPERM || code == EROFS }
}
