// Every system call LaunchMeasure makes, in one place: small wrappers with
// Swift names, so the logic files need no `#if` and no libc import.

#if canImport(Glibc)
import Glibc
#else
// Launching relies on Linux: pidfd, /proc/sys/vm/drop_caches, glibc's posix_spawn.
#error("Unsupported Platform")
#endif
import LaunchTracing

enum Platform {
    // MARK: Time

    /// Sleeps at least `nanoseconds` (restarted after signals).
    static func sleep(nanoseconds: UInt64) {
        var remaining = timespec(tv_sec: Int(nanoseconds / 1_000_000_000), tv_nsec: Int(nanoseconds % 1_000_000_000))
        var left = timespec()
        while nanosleep(&remaining, &left) == -1 && errno == EINTR { remaining = left }
    }

    // MARK: Files and the environment

    /// What a path names, following symbolic links.
    enum FileKind { case regular, directory, other }

    /// The kind of file at `path`, or nil when nothing is there (`stat`).
    static func fileKind(_ path: String) -> FileKind? {
        var status = stat()
        guard stat(path, &status) == 0 else { return nil }
        switch status.st_mode & S_IFMT {
        case S_IFREG: return .regular
        case S_IFDIR: return .directory
        default: return .other
        }
    }

    /// True when this process may execute `path` (`access(X_OK)`).
    static func isExecutable(_ path: String) -> Bool {
        access(path, X_OK) == 0
    }

    /// True when something exists at `path` (`access(F_OK)`).
    static func exists(_ path: String) -> Bool {
        access(path, F_OK) == 0
    }

