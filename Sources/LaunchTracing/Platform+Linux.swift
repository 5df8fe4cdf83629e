// Every platform-specific call LaunchTracing makes, in one place.

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#else
#error("Unsupported Platform")
#endif
import _LaunchTracingShims

/// Namespace for the system calls LaunchTracing wraps.
enum Platform {
    /// Maps `bytes` of zeroed, already-resident memory (MAP_POPULATE on Linux;
    /// touched page by page elsewhere), so the hot path never takes a page fault.
    static func allocateResident(bytes: Int) -> UnsafeMutableRawPointer? {
        guard bytes > 0 else { return nil }
        #if os(Linux)
        let flags = MAP_PRIVATE | MAP_ANONYMOUS | MAP_POPULATE
        #else
        let flags = MAP_PRIVATE | MAP_ANON
        #endif
        guard let memory = mmap(nil, bytes, PROT_READ | PROT_WRITE, flags, -1, 0),
              memory != MAP_FAILED else { return nil }
        #if !os(Linux)
        let page = Int(getpagesize())
        var offset = 0
        while offset < bytes {
            memory.storeBytes(of: 0, toByteOffset: offset, as: UInt8.self)
            offset += page
        }
        #endif
        return memory
    }

    static func release(_ memory: UnsafeMutableRawPointer, bytes: Int) {
        munmap(memory, bytes)
    }

    static func environment(_ name: String) -> String? {
        guard let value = getenv(name) else { return nil }
        return String(cString: value)
    }

    static var processID: Int32 { getpid() }

    /// The running executable's path, when the OS tells it.
    static var executablePath: String {
        #if os(Linux)
        var buffer = [CChar](repeating: 0, count: 4096)
        let count = readlink("/proc/self/exe", &buffer, buffer.count - 1)
        if count > 0 { return String(decoding: buffer[0..<count].map { UInt8(bitPattern: $0) }, as: UTF8.self) }
        return CommandLine.arguments.first ?? ""
        #else
        return CommandLine.arguments.first ?? ""
        #endif
    }

    /// The name of the calling thread, if one was set.
    static func currentThreadName() -> String? {
        var buffer = [UInt8](repeating: 0, count: 64)
        let length = buffer.withUnsafeMutableBufferPointer { lp_current_thread_name($0.baseAddress, $0.count) }
        guard length > 0 else { return nil }
        return String(decoding: buffer[0..<Int(length)], as: UTF8.self)
    }

    /// The name of thread `tid` of this process, read at flush (Linux only).
    static func threadName(tid: UInt64) -> String? {
        #if os(Linux)
        guard let text = readSmallFile("/proc/self/task/\(tid)/comm") else { return nil }
        let name = text.trimmingSuffix("\n")
        return name.isEmpty ? nil : name
        #else
        return nil
        #endif
    }

    /// The process's start time on the CLOCK_MONOTONIC base, as the OS records it.
    ///
    /// Linux: field 22 of `/proc/self/stat` (clock ticks since boot, on the
    /// boot-time clock), moved onto CLOCK_MONOTONIC by the current offset between
    /// the two clocks. Its resolution is one clock tick (10 ms), so it is approximate.
    static func processStartMonotonicNanoseconds() -> UInt64? {
        #if os(Linux)
        guard let stat = readSmallFile("/proc/self/stat"),
              let close = stat.lastIndex(of: ")") else { return nil }
        let fields = stat[stat.index(after: close)...].split(separator: " ")
        // fields[0] is field 3 (state); starttime is field 22.
        guard fields.count > 19, let startTicks = UInt64(fields[19]) else { return nil }
        let hertz = UInt64(max(1, sysconf(Int32(_SC_CLK_TCK))))
        var boot = timespec(), monotonic = timespec()
        clock_gettime(CLOCK_BOOTTIME, &boot)
        clock_gettime(CLOCK_MONOTONIC, &monotonic)
        let bootNs = UInt64(boot.tv_sec) * 1_000_000_000 + UInt64(boot.tv_nsec)
        let monotonicNs = UInt64(monotonic.tv_sec) * 1_000_000_000 + UInt64(monotonic.tv_nsec)
        let startBootNs = Int64(startTicks * (1_000_000_000 / hertz))
        // The clocks differ by time spent suspended; read back to back they may
        // also differ by a few hundred nanoseconds either way.
        let offset = Int64(bitPattern: bootNs &- monotonicNs)
        return UInt64(max(0, startBootNs - max(0, offset)))
        #else
        return nil
        #endif
    }

    /// Reads a small text file in one go (procfs files report a size of 0).
    static func readSmallFile(_ path: String) -> String? {
        let fd = open(path, O_RDONLY)
        guard fd >= 0 else { return nil }
        defer { close(fd) }
        var bytes = [UInt8](repeating: 0, count: 4096)
        let count = bytes.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
        guard count > 0 else { return nil }
        return String(decoding: bytes[0..<count], as: UTF8.self)
    }

