// Sampling another thread of this process: its procfs state and system call,
// what its descriptors are, and this architecture's system call numbers.

import LaunchTracing

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#else
    #error("Unsupported Platform")
#endif

extension Platform {
    /// What one read of a thread's procfs files said.
    struct Observation {
        var nanoseconds: UInt64
        var state: UInt8
        var syscall: Int32
        /// The call's first four arguments.
        var arguments: (UInt64, UInt64, UInt64, UInt64)
    }

    /// Open descriptors on `/proc/self/task/<tid>/stat` and `.../syscall`, re-read
    /// with `pread` at offset 0 (procfs regenerates them on every read).
    final class ThreadProbe {
        private let statFD: Int32
        private let syscallFD: Int32
        private var buffer = [UInt8](repeating: 0, count: 1_024)

        init?(threadID: UInt64) {
            #if os(Linux)
                statFD = open("/proc/self/task/\(threadID)/stat", O_RDONLY | O_CLOEXEC)
                syscallFD = open("/proc/self/task/\(threadID)/syscall", O_RDONLY | O_CLOEXEC)
                guard statFD >= 0 else { return nil }
            #else
                return nil
            #endif
        }

        deinit {
            if statFD >= 0 { close(statFD) }
            if syscallFD >= 0 { close(syscallFD) }
        }

        /// One observation. The `syscall` file is read first: for a thread on the CPU
        /// (or runnable) it says only "running", which is all a sample needs then and
        /// far cheaper for the kernel to produce than `stat` (whose line includes the
        /// process's memory figures); `stat` is read for the state of a thread that is not.
        func observe() -> Observation? {
            let now = MonotonicClock.nanoseconds
            let running = Observation(nanoseconds: now, state: UInt8(ascii: "R"), syscall: -1, arguments: (0, 0, 0, 0))
            let text = syscallFD >= 0 ? read(syscallFD) : nil
            if let text, text.starts(with: Self.runningWord) { return running }
            guard let stat = read(statFD), let close = stat.lastIndex(of: UInt8(ascii: ")")),
                close + 2 < stat.count
            else { return nil }
            var observation = Observation(
                nanoseconds: now, state: stat[close + 2], syscall: -1, arguments: (0, 0, 0, 0))
            // Read before `stat`: a thread that woke in between is running, and its call is over.
            guard observation.state != UInt8(ascii: "R"), let text else {
                return observation
            }
            // "running" or "<nr> 0x<arg1> … 0x<sp> 0x<pc>"; "-1 …" when blocked outside a syscall.
            let fields = text.split(separator: UInt8(ascii: " "))
            guard let first = fields.first, let number = Int32(String(decoding: first, as: UTF8.self)) else {
                return observation
            }
            observation.syscall = number
            func hex(_ index: Int) -> UInt64 {
                guard index < fields.count else { return 0 }
                let digits = fields[index].starts(with: Array("0x".utf8)) ? fields[index].dropFirst(2) : fields[index]
                return UInt64(String(decoding: digits, as: UTF8.self), radix: 16) ?? 0
            }
            observation.arguments = (hex(1), hex(2), hex(3), hex(4))
            return observation
        }

        private static let runningWord = Array("running".utf8)

        private func read(_ fd: Int32) -> ArraySlice<UInt8>? {
            let count = buffer.withUnsafeMutableBytes { pread(fd, $0.baseAddress, $0.count, 0) }
            guard count > 0 else { return nil }
            var end = count
            while end > 0, buffer[end - 1] == 0x0A { end -= 1 }
            return buffer[0..<end]
        }
    }

