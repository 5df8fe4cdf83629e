import Foundation
import _LaunchProfTestSupport

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#else
    #error("Unsupported Platform")
#endif

/// The few system calls the tests make themselves, in one place.
enum System {
    /// CLOCK_MONOTONIC, nanoseconds: the clock the sampler and the tracer use.
    static var monotonicNanoseconds: UInt64 {
        var now = timespec()
        clock_gettime(CLOCK_MONOTONIC, &now)
        return UInt64(now.tv_sec) * 1_000_000_000 + UInt64(now.tv_nsec)
    }

    /// The calling thread's OS id (Linux `gettid`), read from `/proc/thread-self`
    /// (a link to `<pid>/task/<tid>`).
    static var currentThreadID: UInt64 {
        guard let target = linkTarget("/proc/thread-self"),
            let tid = target.split(separator: "/").last.flatMap({ UInt64($0) })
        else { return 0 }
        return tid
    }

    /// What a symbolic link (such as `/proc/self/fd/3`) points to.
    static func linkTarget(_ path: String) -> String? {
        var buffer = [CChar](repeating: 0, count: 1_024)
        let count = readlink(path, &buffer, buffer.count - 1)
        guard count > 0 else { return nil }
        return String(decoding: buffer[0..<count].map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }

    /// A new empty directory under the system's temporary directory, never removed.
    /// Kept for call sites that predate ``ScratchDirectory``; new code holds a `ScratchDirectory`.
    static func temporaryDirectory(_ prefix: String) -> URL { ScratchDirectory.makeDirectory(prefix) }

    // MARK: Real blocking work for the sampler

    struct Failure: Error, CustomStringConvertible {
        var description: String
    }

    /// Writes `megabytes` MiB to `path`, forces them to disk, and asks the kernel to
    /// drop them from the page cache (`posix_fadvise(POSIX_FADV_DONTNEED)`).
    /// Returns the share of the file's pages still cached afterwards (`mincore`).
    static func writeUncachedFile(_ path: String, megabytes: Int) throws -> Double {
        let fd = open(path, O_RDWR | O_CREAT | O_TRUNC | O_CLOEXEC, 0o644)
        guard fd >= 0 else { throw Failure(description: "open \(path): errno \(errno)") }
        defer { close(fd) }
        var chunk = [UInt8](repeating: 0, count: 1 << 20)
        var state: UInt64 = 0x9E37_79B9_7F4A_7C15
        for index in chunk.indices {
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            chunk[index] = UInt8(truncatingIfNeeded: state >> 56)
        }
        for _ in 0..<megabytes {
            let written = chunk.withUnsafeBytes { write(fd, $0.baseAddress, $0.count) }
            guard written == chunk.count else { throw Failure(description: "write \(path): errno \(errno)") }
        }
        guard fsync(fd) == 0 else { throw Failure(description: "fsync \(path): errno \(errno)") }
        return try evict(path)
    }

    /// Asks the kernel to drop `path` from the page cache (`posix_fadvise(POSIX_FADV_DONTNEED)`);
    /// returns the share of its pages still cached afterwards.
    @discardableResult
    static func evict(_ path: String) throws -> Double {
        let fd = open(path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { throw Failure(description: "open \(path): errno \(errno)") }
        defer { close(fd) }
        let advice = posix_fadvise(fd, 0, 0, Int32(POSIX_FADV_DONTNEED))
        guard advice == 0 else { throw Failure(description: "posix_fadvise \(path): error \(advice)") }
        var status = stat()
        guard fstat(fd, &status) == 0 else { throw Failure(description: "fstat \(path): errno \(errno)") }
        return try residentShare(fd, bytes: Int(status.st_size))
    }

    /// The share of the first `bytes` of `fd` that are in the page cache (`mincore`).
    static func residentShare(_ fd: Int32, bytes: Int) throws -> Double {
        let pageSize = sysconf(Int32(_SC_PAGESIZE))
        let pages = (bytes + pageSize - 1) / pageSize
        guard let address = mmap(nil, bytes, PROT_READ, MAP_SHARED, fd, 0),
            address != UnsafeMutableRawPointer(bitPattern: -1)
        else {
            throw Failure(description: "mmap: errno \(errno)")
        }
        defer { munmap(address, bytes) }
        var vector = [UInt8](repeating: 0, count: pages)
        guard mincore(address, bytes, &vector) == 0 else { throw Failure(description: "mincore: errno \(errno)") }
        return Double(vector.filter { $0 & 1 != 0 }.count) / Double(pages)
    }

    /// Reads all of `path` with blocking `read`s of 1 MiB; returns the bytes read.
    static func readWholeFile(_ path: String) -> Int {
        let fd = open(path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { return -1 }
        defer { close(fd) }
        var chunk = [UInt8](repeating: 0, count: 1 << 20)
        var total = 0
        while true {
            let count = chunk.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
            if count <= 0 { return total }
            total += count
        }
    }

    /// `O_DIRECT`, which Glibc's Swift overlay does not export.
    static var openDirect: Int32 {
        #if arch(x86_64) || arch(i386)
            return 0o40_000
        #elseif arch(arm64) || arch(arm)
            return 0o200_000
        #else
            #error("Unsupported Platform")
        #endif
    }

    /// Reads a file with `O_DIRECT` into a buffer of its own, in one `read`: the
    /// kernel sends the whole request to the device, bypassing the page cache,
    /// and the thread waits for it without copying.
    final class DirectReader: @unchecked Sendable {
        let capacity: Int
        private let buffer: UnsafeMutableRawPointer

        /// Allocates and touches the buffer now, so that reading does not fault its pages in.
        init(capacity: Int) {
            self.capacity = capacity
            buffer = UnsafeMutableRawPointer.allocate(byteCount: capacity, alignment: 4_096)
            buffer.initializeMemory(as: UInt8.self, repeating: 0, count: capacity)
        }

        deinit { buffer.deallocate() }

        /// `syscall(2)` with three arguments: read(2) as the bare system call. A
        /// ThreadSanitizer build's `read` marks the whole buffer written in its
        /// shadow memory after each call: tens of milliseconds of work in user
        /// space per 64 MiB that the sampler rightly saw as running, not disk.
        private static let systemRead: @convention(c) (Int, Int32, UnsafeMutableRawPointer, Int) -> Int =
            unsafeBitCast(
                dlsym(nil, "syscall")!, to: (@convention(c) (Int, Int32, UnsafeMutableRawPointer, Int) -> Int).self)

        /// SYS_read.
        #if arch(x86_64)
            private static let readNumber = 0
        #else
            private static let readNumber = 63
        #endif

        /// Reads the first `capacity` bytes of `path`; returns the bytes read.
        func readAll(_ path: String) -> Int {
            let fd = open(path, O_RDONLY | O_CLOEXEC | System.openDirect)
            guard fd >= 0 else { return -1 }
            defer { close(fd) }
            var total = 0
            while total < capacity {
                let count = Self.systemRead(Self.readNumber, fd, buffer + total, capacity - total)
                if count <= 0 { return count < 0 ? -1 : total }
                total += count
            }
            return total
        }
    }

    /// A TCP server on 127.0.0.1, on a thread of its own.
    struct LoopbackServer: Sendable {
        let port: UInt16
        fileprivate let listener: Int32

        /// Stops accepting; the server's thread closes the socket and ends.
        func stop() { shutdown(listener, Int32(SHUT_RDWR)) }
    }

    /// Starts a server on 127.0.0.1 that answers each request after
    /// `latencyMilliseconds`, as a distant server would.
    static func startLoopbackServer(latencyMilliseconds: Int, response: [UInt8]) throws -> LoopbackServer {
        let listener = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard listener >= 0 else { throw Failure(description: "socket: errno \(errno)") }
        var address = loopback(port: 0)
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                bind(listener, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
            }
        }
        guard bound == 0, listen(listener, 4) == 0 else {
            close(listener)
            throw Failure(description: "cannot listen on 127.0.0.1: errno \(errno)")
        }
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        _ = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(listener, $0, &length) }
        }
        let server = Thread {
            defer { close(listener) }
            while true {
                let client = accept(listener, nil, nil)
                guard client >= 0 else { return }
                var request = [UInt8](repeating: 0, count: 1_024)
                _ = request.withUnsafeMutableBytes { read(client, $0.baseAddress, $0.count) }
                usleep(UInt32(latencyMilliseconds * 1_000))  // the remote side's latency, on the server's thread
                _ = response.withUnsafeBytes { write(client, $0.baseAddress, $0.count) }
                close(client)
            }
        }
        server.name = "lp-loopback-server"
        server.start()
        return LoopbackServer(port: UInt16(bigEndian: address.sin_port), listener: listener)
    }