    /// The text of a NUL-terminated C string held in `storage` (an array or a
    /// fixed-size C char array such as `utsname.sysname` or `dirent.d_name`).
    static func text<Storage>(_ storage: Storage) -> String {
        withUnsafeBytes(of: storage) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) }
    }

    /// The current working directory (`getcwd`).
    static var currentDirectory: String? {
        var buffer = [CChar](repeating: 0, count: Int(PATH_MAX) + 1)
        guard getcwd(&buffer, buffer.count) != nil else { return nil }
        return buffer.withUnsafeBytes { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) }
    }

    /// Creates `path` and any missing parents (`mkdir -p`), mode 0755.
    static func makeDirectories(_ path: String) throws(SystemError) {
        var prefix = path.hasPrefix("/") ? "/" : ""
        for component in path.split(separator: "/") {
            prefix += component
            if mkdir(prefix, 0o755) != 0 && errno != EEXIST { throw .current }
            prefix += "/"
        }
    }

    /// Opens (creating or truncating) a file for writing; close-on-exec.
    static func createFile(_ path: String) throws(SystemError) -> Int32 {
        let fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o644)
        guard fd >= 0 else { throw .current }
        return fd
    }

    /// Writes `text` to an existing file, as the kernel's sysctl files want (one `write`).
    static func writeExistingFile(_ path: String, _ text: String) throws(SystemError) {
        let fd = open(path, O_WRONLY | O_CLOEXEC)
        guard fd >= 0 else { throw .current }
        defer { Glibc.close(fd) }
        var copy = text
        let written = copy.withUTF8 { write(fd, $0.baseAddress, $0.count) }
        guard written == text.utf8.count else { throw written < 0 ? .current : SystemError(code: EIO) }
    }

    /// Flushes every file system's dirty pages to disk (`sync`).
    static func syncFileSystems() {
        sync()
    }

    // MARK: Descriptors

    /// A pipe whose ends are close-on-exec and numbered 10 or above, so that
    /// moving them onto fds 0–3 in the child can never overwrite one another.
    /// The read end is non-blocking (the write end, the child's, is not).
    static func makePipe() throws(SystemError) -> (read: Int32, write: Int32) {
        var ends: [Int32] = [-1, -1]
        guard pipe(&ends) == 0 else { throw .current }
        defer { Glibc.close(ends[0]); Glibc.close(ends[1]) }
        let readEnd = fcntl(ends[0], F_DUPFD_CLOEXEC, 10)
        guard readEnd >= 0 else { throw .current }
        let writeEnd = fcntl(ends[1], F_DUPFD_CLOEXEC, 10)
        guard writeEnd >= 0 else {
            let failure = SystemError.current
            Glibc.close(readEnd)
            throw failure
        }
        _ = fcntl(readEnd, F_SETFL, fcntl(readEnd, F_GETFL) | O_NONBLOCK)
        return (readEnd, writeEnd)
    }

    /// Closes a descriptor this module opened.
    static func close(_ fd: Int32) {
        _ = Glibc.close(fd)
    }

    /// What a read of a non-blocking descriptor gave.
    enum ReadResult { case bytes(Int), endOfFile, wouldBlock }

    /// Reads what is available into `buffer` (retried after signals).
    /// Errors other than `EAGAIN` count as the end of the stream.
    static func read(_ fd: Int32, into buffer: inout [UInt8]) -> ReadResult {
        while true {
            let count = buffer.withUnsafeMutableBytes { Glibc.read(fd, $0.baseAddress, $0.count) }
            if count > 0 { return .bytes(count) }
            if count == 0 { return .endOfFile }
            switch errno {
            case EINTR: continue
            case EAGAIN, EWOULDBLOCK: return .wouldBlock
            default: return .endOfFile
            }
        }
    }

    /// Writes all of `bytes` (retrying partial writes); false on an error.
    @discardableResult
    static func writeAll(_ fd: Int32, _ bytes: ArraySlice<UInt8>) -> Bool {
        var rest = bytes
        while !rest.isEmpty {
            let written = rest.withUnsafeBytes { write(fd, $0.baseAddress, $0.count) }
            if written < 0 {
                if errno == EINTR { continue }
                return false
            }
            rest = rest.dropFirst(written)
        }
        return true
    }

    /// Waits until one of `fds` is readable or hung up, or `milliseconds` pass
    /// (`poll`; -1 waits forever, 0 only looks). Returns one flag per descriptor,
    /// all false on a timeout or a signal.
    static func waitForInput(_ fds: [Int32], milliseconds: Int32) -> [Bool] {
        var entries = fds.map { pollfd(fd: $0, events: Int16(POLLIN), revents: 0) }
        let count = poll(&entries, nfds_t(entries.count), milliseconds)
        guard count > 0 else { return Array(repeating: false, count: fds.count) }
        return entries.map { $0.revents != 0 }
    }

    // MARK: Processes

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
    private enum SpawnExtras {
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

    /// Reaps the child `pid`, waiting for it to end (`waitpid`).
    static func reap(_ pid: Int32) throws(SystemError) -> ExitStatus {
        var status: Int32 = 0
        while waitpid(pid, &status, 0) == -1 {
            if errno != EINTR { throw .current }
        }
        // WIFEXITED / WEXITSTATUS / WTERMSIG, which Swift does not import.
        let low = status & 0x7f
        return low == 0 ? .exited(code: (status >> 8) & 0xff) : .signaled(signal: low)
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

    // MARK: Readiness probes

    /// True when a TCP connection to 127.0.0.1:`port` succeeds: a non-blocking
    /// `connect`, given at most 1 ms to finish, then closed.
    static func acceptsConnections(port: UInt16) -> Bool {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue | SOCK_NONBLOCK.rawValue | SOCK_CLOEXEC.rawValue), 0)
        guard fd >= 0 else { return false }
        defer { Glibc.close(fd) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = port.bigEndian
        address.sin_addr.s_addr = UInt32(0x7f00_0001).bigEndian
        let result = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
            }
        }
        if result == 0 { return true }
        guard errno == EINPROGRESS else { return false }
        var entry = pollfd(fd: fd, events: Int16(POLLOUT), revents: 0)
        guard poll(&entry, 1, 1) == 1 else { return false }
        var failure: Int32 = 0
        var length = socklen_t(MemoryLayout<Int32>.size)
        guard getsockopt(fd, SOL_SOCKET, SO_ERROR, &failure, &length) == 0 else { return false }
        return failure == 0
    }

    // MARK: Stop signals

    /// The handlers in force before ``installStopHandlers()``, to put back.
    struct SavedHandlers {
        var actions: [(signal: Int32, action: sigaction)]
    }

    /// The signals that stop a measurement: SIGINT (Ctrl-C), SIGTERM (a CI
    /// cancelling its job), SIGHUP (the terminal went away).
    static let stopSignals: [Int32] = [SIGINT, SIGTERM, SIGHUP]

    /// Installs handlers for the stop signals that only count them in
    /// `sig_atomic_t`s, unblocks them on the calling thread, and puts SIGCHLD back
    /// to its default action (a parent that ignores it would have the kernel reap
    /// our children before we can). Clears earlier counts. Undo with ``restoreStopHandlers(_:)``.
    static func installStopHandlers() -> SavedHandlers {
        _ = stopState  // initialize the global before a signal can touch it
        stopState[0] = 0
        stopState[1] = 0
        var saved = SavedHandlers(actions: [])
        var action = sigaction()
        action.__sigaction_handler.sa_handler = { signal in
            stopState[0] += 1
            stopState[1] = signal
            // write(2) is async-signal-safe; the message was laid out in advance.
            if stopState[0] == 1, signal == SIGINT, let message = stopMessage.pointee {
                _ = write(2, message, strlen(message))
            }
        }
        action.sa_flags = 0  // no SA_RESTART: a blocking poll returns at once
        sigemptyset(&action.sa_mask)
        var unblock = sigset_t()
        sigemptyset(&unblock)
        for signal in stopSignals {
            var old = sigaction()
            sigaction(signal, &action, &old)
            saved.actions.append((signal, old))
            sigaddset(&unblock, signal)
        }
        var childDefault = sigaction()
        childDefault.__sigaction_handler.sa_handler = nil  // SIG_DFL
        sigemptyset(&childDefault.sa_mask)
        var oldChild = sigaction()
        sigaction(SIGCHLD, &childDefault, &oldChild)
        saved.actions.append((SIGCHLD, oldChild))
        // A parent may have started us with them blocked (Foundation's Process does).
        pthread_sigmask(SIG_UNBLOCK, &unblock, nil)
        return saved
    }

    /// Sets the line written to standard error at the first Ctrl-C (nil: none).
    static func setFirstInterruptMessage(_ text: String?) {
        let old = stopMessage.pointee
        stopMessage.pointee = text.map { strdup($0) }
        free(old)
    }

    /// Puts back the handlers ``installStopHandlers()`` replaced.
    static func restoreStopHandlers(_ saved: SavedHandlers) {
        for (signal, action) in saved.actions {
            var action = action
            sigaction(signal, &action, nil)
        }
    }

    /// How many stop signals arrived since ``installStopHandlers()``.
    static var stopRequests: Int32 { stopState[0] }

    /// The last stop signal that arrived (0 for none).
    static var lastStopSignal: Int32 { stopState[1] }

    /// True when the launch under way must be ended now: a second Ctrl-C, or SIGTERM or SIGHUP.
    static var mustAbortLaunch: Bool {
        stopState[0] >= 2 || (stopState[0] >= 1 && stopState[1] != SIGINT)
    }

    // MARK: Orphans

    /// Makes this process the reaper of its descendants' orphans
    /// (`PR_SET_CHILD_SUBREAPER`), so that what a launch leaves behind is ours to
    /// reap; false where the kernel refuses.
    @discardableResult
    static func becomeSubreaper() -> Bool {
        #if arch(x86_64)
        let prctlNumber = 157
        #elseif arch(arm64)
        let prctlNumber = 167
        #else
        return false
        #endif
        guard let syscall2 = SpawnExtras.syscall2 else { return false }
        return syscall2(prctlNumber, 36 /* PR_SET_CHILD_SUBREAPER */, 1) == 0
    }

    /// Reaps the children left in process group `group` (orphaned grandchildren of
    /// a launch, once this process is their subreaper), waiting up to
    /// `milliseconds` for ones still dying; never touches other children.
    static func reapGroup(_ group: Int32, milliseconds: Int) {
        let deadline = MonotonicClock.nanoseconds + UInt64(milliseconds) * 1_000_000
        while true {
            var info = siginfo_t()
            let result = waitid(P_PGID, id_t(group), &info, WEXITED | WNOHANG)
            if result != 0 { return }  // ECHILD: none left in the group
            if info._sifields._sigchld.si_pid != 0 { continue }  // reaped one
            guard MonotonicClock.nanoseconds < deadline else { return }
            sleep(nanoseconds: 1_000_000)
        }
    }
}