    /// Writes `bytes` to `path` (created or truncated), all or nothing as far as
    /// the caller can tell: it is written to a temporary file and renamed.
    static func writeFile(_ path: String, bytes: [UInt8]) throws(TraceFileError) {
        let temporary = path + ".partial-\(getpid())"
        let fd = open(temporary, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
        guard fd >= 0 else { throw .cannotWrite(path: path, reason: String(cString: strerror(errno))) }
        var written = 0
        let failure: Int32? = bytes.withUnsafeBytes { raw in
            while written < raw.count {
                let result = write(fd, raw.baseAddress! + written, raw.count - written)
                if result < 0 {
                    if errno == EINTR { continue }
                    return errno
                }
                written += result
            }
            return nil
        }
        close(fd)
        if let failure {
            unlink(temporary)
            throw .cannotWrite(path: path, reason: String(cString: strerror(failure)))
        }
        guard rename(temporary, path) == 0 else {
            let reason = String(cString: strerror(errno))
            unlink(temporary)
            throw .cannotWrite(path: path, reason: reason)
        }
    }

    /// Reads a whole file.
    static func readFile(_ path: String) throws(TraceFileError) -> [UInt8] {
        let fd = open(path, O_RDONLY)
        guard fd >= 0 else { throw .cannotRead(path: path, reason: String(cString: strerror(errno))) }
        defer { close(fd) }
        var info = stat()
        let size = fstat(fd, &info) == 0 ? Int(info.st_size) : 0
        var bytes = [UInt8](repeating: 0, count: max(size, 0))
        var filled = 0
        while true {
            if filled == bytes.count { bytes.append(contentsOf: repeatElement(0, count: max(4096, bytes.count))) }
            let count = bytes.withUnsafeMutableBytes { read(fd, $0.baseAddress! + filled, $0.count - filled) }
            if count < 0 {
                if errno == EINTR { continue }
                throw .cannotRead(path: path, reason: String(cString: strerror(errno)))
            }
            if count == 0 { break }
            filled += count
        }
        bytes.removeSubrange(filled...)
        return bytes
    }

    /// The calling thread's resource usage (Linux: `getrusage(RUSAGE_THREAD)`;
    /// Darwin: the process's, which is what the platform offers cheaply).
    static func threadUsage() -> ResourceUsage {
        var usage = rusage()
        lp_thread_rusage(&usage)
        func ns(_ time: timeval) -> UInt64 {
            UInt64(max(0, time.tv_sec)) * 1_000_000_000 + UInt64(max(0, Int(time.tv_usec))) * 1_000
        }
        return ResourceUsage(
            cpuNanoseconds: ns(usage.ru_utime) + ns(usage.ru_stime),
            voluntaryContextSwitches: UInt64(max(0, usage.ru_nvcsw)),
            involuntaryContextSwitches: UInt64(max(0, usage.ru_nivcsw)),
            minorFaults: UInt64(max(0, usage.ru_minflt)),
            majorFaults: UInt64(max(0, usage.ru_majflt)))
    }

    /// The length of the NUL-terminated bytes at `address` (`strlen`).
    static func stringLength(_ address: UnsafeRawPointer) -> Int {
        strlen(address.assumingMemoryBound(to: CChar.self))
    }

    static func writeStandardError(_ text: String) {
        var text = text
        text.withUTF8 { bytes in _ = write(2, bytes.baseAddress, bytes.count) }
    }

    /// Registers `handler` to run at normal process exit.
    static func atExit(_ handler: @escaping @convention(c) () -> Void) {
        atexit(handler)
    }
}

/// A minimal mutual-exclusion lock for slow paths (registration, flush).
final class Lock: @unchecked Sendable {
    private let mutex: UnsafeMutablePointer<pthread_mutex_t>

    init() {
        mutex = .allocate(capacity: 1)
        pthread_mutex_init(mutex, nil)
    }

    deinit {
        pthread_mutex_destroy(mutex)
        mutex.deallocate()
    }

    func withLock<T>(_ body: () throws -> T) rethrows -> T {
        pthread_mutex_lock(mutex)
        defer { pthread_mutex_unlock(mutex) }
        return try body()
    }
}

extension String {
    func trimmingSuffix(_ suffix: String) -> String {
        hasSuffix(suffix) ? String(dropLast(suffix.count)) : self
    }
}

extension Platform {
    /// True when something exists at `path` (the C function is `access` with `F_OK`).
    static func fileExists(_ path: String) -> Bool { access(path, F_OK) == 0 }
}