    /// The kind of descriptor `fd` of this process is, and what it names: the
    /// file's path (`/proc/self/fd/N`), a socket's peer, a named pipe's path.
    static func describeDescriptor(_ fd: Int32) -> (kind: BlockingClassifier.DescriptorKind, target: WaitTarget?) {
        guard fd >= 0, let link = readLink("/proc/self/fd/\(fd)") else { return (.other, nil) }
        var status = stat()
        let mode = fstat(fd, &status) == 0 ? status.st_mode & S_IFMT : 0
        if mode == S_IFSOCK || link.hasPrefix("socket:") {
            #if os(Linux)
                var domain: Int32 = 0
                var length = socklen_t(MemoryLayout<Int32>.size)
                let isLocal = getsockopt(fd, SOL_SOCKET, SO_DOMAIN, &domain, &length) == 0 && domain == AF_UNIX
            #else
                let isLocal = false
            #endif
            return isLocal
                ? (.localSocket, WaitTarget(kind: .localSocket, name: peerName(fd) ?? "unnamed"))
                : (.socket, WaitTarget(kind: .socket, name: peerName(fd) ?? "an unconnected socket"))
        }
        if mode == S_IFIFO || link.hasPrefix("pipe:") {
            return (.pipe, WaitTarget(kind: .pipe, name: link.hasPrefix("/") ? link : "pipe"))
        }
        let kind = BlockingClassifier.descriptorKind(linkTarget: link)
        switch kind {
        case .file, .blockDevice: return (kind, WaitTarget(kind: .file, name: link))
        default:
            // anon_inode:[eventfd] → eventfd; /dev/pts/0 as it is.
            let name =
                link.hasPrefix("anon_inode:") ? String(link.dropFirst(11).filter { $0 != "[" && $0 != "]" }) : link
            return (kind, WaitTarget(kind: .descriptor, name: name))
        }
    }