/// The line the handler writes at the first Ctrl-C, laid out before any signal.
nonisolated(unsafe) private let stopMessage: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?> = {
    let slot = UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>.allocate(capacity: 1)
    slot.initialize(to: nil)
    return slot
}()

/// The stop-signal counters: [0] how many arrived, [1] the last one. Written
/// only by the signal handler (aligned words, the `volatile sig_atomic_t` idiom);
/// read through a pointer so every read loads them.
nonisolated(unsafe) private let stopState: UnsafeMutablePointer<sig_atomic_t> = {
    let state = UnsafeMutablePointer<sig_atomic_t>.allocate(capacity: 2)
    state.initialize(repeating: 0, count: 2)
    return state
}()

// MARK: The machine

extension Platform {
    /// This machine's name (`gethostname`).
    static var hostname: String {
        var buffer = [CChar](repeating: 0, count: 256)
        guard gethostname(&buffer, buffer.count - 1) == 0 else { return "unknown" }
        return buffer.withUnsafeBytes { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) }
    }

    /// `uname -s -r -m`.
    static var operatingSystem: String {
        var names = utsname()
        guard uname(&names) == 0 else { return "unknown" }
        return "\(text(names.sysname)) \(text(names.release)) \(text(names.machine))"
    }

    /// The processor's model name, from `/proc/cpuinfo`.
    static var cpuModel: String {
        guard let file = fopen("/proc/cpuinfo", "r") else { return "unknown" }
        defer { fclose(file) }
        var line: UnsafeMutablePointer<CChar>?
        var capacity = 0
        defer { free(line) }
        while getline(&line, &capacity, file) > 0, let line {
            let text = String(cString: line)
            if text.hasPrefix("model name") || text.hasPrefix("Model") || text.hasPrefix("cpu model") {
                let value = text.split(separator: ":", maxSplits: 1).last ?? ""
                return value.trimmingWhitespace()
            }
        }
        return "unknown"
    }

    /// Processors online (`sysconf(_SC_NPROCESSORS_ONLN)`).
    static var cpuCount: Int { Int(sysconf(Int32(_SC_NPROCESSORS_ONLN))) }

    /// The current UTC time as ISO 8601 (`2026-11-22T22:41:18Z`).
    static var utcTimestamp: String {
        var now = time(nil)
        var parts = tm()
        gmtime_r(&now, &parts)
        func two(_ value: Int32) -> String { value < 10 ? "0\(value)" : "\(value)" }
        return "\(parts.tm_year + 1900)-\(two(parts.tm_mon + 1))-\(two(parts.tm_mday))T"
            + "\(two(parts.tm_hour)):\(two(parts.tm_min)):\(two(parts.tm_sec))Z"
    }

    /// The last `maxBytes` of a file as text, or nil when it is empty or unreadable.
    static func tail(of path: String, maxBytes: Int) -> String? {
        let fd = open(path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { return nil }
        defer { Glibc.close(fd) }
        let size = lseek(fd, 0, SEEK_END)
        guard size > 0 else { return nil }
        let start = max(0, Int(size) - maxBytes)
        lseek(fd, off_t(start), SEEK_SET)
        var bytes = [UInt8](repeating: 0, count: Int(size) - start)
        let count = bytes.withUnsafeMutableBytes { Glibc.read(fd, $0.baseAddress, $0.count) }
        guard count > 0 else { return nil }
        return String(decoding: bytes[0..<count], as: UTF8.self)
    }
}

