// Starting a launch: posix_spawn with its spawn stamp, and the newer glibc
// functions looked up at run time.

#if canImport(Glibc)
import Glibc
#else
// Launching relies on Linux: pidfd, /proc/sys/vm/drop_caches, glibc's posix_spawn.
#error("Unsupported Platform")
#endif
import LaunchTracing

extension Platform {
    /// A started child: its pid and the CLOCK_MONOTONIC time read just before `posix_spawn`.
    struct Spawned {
        var pid: Int32
        var nanoseconds: UInt64
    }

    /// Starts `path` with `posix_spawn`: in a new process group led by the child
    /// (POSIX_SPAWN_SETPGROUP, pgroup 0), with an empty signal mask and every
    /// signal this process ignores back at its default action (POSIX_SPAWN_SETSIGMASK,
    /// POSIX_SPAWN_SETSIGDEF),
    /// stdin from /dev/null, each `(from, to)` descriptor moved onto `to`, and
    /// every other descriptor above the highest `to` closed where glibc can
    /// (`posix_spawn_file_actions_addclosefrom_np`, glibc 2.34+).
    ///
    /// `stampName` is added to the environment with the spawn time as its value:
    /// everything is prepared first, then the clock is read, its digits written
    /// into a slot allocated in advance, and the child spawned at once.
    static func spawn(
        path: String, arguments: [String], environment: [String], stampName: String,
        descriptors: [(from: Int32, to: Int32)]
    ) throws(SystemError) -> Spawned {
        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETPGROUP | POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF))
        posix_spawnattr_setpgroup(&attributes, 0)
        var mask = sigset_t()
        sigemptyset(&mask)
        posix_spawnattr_setsigmask(&attributes, &mask)
        // Handled signals are reset by exec anyway; only ignored ones survive it.
        // Resetting just those keeps the child from 64 sigaction calls at start.
        var defaults = sigset_t()
        sigemptyset(&defaults)
        for signal in 1..<Int32(32) where signal != SIGKILL && signal != SIGSTOP {
            var current = sigaction()
            if sigaction(signal, nil, &current) == 0, unsafeBitCast(current.__sigaction_handler.sa_handler, to: Int.self) == 1 {  // SIG_IGN
                sigaddset(&defaults, signal)
            }
        }
        posix_spawnattr_setsigdefault(&attributes, &defaults)

        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        for (from, to) in descriptors {
            posix_spawn_file_actions_adddup2(&actions, from, to)
        }
        if let addCloseFrom = SpawnExtras.addCloseFrom {
            _ = addCloseFrom(&actions, (descriptors.map(\.to).max() ?? 2) + 1)
        }

        let argv = arguments.map { strdup($0) } + [nil]
        defer { for pointer in argv { free(pointer) } }

        // The stamp slot: "NAME=" then room for UInt64's 20 digits and the NUL.
        let prefix = Array((stampName + "=").utf8CString.dropLast())
        let slot = UnsafeMutablePointer<CChar>.allocate(capacity: prefix.count + 21)
        defer { slot.deallocate() }
        slot.initialize(repeating: 0, count: prefix.count + 21)
        for (offset, byte) in prefix.enumerated() { slot[offset] = byte }
        let envp = environment.map { strdup($0) } + [slot, nil]
        defer { for pointer in envp.dropLast(2) { free(pointer) } }

        var pid: pid_t = 0
        let nanoseconds = MonotonicClock.nanoseconds
        writeDecimal(nanoseconds, to: slot + prefix.count)
        let result = posix_spawn(&pid, path, &actions, &attributes, argv, envp)
        guard result == 0 else { throw SystemError(code: result) }
        return Spawned(pid: pid, nanoseconds: nanoseconds)
    }

    /// Writes `value`'s decimal digits and a NUL at `pointer`; no allocation.
    private static func writeDecimal(_ value: UInt64, to pointer: UnsafeMutablePointer<CChar>) {
        var digits = 1
        var rest = value
        while rest >= 10 { rest /= 10; digits += 1 }
        rest = value
        for index in stride(from: digits - 1, through: 0, by: -1) {
            pointer[index] = CChar(UInt8(ascii: "0") + UInt8(rest % 10))
            rest /= 10
        }
        pointer[digits] = 0
    }

    /// C functions newer than some glibc versions, looked up at run time.
    enum SpawnExtras {
        typealias AddCloseFrom = @convention(c) (UnsafeMutablePointer<posix_spawn_file_actions_t>, Int32) -> Int32
        typealias PidfdOpen = @convention(c) (pid_t, UInt32) -> Int32
        typealias Syscall2 = @convention(c) (Int, pid_t, UInt32) -> Int

        static let addCloseFrom: AddCloseFrom? =
            dlsym(nil, "posix_spawn_file_actions_addclosefrom_np").map { unsafeBitCast($0, to: AddCloseFrom.self) }
        static let pidfdOpen: PidfdOpen? =
            dlsym(nil, "pidfd_open").map { unsafeBitCast($0, to: PidfdOpen.self) }
        /// `syscall(2)` called with exactly two arguments (Swift cannot call C variadics).
        static let syscall2: Syscall2? =
            dlsym(nil, "syscall").map { unsafeBitCast($0, to: Syscall2.self) }
        /// SYS_pidfd_open: the same number on every Linux architecture (Linux 5.3+).
        static let pidfdOpenNumber = 434
    }
}