    /// The address of the peer of socket `fd`: `127.0.0.1:8080`, `[::1]:443`, or a local socket's path.
    static func peerName(_ fd: Int32) -> String? {
        var storage = sockaddr_storage()
        var length = socklen_t(MemoryLayout<sockaddr_storage>.size)
        let got = withUnsafeMutablePointer(to: &storage) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getpeername(fd, $0, &length) }
        }
        guard got == 0 else { return nil }
        return socketAddressText(&storage, length: Int(length))
    }

    /// A socket address as text: `127.0.0.1:8080`, `[::1]:443`, a local socket's path; nil for others.
    static func socketAddressText(_ storage: inout sockaddr_storage, length: Int) -> String? {
        switch Int32(storage.ss_family) {
        case AF_INET:
            return withUnsafeBytes(of: &storage) { raw -> String in
                let address = raw.loadUnaligned(as: sockaddr_in.self)
                let bytes = withUnsafeBytes(of: address.sin_addr) { Array($0) }
                return bytes.map(String.init).joined(separator: ".") + ":\(UInt16(bigEndian: address.sin_port))"
            }
        case AF_INET6:
            return withUnsafeBytes(of: &storage) { raw -> String in
                let address = raw.loadUnaligned(as: sockaddr_in6.self)
                var text = [CChar](repeating: 0, count: Int(INET6_ADDRSTRLEN) + 1)
                var copy = address.sin6_addr
                _ = inet_ntop(AF_INET6, &copy, &text, socklen_t(text.count))
                let host = String(decoding: text.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
                return "[\(host)]:\(UInt16(bigEndian: address.sin6_port))"
            }
        case AF_UNIX:
            let pathOffset = MemoryLayout<sa_family_t>.size
            guard length > pathOffset else { return "unnamed" }
            return withUnsafeBytes(of: &storage) { raw -> String in
                let path = raw[pathOffset..<min(length, raw.count)]
                // An abstract socket's name starts with a NUL byte.
                if path.first == 0 { return "@" + String(decoding: path.dropFirst().prefix { $0 != 0 }, as: UTF8.self) }
                let name = String(decoding: path.prefix { $0 != 0 }, as: UTF8.self)
                return name.isEmpty ? "unnamed" : name
            }
        default:
            return nil
        }
    }

    /// The kinds of the first few descriptors of a `pollfd` array in this
    /// process's memory (the blocked thread's own argument to `poll`), and the
    /// target of the first of them that names one.
    static func describePollDescriptors(address: UInt64, count: UInt64) -> (
        kinds: [BlockingClassifier.DescriptorKind], target: WaitTarget?
    ) {
        guard address != 0, address % 4 == 0, count > 0, count < 4_096 else { return ([], nil) }
        var fds = [pollfd](repeating: pollfd(), count: Int(min(count, 4)))
        let read = fds.withUnsafeMutableBytes { readOwnMemory(address: address, into: $0) }
        guard read else { return ([], nil) }
        let described = fds.map { describeDescriptor($0.fd) }
        return (described.map(\.kind), described.lazy.compactMap(\.target).first)
    }

    /// The requested length of a sleep whose `timespec` is at `address`; for a
    /// deadline (`TIMER_ABSTIME` on `clock`), the time left until it.
    static func sleepLength(address: UInt64, deadlineOn clock: UInt64?) -> WaitTarget? {
        var request = timespec()
        let read = withUnsafeMutableBytes(of: &request) { readOwnMemory(address: address, into: $0) }
        // The sleeping thread's memory is read after the fact: the call may have returned and the
        // stack been reused, so what is there is any 16 bytes. A request the kernel would refuse
        // (EINVAL), or longer than a century, names nothing (and must not overflow).
        guard read, request.tv_sec >= 0, request.tv_nsec >= 0, request.tv_nsec < 1_000_000_000,
            request.tv_sec < 100 * 365 * 86_400
        else { return nil }
        var nanoseconds = UInt64(request.tv_sec) * 1_000_000_000 + UInt64(request.tv_nsec)
        if let clock {
            var now = timespec()
            #if os(Linux)
                guard clock_gettime(clockid_t(truncatingIfNeeded: clock), &now) == 0 else { return nil }
            #else
                _ = clock
                return nil
            #endif
            nanoseconds = nanoseconds.subtractingClamped(
                UInt64(max(0, now.tv_sec)) * 1_000_000_000 + UInt64(max(0, now.tv_nsec)))
            return WaitTarget(kind: .sleep, name: durationText(nanoseconds) + " left until its deadline")
        }
        return WaitTarget(kind: .sleep, name: durationText(nanoseconds))
    }

    /// `5 ms`, `250 µs`, `1.5 s`: three significant digits at most.
    static func durationText(_ nanoseconds: UInt64) -> String {
        func trimmed(_ value: Double) -> String {
            let rounded =
                value >= 100
                ? value.rounded() : value >= 10 ? (value * 10).rounded() / 10 : (value * 100).rounded() / 100
            let text = String(rounded)
            return text.hasSuffix(".0") ? String(text.dropLast(2)) : text
        }
        let value = Double(nanoseconds)
        if value >= 1e9 { return trimmed(value / 1e9) + " s" }
        if value >= 1e6 { return trimmed(value / 1e6) + " ms" }
        return trimmed(value / 1e3) + " µs"
    }

    /// The path a blocked call named, read from this process's memory at `address` (256 bytes at most).
    static func pathArgument(address: UInt64) -> WaitTarget? {
        guard address != 0 else { return nil }
        var bytes = [UInt8](repeating: 0, count: 256)
        // A path near the end of a mapping: fall back to shorter reads.
        for length in [256, 64] {
            let read = bytes.withUnsafeMutableBytes {
                readOwnMemory(address: address, into: UnsafeMutableRawBufferPointer(rebasing: $0[0..<length]))
            }
            guard read else { continue }
            let path = String(decoding: bytes[0..<length].prefix { $0 != 0 }, as: UTF8.self)
            return path.isEmpty ? nil : WaitTarget(kind: .file, name: path)
        }
        return nil
    }

    /// The child a `wait4`/`waitid` waits for, by its command line: `pid` when it
    /// names a child of this process (nil while that child is not yet exec'd: the
    /// next sample looks again), else the first child of thread `thread`
    /// (`/proc/self/task/<tid>/children`). A `clone`/`clone3` call is classified as
    /// a process wait too, and its first argument is flags or the address of its
    /// arguments, not a pid: such a number may name some other process on the
    /// machine, which is never named; the child is found as the thread's.
    static func childCommand(pid: Int64, thread: UInt64) -> WaitTarget? {
        if pid > 0, isChildOfThisProcess(pid) { return processCommand(pid, thread: thread) }
        guard let children = readSmallText("/proc/self/task/\(thread)/children"),
            let first = children.split(separator: " ").first, let number = Int64(first)
        else { return nil }
        if let named = processCommand(number, thread: thread) { return named }
        guard access("/proc/\(number)", F_OK) == 0 else {
            return WaitTarget(kind: .process, name: "process \(number)")
        }
        return nil  // it exists but is not yet the program it will be
    }

    /// True when process `pid` exists and its parent is this process (`/proc/<pid>/stat`'s
    /// fourth field, read after the command's closing parenthesis, which may itself hold any byte).
    static func isChildOfThisProcess(_ pid: Int64) -> Bool {
        guard let stat = readSmallText("/proc/\(pid)/stat"), let close = stat.lastIndex(of: ")") else { return false }
        let fields = stat[stat.index(after: close)...].split(separator: " ")
        guard fields.count > 1, let parent = Int64(fields[1]) else { return false }
        return parent == Int64(getpid())
    }

    private static func trimmedText(_ text: String) -> String {
        String(text.reversed().drop { $0 == " " || $0 == "\n" }.reversed())
    }

    /// Process `child`'s command line, or its command's name once it has exited; nil
    /// when there is no such process, or it is a copy of this one not yet exec'd (its
    /// command line this process's, or, during the exec, none and the name of `thread`, which spawned it).
    private static func processCommand(_ child: Int64, thread: UInt64) -> WaitTarget? {
        let trimmed = trimmedText
        if let commandLine = readSmallText("/proc/\(child)/cmdline", separatorForNUL: " ").map(trimmed),
            !commandLine.isEmpty
        {
            // Forked but not yet exec'd (a busy or sanitized run stretches that): still a copy of this
            // process, not the program it will be; the next sample names that.
            if commandLine == ownCommandLine { return nil }
            return WaitTarget(kind: .process, name: commandLine)
        }
        // A child that has exited and is not yet reaped (what a wait finds on a busy
        // machine, once the waiting thread gets the CPU back) has no command line
        // left, but still its command's name.
        if let name = readSmallText("/proc/\(child)/comm").map(trimmed), !name.isEmpty {
            if thread != 0, name == readSmallText("/proc/self/task/\(thread)/comm").map(trimmed) { return nil }
            return WaitTarget(kind: .process, name: name)
        }
        return nil
    }

    /// Reads `buffer.count` bytes of this process's memory at `address` without
    /// trusting it: a `pread` of `/proc/self/mem` fails (instead of faulting) when
    /// the memory is gone. The descriptor is opened once.
    static func readOwnMemory(address: UInt64, into buffer: UnsafeMutableRawBufferPointer) -> Bool {
        guard address != 0, address < UInt64(Int64.max), ownMemory >= 0, let base = buffer.baseAddress else {
            return false
        }
        return pread(ownMemory, base, buffer.count, off_t(address)) == buffer.count
    }

    private static let ownMemory: Int32 = {
        #if os(Linux)
            return open("/proc/self/mem", O_RDONLY | O_CLOEXEC)
        #else
            return -1
        #endif
    }()

    private static func readLink(_ path: String) -> String? {
        var target = [CChar](repeating: 0, count: 1_024)
        let count = readlink(path, &target, target.count - 1)
        guard count > 0 else { return nil }
        return String(decoding: target[0..<count].map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }

    /// This process's command line, as `childCommand` reads a child's.
    private static let ownCommandLine: String? = readSmallText("/proc/self/cmdline", separatorForNUL: " ").map(
        trimmedText)

    private static func readSmallText(_ path: String, separatorForNUL: String? = nil) -> String? {
        let fd = open(path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { return nil }
        defer { close(fd) }
        var bytes = [UInt8](repeating: 0, count: 512)
        let count = bytes.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
        guard count > 0 else { return nil }
        var text = Array(bytes[0..<count])
        if separatorForNUL != nil { text = text.map { $0 == 0 ? 0x20 : $0 } }
        return String(decoding: text, as: UTF8.self)
    }

    /// The architecture ``syscallKinds`` numbers system calls for, as the trace
    /// records it (``LaunchContract/MetadataKey/samplerArchitecture``).
    static let syscallArchitecture: String = {
        #if arch(x86_64)
            return "x86_64"
        #elseif arch(arm64)
            return "arm64"
        #else
            return "unknown"
        #endif
    }()

    /// System call numbers and what they do, for this architecture.
    static let syscallKinds: [Int32: BlockingClassifier.SyscallKind] = {
        typealias Kind = BlockingClassifier.SyscallKind
        var table: [Int32: Kind] = [:]
        func set(_ numbers: [Int], _ kind: Kind) { for number in numbers { table[Int32(number)] = kind } }
        #if os(Linux) && arch(x86_64)
            // read write pread64 pwrite64 readv writev preadv pwritev preadv2 pwritev2 sendfile copy_file_range splice tee,
            // connect accept accept4 sendto recvfrom sendmsg recvmsg recvmmsg sendmmsg
            set(
                [0, 1, 17, 18, 19, 20, 295, 296, 327, 328, 40, 326, 275, 276, 42, 43, 288, 44, 45, 46, 47, 299, 307],
                .descriptorIO)
            // open stat lstat access truncate rename mkdir rmdir creat link unlink symlink readlink
            set([2, 4, 6, 21, 76, 82, 83, 84, 85, 86, 87, 88, 89], .disk(pathArgument: 0, descriptorArgument: false))
            // openat openat2 newfstatat statx unlinkat mkdirat renameat2 faccessat
            set([257, 437, 262, 332, 263, 258, 316, 269], .disk(pathArgument: 1, descriptorArgument: false))
            // fstat fsync fdatasync ftruncate sync_file_range fallocate getdents64 getdents msync
            set([5, 74, 75, 77, 277, 285, 217, 78, 26], .disk(pathArgument: nil, descriptorArgument: true))
            set([162, 306], .disk)  // sync syncfs
            set([202, 65, 220, 73, 449], .lock)  // futex semop semtimedop flock futex_waitv
            set([35], .sleep(requestArgument: 0))  // nanosleep
            set([230], .sleep(requestArgument: 2))  // clock_nanosleep
            set([7, 271], .poll)  // poll ppoll
            set([23, 270, 232, 281, 441], .event)  // select pselect6 epoll_wait epoll_pwait epoll_pwait2
            set([61, 56, 435, 57, 58], .process(waitid: false))  // wait4 clone clone3 fork vfork
            set([247], .process(waitid: true))  // waitid
        #elseif os(Linux) && arch(arm64)
            set(
                [
                    63, 64, 67, 68, 65, 66, 69, 70, 286, 287, 71, 285, 76, 77, 203, 202, 242, 206, 207, 211, 212, 243,
                    269,
                ], .descriptorIO)
            set([45], .disk(pathArgument: 0, descriptorArgument: false))  // truncate
            // openat openat2 newfstatat statx mkdirat unlinkat renameat renameat2 faccessat
            set([56, 437, 79, 291, 34, 35, 38, 276, 48], .disk(pathArgument: 1, descriptorArgument: false))
            // fstat fsync fdatasync sync_file_range ftruncate fallocate getdents64 msync
            set([80, 82, 83, 84, 46, 47, 61, 227], .disk(pathArgument: nil, descriptorArgument: true))
            set([81, 267], .disk)  // sync syncfs
            set([98, 193, 192, 32, 449], .lock)  // futex semop semtimedop flock futex_waitv
            set([101], .sleep(requestArgument: 0))  // nanosleep
            set([115], .sleep(requestArgument: 2))  // clock_nanosleep
            set([73], .poll)  // ppoll
            set([72, 22, 441], .event)  // pselect6 epoll_pwait epoll_pwait2
            set([260, 220, 435], .process(waitid: false))  // wait4 clone clone3
            set([95], .process(waitid: true))  // waitid
        #endif
        return table
    }()
}
