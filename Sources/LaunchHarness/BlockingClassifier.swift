import LaunchTracing

/// Decides what a blocked thread is waiting on from what the sampler read: its
/// scheduler state, the system call it is in, and the kind of file descriptor
/// that call is on. Never from a span's name.
///
/// | system call | waiting on |
/// |---|---|
/// | `read`/`write`/`pread64`/… on a regular file or block device, `fsync`, `openat`, `statx`… | disk |
/// | the same on a socket; `connect`, `accept`, `recvfrom`, `sendto`…; `poll` on a socket | network |
/// | `futex`, `semop`, `flock` | lock (mutexes, semaphores, condition variables) |
/// | `nanosleep`, `clock_nanosleep` | sleep |
/// | running, or runnable | none |
/// | uninterruptible sleep (`D`) while running user code | disk (a page fault reading a mapped file) |
public enum BlockingClassifier {
    /// What the system call does with its arguments, as far as waiting goes.
    public enum SyscallKind: Sendable, Equatable {
        /// I/O on the file descriptor in argument 0.
        case descriptorIO
        /// A network-only call (connect, accept, sendto…).
        case network
        /// A call that only touches files by path or flushes them.
        case disk
        /// A futex or semaphore wait.
        case lock
        /// A sleep.
        case sleep
        /// Polls the `pollfd` array in argument 0 (`nfds` in argument 1).
        case poll
        /// Anything else.
        case other
    }

    /// The kind of an open file descriptor (`/proc/self/fd/N`).
    public enum DescriptorKind: Sendable, Equatable {
        case file, blockDevice, socket, pipe, other
    }

    /// Classifies one observation.
    ///
    /// - Parameters:
    ///   - state: The scheduler state letter (`R`, `S`, `D`…) as ASCII.
    ///   - syscall: The system call number, or -1 when the thread runs in user space.
    ///   - kind: What that call is (``kind(ofSyscall:)``), ignored when `syscall` is -1.
    ///   - descriptors: The kinds of the descriptors the call waits on (for
    ///     `descriptorIO` and `poll`), empty when unknown.
    public static func classify(
        state: UInt8, syscall: Int32, kind: SyscallKind, descriptors: [DescriptorKind]
    ) -> ThreadSample.Wait {
        if state == UInt8(ascii: "R") { return .none }
        guard syscall >= 0 else { return state == UInt8(ascii: "D") ? .disk : .none }
        switch kind {
        case .descriptorIO, .poll:
            if descriptors.contains(.socket) { return .network }
            if descriptors.contains(.file) || descriptors.contains(.blockDevice) { return .disk }
            return state == UInt8(ascii: "D") ? .disk : .other
        case .network: return .network
        case .disk: return .disk
        case .lock: return .lock
        case .sleep: return .sleep
        case .other: return state == UInt8(ascii: "D") ? .disk : .other
        }
    }

    /// What system call `number` is, on this machine's architecture.
    public static func kind(ofSyscall number: Int32) -> SyscallKind {
        Platform.syscallKinds[number] ?? .other
    }

    /// The kind of descriptor a `/proc/self/fd/N` link target names.
    public static func descriptorKind(linkTarget: String) -> DescriptorKind {
        if linkTarget.hasPrefix("socket:") { return .socket }
        if linkTarget.hasPrefix("pipe:") { return .pipe }
        if linkTarget.hasPrefix("/dev/") {
            let disks = ["/dev/sd", "/dev/vd", "/dev/xvd", "/dev/hd", "/dev/nvme", "/dev/mmcblk", "/dev/dm-", "/dev/md", "/dev/loop", "/dev/mapper/"]
            return disks.contains { linkTarget.hasPrefix($0) } ? .blockDevice : .other
        }
        if linkTarget.hasPrefix("/") { return .file }
        return .other
    }
}