extension StringProtocol {
    /// The text without the spaces, tabs and line breaks around it.
    func trimmingWhitespace() -> String {
        let isSpace: (Character) -> Bool = { $0 == " " || $0 == "\t" || $0 == "\n" || $0 == "\r" }
        return String(drop(while: isSpace).reversed().drop(while: isSpace).reversed())
    }
}

// MARK: Leftovers

extension Platform {
    /// The processes whose environment holds `entry` (`NAME=value`), found in
    /// `/proc/*/environ`: how a launch's descendants that left its process group
    /// (`setsid`, a double fork) are recognised by the spawn stamp they inherited.
    static func processes(withEnvironmentEntry entry: String) -> [Int32] {
        guard let directory = opendir("/proc") else { return [] }
        defer { closedir(directory) }
        let needle = Array(entry.utf8) + [0]
        let me = getpid()
        var found: [Int32] = []
        var buffer = [UInt8](repeating: 0, count: 65_536)
        while let item = readdir(directory) {
            guard let pid = Int32(text(item.pointee.d_name)), pid != me else { continue }
            let fd = open("/proc/\(pid)/environ", O_RDONLY | O_CLOEXEC)
            guard fd >= 0 else { continue }
            let count = buffer.withUnsafeMutableBytes { Glibc.read(fd, $0.baseAddress, $0.count) }
            Glibc.close(fd)
            guard count > 0 else { continue }
            var start = 0
            while start < count {
                var end = start
                while end < count, buffer[end] != 0 { end += 1 }
                if end - start + 1 == needle.count, buffer[start...end].elementsEqual(needle[...]) {
                    found.append(pid)
                    break
                }
                start = end + 1
            }
        }
        return found
    }

    /// True when this process has a child, running or exited and not yet reaped
    /// (`waitid(P_ALL, WNOHANG | WNOWAIT)`); it reaps nothing. One system call.
    static var hasChildren: Bool {
        var info = siginfo_t()
        return waitid(P_ALL, 0, &info, WEXITED | WNOHANG | WNOWAIT) == 0 || errno != ECHILD
    }

    /// Ends `pid` (SIGKILL) and reaps it if it is this process's child.
    static func end(_ pid: Int32) {
        _ = kill(pid, SIGKILL)
        var status: Int32 = 0
        let deadline = MonotonicClock.nanoseconds + 100_000_000
        while waitpid(pid, &status, WNOHANG) == 0, MonotonicClock.nanoseconds < deadline {
            sleep(nanoseconds: 1_000_000)
        }
    }

    /// Removes the file or empty directory at `path` (`remove`), if there is one.
    static func remove(_ path: String) {
        _ = Glibc.remove(path)
    }
}

extension SystemError {
    /// `EACCES`, `EPERM` or `EROFS`: the caller lacks the privilege, not the means.
    var isPermissionProblem: Bool { code == EACCES || code == EPERM || code == EROFS }
}