    /// Connects to 127.0.0.1:`port`, sends `request`, and reads the answer to the end
    /// with blocking `read`s.
    static func exchange(port: UInt16, request: [UInt8]) -> [UInt8] {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard fd >= 0 else { return [] }
        defer { close(fd) }
        var address = loopback(port: port)
        let connected = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
            }
        }
        guard connected == 0 else { return [] }
        _ = request.withUnsafeBytes { write(fd, $0.baseAddress, $0.count) }
        var answer: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 4_096)
        while true {
            let count = chunk.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
            if count <= 0 { return answer }
            answer.append(contentsOf: chunk[0..<count])
        }
    }

    private static func loopback(port: UInt16) -> sockaddr_in {
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = port.bigEndian
        address.sin_addr.s_addr = UInt32(0x7F00_0001).bigEndian
        return address
    }

    /// Sleeps `milliseconds` in `nanosleep`.
    static func sleepInNanosleep(milliseconds: Int) {
        var request = timespec(tv_sec: milliseconds / 1_000, tv_nsec: (milliseconds % 1_000) * 1_000_000)
        var remaining = timespec()
        while nanosleep(&request, &remaining) != 0, errno == EINTR { request = remaining }
    }

    /// Opens a pipe; returns its read and write ends.
    static func makePipe() -> (read: Int32, write: Int32) {
        var ends: [Int32] = [-1, -1]
        _ = pipe(&ends)
        return (ends[0], ends[1])
    }

    /// Opens a TCP socket (unconnected).
    static func makeSocket() -> Int32 {
        socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
    }

    static func closeDescriptor(_ fd: Int32) { close(fd) }

    static func writeByte(_ fd: Int32) {
        var byte: UInt8 = 1
        _ = write(fd, &byte, 1)
    }

    static func readByte(_ fd: Int32) {
        var byte: UInt8 = 0
        _ = read(fd, &byte, 1)
    }

    /// Starts `path` with `arguments` through `posix_spawn` and returns its pid (nil
    /// when it cannot be started): no Foundation `Process`, whose own set-up work
    /// would run on the calling thread and be sampled as something other than a wait.
    static func spawn(_ path: String, _ arguments: [String]) -> pid_t? {
        let argv: [UnsafeMutablePointer<CChar>?] = ([path] + arguments).map { strdup($0) } + [nil]
        defer { for argument in argv { free(argument) } }
        var pid: pid_t = 0
        return posix_spawn(&pid, path, nil, nil, argv, environ) == 0 ? pid : nil
    }

    /// `waitpid` for `pid` (Foundation's `Process` would wait in a run loop instead).
    static func waitForChild(_ pid: Int32) {
        var status: Int32 = 0
        while waitpid(pid, &status, 0) < 0 && errno == EINTR {}
    }
}
