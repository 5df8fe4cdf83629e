// Every system call LaunchMeasure makes goes through the small wrappers in this
// folder, one concern a file, with Swift names: the logic files need no `#if`
// and no libc import. LaunchMeasure runs on Linux only. The calls other modules
// make too (`exists`, `sleep`, `close`) are written once, in `_LaunchSystem`.

import LaunchTracing

#if canImport(Glibc)
    import Glibc
#else
    // Launching relies on Linux: pidfd, /proc/sys/vm/drop_caches, PR_SET_PDEATHSIG.
    #error("The launcher runs on Linux only: see LaunchMeasure.docc/PortingTheLauncher.md")
#endif

/// Namespace for the system calls LaunchMeasure wraps.
enum Platform {
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
