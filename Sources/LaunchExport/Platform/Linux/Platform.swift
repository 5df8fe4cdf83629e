// Every system call LaunchExport makes: a TCP connection with a deadline on
// every step, and the clock the deadline is on. The logic files need no `#if`
// and no libc import. Like the rest of `launchprof`, Linux only.

import Dispatch
import LaunchTracing
import _LaunchSystem

#if canImport(Glibc)
    import Glibc
#else
    #error("The launcher runs on Linux only: see LaunchMeasure.docc/PortingTheLauncher.md")
#endif

/// Namespace for the system calls LaunchExport wraps.
enum Platform {
    /// Why a socket operation failed: `strerror`'s text, or a deadline that passed.
    struct SocketFailure: Error {
        var reason: String
        var timedOut = false
    }

    /// The monotonic clock now, nanoseconds (what deadlines are on).
    static var monotonicNanoseconds: UInt64 { MonotonicClock.nanoseconds }

    /// A TCP connection to `host`:`port`, trying each address the name has, by
    /// `deadline` (monotonic nanoseconds). The socket is non-blocking.
    static func connect(host: String, port: UInt16, deadline: UInt64) throws(SocketFailure) -> Int32 {
        let addresses = try resolve(host: host, port: port, deadline: deadline)
        var failure = SocketFailure(reason: "no address for '\(host)'")
        for var address in addresses {
            let fd = socket(
                address.family,
                Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue) | Int32(SOCK_NONBLOCK.rawValue), 0)
            guard fd >= 0 else {
                failure = SocketFailure(reason: errorText(errno))
                continue
            }
            let connected = withUnsafePointer(to: &address.storage) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { Glibc.connect(fd, $0, address.length) }
            }
            if connected == 0 { return fd }
            guard errno == EINPROGRESS else {
                failure = SocketFailure(reason: errorText(errno))
                Glibc.close(fd)
                continue
            }
            do {
                try wait(fd, for: Int16(POLLOUT), deadline: deadline)
            } catch {
                Glibc.close(fd)
                throw error
            }
            var code: Int32 = 0
            var length = socklen_t(MemoryLayout<Int32>.size)
            getsockopt(fd, SOL_SOCKET, SO_ERROR, &code, &length)
            if code == 0 { return fd }
            failure = SocketFailure(reason: errorText(code))
            Glibc.close(fd)
        }
        throw failure
    }

    /// One address a host name resolved to.
    struct Address: @unchecked Sendable {
        var family: Int32
        var storage: sockaddr_storage
        var length: socklen_t
    }

    /// What `getaddrinfo` found, handed from its thread to the caller (the
    /// semaphore orders the write before the read; after a timeout nobody reads).
    private final class Resolution: @unchecked Sendable {
        var addresses: [Address] = []
        var problem: String?
        let done = DispatchSemaphore(value: 0)
    }

    /// The addresses of `host`, by `deadline`: `getaddrinfo` runs on a thread
    /// of its own (it has no timeout), left to finish alone if the deadline passes first.
    private static func resolve(host: String, port: UInt16, deadline: UInt64) throws(SocketFailure) -> [Address] {
        let resolution = Resolution()
        DispatchQueue.global().async {
            var hints = addrinfo()
            hints.ai_family = AF_UNSPEC
            hints.ai_socktype = Int32(SOCK_STREAM.rawValue)
            var list: UnsafeMutablePointer<addrinfo>?
            let status = getaddrinfo(host, String(port), &hints, &list)
            if status == 0, let first = list {
                var entry: UnsafeMutablePointer<addrinfo>? = first
                while let info = entry {
                    entry = info.pointee.ai_next
                    var storage = sockaddr_storage()
                    let length = min(Int(info.pointee.ai_addrlen), MemoryLayout<sockaddr_storage>.size)
                    withUnsafeMutableBytes(of: &storage) {
                        $0.copyMemory(from: UnsafeRawBufferPointer(start: info.pointee.ai_addr, count: length))
                    }
                    resolution.addresses.append(
                        Address(family: info.pointee.ai_family, storage: storage, length: socklen_t(length)))
                }
                freeaddrinfo(first)
            } else {
                resolution.problem = "cannot resolve '\(host)': " + String(cString: gai_strerror(status))
            }
            resolution.done.signal()
        }
        let now = monotonicNanoseconds
        guard now < deadline,
            resolution.done.wait(timeout: .now() + .nanoseconds(Int(min(deadline - now, UInt64(Int.max))))) == .success
        else {
            throw SocketFailure(reason: "timed out", timedOut: true)
        }
        if let problem = resolution.problem { throw SocketFailure(reason: problem) }
        return resolution.addresses
    }

    /// The kernel's random numbers (`/dev/urandom`), read 4 KiB at a time: a
    /// few system calls per 512 values instead of one per value.
    struct SystemRandom: RandomNumberGenerator {
        private var buffer = [UInt64](repeating: 0, count: 512)
        private var position = 512

        mutating func next() -> UInt64 {
            if position == buffer.count {
                let filled = buffer.withUnsafeMutableBytes { bytes in
                    let fd = open("/dev/urandom", O_RDONLY | O_CLOEXEC)
                    guard fd >= 0 else { return false }
                    defer { close(fd) }
                    var count = 0
                    while count < bytes.count {
                        let got = read(fd, bytes.baseAddress! + count, bytes.count - count)
                        if got > 0 { count += got } else if got == 0 || errno != EINTR { break }
                    }
                    return count == bytes.count
                }
                if !filled {
                    // No /dev/urandom (a sandbox without /dev): the standard library's generator.
                    var system = SystemRandomNumberGenerator()
                    for index in buffer.indices { buffer[index] = system.next() }
                }
                position = 0
            }
            defer { position += 1 }
            return buffer[position]
        }
    }

    /// Sends all of `bytes` by `deadline`.
    static func send(_ fd: Int32, _ bytes: [UInt8], deadline: UInt64) throws(SocketFailure) {
        var offset = 0
        while offset < bytes.count {
            let sent = bytes.withUnsafeBytes {
                Glibc.send(fd, $0.baseAddress! + offset, $0.count - offset, Int32(MSG_NOSIGNAL))
            }
            if sent > 0 {
                offset += sent
            } else if sent < 0 && (errno == EAGAIN || errno == EWOULDBLOCK) {
                try wait(fd, for: Int16(POLLOUT), deadline: deadline)
            } else if sent < 0 && errno == EINTR {
                continue
            } else {
                throw SocketFailure(reason: errorText(errno))
            }
        }
    }

    /// Reads until the peer closes, `isComplete` holds, or `limit` bytes came, by `deadline`.
    static func receive(_ fd: Int32, limit: Int, deadline: UInt64, isComplete: ([UInt8]) -> Bool) throws(SocketFailure)
        -> [UInt8]
    {
        var received: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 16_384)
        while received.count < limit, !isComplete(received) {
            let count = chunk.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, 0) }
            if count > 0 {
                received += chunk[..<count]
            } else if count == 0 {
                break
            } else if errno == EAGAIN || errno == EWOULDBLOCK {
                try wait(fd, for: Int16(POLLIN), deadline: deadline)
            } else if errno != EINTR {
                if received.isEmpty { throw SocketFailure(reason: errorText(errno)) }
                break
            }
        }
        return received
    }

    /// Closes a socket.
    static func close(_ fd: Int32) { SystemCalls.close(FileDescriptor(rawValue: fd)) }

    /// Waits until `fd` is ready for `events`, or throws when `deadline` passes first.
    private static func wait(_ fd: Int32, for events: Int16, deadline: UInt64) throws(SocketFailure) {
        while true {
            let now = monotonicNanoseconds
            guard now < deadline else { throw SocketFailure(reason: "timed out", timedOut: true) }
            var entry = pollfd(fd: fd, events: events, revents: 0)
            let milliseconds = Int32(min((deadline - now + 999_999) / 1_000_000, UInt64(Int32.max)))
            let ready = poll(&entry, 1, milliseconds)
            if ready > 0 { return }
            if ready < 0 && errno != EINTR { throw SocketFailure(reason: errorText(errno)) }
        }
    }

    private static func errorText(_ code: Int32) -> String {
        String(cString: strerror(code)).lowercased()
    }
}
