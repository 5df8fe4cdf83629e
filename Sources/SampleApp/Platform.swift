// Every platform-specific call the sample app makes, in one place.

import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#else
    #error("Unsupported Platform")
#endif

/// Why a sample system call failed.
struct SampleSystemError: Error, CustomStringConvertible {
    let description: String
}

/// The sample's system calls: durable writes and a tiny HTTP exchange over TCP.
enum SampleSystem {
    /// Replaces `path` with `bytes` atomically and durably: writes a temporary file
    /// beside it synchronously — 64 KiB at a time with `O_DSYNC`, so each write waits
    /// for the device, as a cautious database's journal does — fsyncs it, renames it
    /// over `path` and fsyncs the folder. A launch cut off at any point leaves either
    /// the old file or the new one, never a truncated one.
    static func writeDurably(_ bytes: [UInt8], to path: String) throws {
        let temporary = path + ".tmp-\(getpid())"
        let fd = open(temporary, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC | O_DSYNC | O_NOFOLLOW, 0o644)
        guard fd >= 0 else { throw SampleSystemError(description: "cannot open \(temporary): errno \(errno)") }
        var renamed = false
        defer { if !renamed { unlink(temporary) } }
        do {
            defer { close(fd) }
            var offset = 0
            while offset < bytes.count {
                let chunk = min(65_536, bytes.count - offset)
                let written = bytes.withUnsafeBytes { write(fd, $0.baseAddress! + offset, chunk) }
                guard written > 0 else {
                    throw SampleSystemError(description: "cannot write \(temporary): errno \(errno)")
                }
                offset += written
            }
            guard fsync(fd) == 0 else {
                throw SampleSystemError(description: "cannot fsync \(temporary): errno \(errno)")
            }
        }
        guard rename(temporary, path) == 0 else {
            throw SampleSystemError(description: "cannot rename to \(path): errno \(errno)")
        }
        renamed = true
        let folder = open((path as NSString).deletingLastPathComponent, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        if folder >= 0 {
            _ = fsync(folder)
            close(folder)
        }
    }

    /// One line on standard error.
    static func printWarning(_ line: String) {
        FileHandle.standardError.write(Data((line + "\n").utf8))
    }

    /// Connects to 127.0.0.1:`port`, sends a GET, and reads the whole response
    /// body with blocking `read`s: the main thread waits on the network.
    static func httpGet(port: UInt16, path: String) throws -> [UInt8] {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard fd >= 0 else { throw SampleSystemError(description: "socket: errno \(errno)") }
        defer { close(fd) }
        var address = loopback(port)
        let connected = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
            }
        }
        guard connected == 0 else { throw SampleSystemError(description: "connect to port \(port): errno \(errno)") }
        let request = Array("GET \(path) HTTP/1.0\r\nHost: localhost\r\n\r\n".utf8)
        _ = request.withUnsafeBytes { write(fd, $0.baseAddress, $0.count) }
        var response: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 4_096)
        while true {
            let count = chunk.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
            if count <= 0 { break }
            response.append(contentsOf: chunk[0..<count])
        }
        let separator = Array("\r\n\r\n".utf8)
        guard let split = response.indices.first(where: { response[$0...].starts(with: separator) }) else {
            throw SampleSystemError(description: "malformed response from port \(port)")
        }
        return Array(response[(split + 4)...])
    }

    static func loopback(_ port: UInt16) -> sockaddr_in {
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = port.bigEndian
        address.sin_addr.s_addr = UInt32(0x7F00_0001).bigEndian
        return address
    }

    /// Starts the "remote" configuration service on a loopback port of its own:
    /// a thread that answers each request after `latencyMilliseconds`, as a
    /// distant server would. Returns the port.
    static func startConfigServer(latencyMilliseconds: Int, body: [UInt8]) throws -> UInt16 {
        let listener = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard listener >= 0 else { throw SampleSystemError(description: "socket: errno \(errno)") }
        var one: Int32 = 1
        setsockopt(listener, SOL_SOCKET, SO_REUSEADDR, &one, socklen_t(MemoryLayout<Int32>.size))
        var address = loopback(0)
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                bind(listener, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
            }
        }
        guard bound == 0, listen(listener, 16) == 0 else {
            close(listener)
            throw SampleSystemError(description: "cannot listen on loopback: errno \(errno)")
        }
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { _ = getsockname(listener, $0, &length) }
        }
        let port = UInt16(bigEndian: address.sin_port)
        let response =
            Array("HTTP/1.0 200 OK\r\nContent-Type: application/json\r\nContent-Length: \(body.count)\r\n\r\n".utf8)
            + body
        let thread = Thread {
            while true {
                let client = accept(listener, nil, nil)
                if client < 0 { continue }
                var request = [UInt8](repeating: 0, count: 1_024)
                _ = request.withUnsafeMutableBytes { read(client, $0.baseAddress, $0.count) }
                usleep(UInt32(latencyMilliseconds * 1_000))  // the remote service's latency
                _ = response.withUnsafeBytes { write(client, $0.baseAddress, $0.count) }
                close(client)
            }
        }
        thread.name = "config-server"
        thread.start()
        return port
    }
}
