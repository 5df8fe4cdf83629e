// Starting a launch: lp_spawn (clone, PR_SET_PDEATHSIG, execve) with its spawn
// stamp, and the newer glibc functions looked up at run time.

import LaunchTracing
import _LaunchMeasureShims

#if canImport(Glibc)
    import Glibc
#else
    // Launching relies on Linux: pidfd, /proc/sys/vm/drop_caches, PR_SET_PDEATHSIG.
    #error("The launcher runs on Linux only: see LaunchMeasure.docc/PortingTheLauncher.md")
#endif

extension Platform {
    /// A started child: its pid and the CLOCK_MONOTONIC time read just before it was made.
    struct Spawned {
        var pid: Int32
        var nanoseconds: UInt64
    }

    /// Starts `path` through `lp_spawn` (clone, then execve, from a thread of
    /// this process that never exits): in a new process group led by the child,
    /// with an empty signal mask and every signal at its default action, stdin
    /// from /dev/null, each `(from, to)` descriptor moved onto `to`, every other
    /// descriptor above the highest `to` closed (close_range, Linux 5.9+), and
    /// `PR_SET_PDEATHSIG` set to SIGKILL: the child dies with launchprof, even
    /// when launchprof is killed with SIGKILL. (A set-user-ID program clears it
    /// at exec: the kernel's rule.) A ThreadSanitizer build starts it with
    /// posix_spawn instead, without PR_SET_PDEATHSIG: there the group watcher
    /// alone ends it when launchprof dies (see LaunchMeasureShims.h).
    ///
    /// `stampName`, when given, is added to the environment with the spawn time
    /// as its value: everything is prepared first, then the clock is read, its
    /// digits written into a slot allocated in advance, and the child made at once.
    static func spawn(
        path: String, arguments: [String], environment: [String], stampName: String?,
        descriptors: [(from: Int32, to: Int32)]
    ) throws(SystemError) -> Spawned {
        _ = groupWatcher  // started before the first child, so that its group is announced
        let argv = arguments.map { strdup($0) } + [nil]
        defer { for pointer in argv { free(pointer) } }

        // The stamp slot: "NAME=" then room for UInt64's 20 digits and the NUL.
        let prefix = Array(((stampName ?? "") + "=").utf8CString.dropLast())
        let slot = UnsafeMutablePointer<CChar>.allocate(capacity: prefix.count + 21)
        defer { slot.deallocate() }
        slot.initialize(repeating: 0, count: prefix.count + 21)
        for (offset, byte) in prefix.enumerated() { slot[offset] = byte }
        let envp = environment.map { strdup($0) } + (stampName == nil ? [] : [slot]) + [nil]
        defer { for pointer in envp.prefix(environment.count) { free(pointer) } }

        let from = descriptors.map(\.from)
        let to = descriptors.map(\.to)
        var pid: pid_t = 0
        var nanoseconds: UInt64 = 0
        let result = path.withCString { path in
            "/dev/null".withCString { devNull in
                argv.withUnsafeBufferPointer { argv in
                    envp.withUnsafeBufferPointer { envp in
                        from.withUnsafeBufferPointer { from in
                            to.withUnsafeBufferPointer { to in
                                var request = lp_spawn_request(
                                    path: path, argv: argv.baseAddress, envp: envp.baseAddress,
                                    from: from.baseAddress, to: to.baseAddress, count: Int32(descriptors.count),
                                    stdin_path: devNull, close_others: 1,
                                    stamp_digits: stampName == nil ? nil : slot + prefix.count)
                                return lp_spawn(&request, &pid, &nanoseconds)
                            }
                        }
                    }
                }
            }
        }
        guard result == 0 else { throw SystemError(code: result) }
        _ = startedChildren.withLock { $0.insert(pid) }
        return Spawned(pid: pid, nanoseconds: nanoseconds)
    }

    /// The pid of the group watcher (`lp_start_group_watcher`), started once, on
    /// first use; nil where it could not be started (launches are then ended by
    /// PR_SET_PDEATHSIG alone when launchprof is killed). It kills the process
    /// group of every launch under way when launchprof dies, SIGKILL included:
    /// what the program started in its group does not outlive launchprof.
    /// Start it before this process becomes a subreaper (``becomeSubreaper()``), so
    /// that it is not adopted; should it be anyway, it is spared as an orphan.
    static let groupWatcher: Int32? = {
        var pid: pid_t = 0
        guard lp_start_group_watcher(&pid) == 0 else { return nil }
        sparedOrphans.withLock { _ = $0.insert(pid) }
        return pid
    }()

    /// C functions newer than some glibc versions, looked up at run time.
    enum SpawnExtras {
        typealias PidfdOpen = @convention(c) (pid_t, UInt32) -> Int32
        typealias Syscall2 = @convention(c) (Int, pid_t, UInt32) -> Int

        static let pidfdOpen: PidfdOpen? =
            dlsym(nil, "pidfd_open").map { unsafeBitCast($0, to: PidfdOpen.self) }
        /// `syscall(2)` called with exactly two arguments (Swift cannot call C variadics).
        static let syscall2: Syscall2? =
            dlsym(nil, "syscall").map { unsafeBitCast($0, to: Syscall2.self) }
        /// SYS_pidfd_open: the same number on every Linux architecture (Linux 5.3+).
        static let pidfdOpenNumber = 434
    }
}
