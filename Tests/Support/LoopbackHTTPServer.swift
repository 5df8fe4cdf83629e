import Foundation

#if canImport(Glibc)
    import Glibc
#else
    #error("Unsupported Platform")
#endif

/// A tiny HTTP/1.1 server on 127.0.0.1 for tests of what a client posts: it
/// records each request and answers from a script (the last answer repeats).
///
/// ```swift
/// let server = try LoopbackHTTPServer(replies: [.status(200)])
/// defer { server.stop() }
/// // post to "http://127.0.0.1:\(server.port)/v1/traces"
/// let request = server.requests.first
/// ```
public final class LoopbackHTTPServer: @unchecked Sendable {
    /// How the server answers one request.
    public enum Reply: Sendable {
        /// A status, extra header lines (`Retry-After: 1`), and a body.
        case status(Int, headers: [String] = [], body: String = "")
        /// No answer at all: the connection stays open until the server stops.
        case silence
    }

    /// One request as it arrived.
    public struct Request: Sendable {
        public var method: String
        public var path: String
        /// Header names lowercased.
        public var headers: [String: String]
        public var body: Data
    }

    /// The port it listens on.
    public let port: UInt16
    private let listener: Int32
    private let lock = NSLock()
    private var replies: [Reply]
    private var received: [Request] = []
    private var held: [Int32] = []
    private var stopped = false
    private let finished = DispatchSemaphore(value: 0)

    /// Starts listening on an unused port of 127.0.0.1.
    public init(replies: [Reply]) throws {
        precondition(!replies.isEmpty)
        self.replies = replies
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                bind(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
            }
        }
        guard fd >= 0, bound == 0, listen(fd, 16) == 0 else {
            throw POSIXError(POSIXErrorCode(rawValue: errno) ?? .EIO)
        }
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        _ = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(fd, $0, &length) }
        }
        listener = fd
        port = UInt16(bigEndian: address.sin_port)
        let thread = Thread { [self] in serve() }
        thread.start()
    }

    /// The requests received so far, in order.
    public var requests: [Request] { lock.withLock { received } }

    /// Stops listening and closes every connection it held open.
    public func stop() {
        let first = lock.withLock { () -> Bool in
            defer { stopped = true }
            return !stopped
        }
        guard first else { return }
        shutdown(listener, Int32(SHUT_RDWR))
        finished.wait()
        close(listener)
        for fd in lock.withLock({ held }) { close(fd) }
    }

    deinit { stop() }

    /// A port on 127.0.0.1 that nothing listens on (bound, then closed).
    public static func unusedPort() throws -> UInt16 {
        let server = try LoopbackHTTPServer(replies: [.silence])
        server.stop()
        return server.port
    }

    private func serve() {
        defer { finished.signal() }
        while true {
            let connection = accept(listener, nil, nil)
            if connection < 0 {
                if errno == EINTR { continue }
                return
            }
            guard let request = read(connection) else {
                close(connection)
                continue
            }
            let reply = lock.withLock { () -> Reply in
                received.append(request)
                return replies.count > 1 ? replies.removeFirst() : replies[0]
            }
            switch reply {
            case .silence:
                lock.withLock { held.append(connection) }
            case .status(let status, let headers, let body):
                var text =
                    "HTTP/1.1 \(status) \(status < 400 ? "OK" : "Error")\r\nContent-Type: application/json\r\n"
                    + "Content-Length: \(body.utf8.count)\r\nConnection: close\r\n"
                for header in headers { text += header + "\r\n" }
                text += "\r\n" + body
                let bytes = Array(text.utf8)
                _ = bytes.withUnsafeBytes { send(connection, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
                close(connection)
            }
        }
    }

    /// Reads one request: the head, then `Content-Length` bytes of body.
    private func read(_ connection: Int32) -> Request? {
        var bytes = Data()
        var chunk = [UInt8](repeating: 0, count: 65_536)
        var headEnd: Data.Index?
        var expected = Int.max
        while bytes.count < expected {
            let count = chunk.withUnsafeMutableBytes { recv(connection, $0.baseAddress, $0.count, 0) }
            guard count > 0 else { return nil }
            bytes.append(contentsOf: chunk[..<count])
            if headEnd == nil, let range = bytes.range(of: Data("\r\n\r\n".utf8)) {
                headEnd = range.lowerBound
                let head = String(decoding: bytes[..<range.lowerBound], as: UTF8.self)
                let length =
                    head.split(separator: "\r\n").first { $0.lowercased().hasPrefix("content-length:") }
                    .flatMap { Int($0.split(separator: ":")[1].trimmingCharacters(in: .whitespaces)) } ?? 0
                expected = range.upperBound + length
            }
        }
        guard let headEnd else { return nil }
        let lines = String(decoding: bytes[..<headEnd], as: UTF8.self).split(separator: "\r\n")
        let start = lines.first?.split(separator: " ") ?? []
        guard start.count >= 2 else { return nil }
        var headers: [String: String] = [:]
        for line in lines.dropFirst() {
            guard let colon = line.firstIndex(of: ":") else { continue }
            headers[line[..<colon].lowercased()] = line[line.index(after: colon)...].trimmingCharacters(
                in: .whitespaces)
        }
        return Request(
            method: String(start[0]), path: String(start[1]), headers: headers, body: Data(bytes[(headEnd + 4)...]))
    }
}
