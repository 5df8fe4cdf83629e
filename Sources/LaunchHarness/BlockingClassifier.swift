import LaunchTracing

/// Decides what a blocked thread is waiting on from what the sampler read: its
/// scheduler state, the system call it is in, and the kind of file descriptor
/// that call is on. Never from a span's name.
///
/// | system call | waiting on |
/// |---|---|
/// | `read`/`write`/`pread64`/`recvfrom`/`connect`/… on a regular file or block device; `fsync`, `openat`, `statx`… | disk |
/// | the same on a network (IPv4, IPv6) socket; `poll` on network sockets only | network |
/// | the same on a pipe, a named pipe (FIFO) or a local (Unix-domain) socket | ipc |
/// | `wait4`, `waitid`; `clone`, `fork`, `vfork` (a child being started) | process |
/// | `poll` on anything else, `select`, `epoll_wait` | event |
/// | `futex`, `semop`, `flock` | lock (mutexes, semaphores, condition variables) |
/// | `nanosleep`, `clock_nanosleep` | sleep |
/// | running, or runnable | none |
/// | uninterruptible sleep (`D`) while running user code | disk (a page fault reading a mapped file) |
public enum BlockingClassifier {
    /// What the system call does with its arguments, as far as waiting goes.
    public enum SyscallKind: Sendable, Equatable {
        /// I/O on the file descriptor in argument 0 (reads, writes, sends, receives, connect, accept).
        case descriptorIO
        /// A network-only call whose descriptor is not in argument 0.
        case network
        /// A call that touches files: by the path in argument `pathArgument`, by the
        /// descriptor in argument 0 (`fsync`), or neither (nil, `sync`).
        case disk(pathArgument: Int?, descriptorArgument: Bool)
        /// A futex or semaphore wait.
        case lock
        /// A sleep; its requested `timespec` is at argument `requestArgument`
        /// (`clock_nanosleep`'s flags in argument 1 say whether it is a deadline).
        case sleep(requestArgument: Int)
        /// Polls the `pollfd` array in argument 0 (`nfds` in argument 1).
        case poll
        /// Waits on an event loop whose descriptors it does not show (`select`, `epoll_wait`).
        case event
        /// Waits for a child process (`wait4`, `waitid`: `waitid` when `waitid` is true) or for one to start.
        case process(waitid: Bool)
        /// Anything else.
        case other

        /// The plain disk kind, for calls that name neither a path nor a descriptor.
        public static let disk = SyscallKind.disk(pathArgument: nil, descriptorArgument: false)
    }

    /// The kind of an open file descriptor (`/proc/self/fd/N`).
    public enum DescriptorKind: Sendable, Equatable {
        case file, blockDevice
        /// A network socket (IPv4, IPv6…).
        case socket
        /// A local (Unix-domain) socket.
        case localSocket
        /// A pipe or a named pipe (FIFO).
        case pipe
        case other
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
        let uninterruptible = state == UInt8(ascii: "D")
        guard syscall >= 0 else { return uninterruptible ? .disk : .none }
        switch kind {
        case .descriptorIO:
            if descriptors.contains(.socket) { return .network }
            if descriptors.contains(.file) || descriptors.contains(.blockDevice) { return .disk }
            if descriptors.contains(.pipe) || descriptors.contains(.localSocket) { return .ipc }
            return uninterruptible ? .disk : .other
        case .poll:
            if !descriptors.isEmpty, descriptors.allSatisfy({ $0 == .socket }) { return .network }
            if !descriptors.isEmpty, descriptors.allSatisfy({ $0 == .file || $0 == .blockDevice }) { return .disk }
            return .event
        case .event: return .event
        case .network: return .network
        case .disk: return .disk
        case .lock: return .lock
        case .sleep: return .sleep
        case .process: return .process
        case .other: return uninterruptible ? .disk : .other
        }
    }

    /// What system call `number` is, on this machine's architecture.
    public static func kind(ofSyscall number: Int32) -> SyscallKind {
        Platform.syscallKinds[number] ?? .other
    }

    /// The kind of descriptor a `/proc/self/fd/N` link target names (a socket's
    /// family and a named pipe are not in the link: ``Platform`` asks the descriptor).
    public static func descriptorKind(linkTarget: String) -> DescriptorKind {
        if linkTarget.hasPrefix("socket:") { return .socket }
        if linkTarget.hasPrefix("pipe:") { return .pipe }
        if linkTarget.hasPrefix("/dev/") {
            let disks = [
                "/dev/sd", "/dev/vd", "/dev/xvd", "/dev/hd", "/dev/nvme", "/dev/mmcblk", "/dev/dm-", "/dev/md",
                "/dev/loop", "/dev/mapper/",
            ]
            return disks.contains { linkTarget.hasPrefix($0) } ? .blockDevice : .other
        }
        if linkTarget.hasPrefix("/") { return .file }
        return .other
    }
}
