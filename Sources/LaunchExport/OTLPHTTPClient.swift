import LaunchAnalysis
import LaunchTracing
import _LaunchSystem

/// How a post ended when the collector took it.
public struct OTLPDelivery: Sendable, Equatable {
    /// The final HTTP status (2xx).
    public var status: Int
    /// How many requests it took (1 without a retry).
    public var attempts: Int

    /// Makes a delivery.
    public init(status: Int, attempts: Int) {
        self.status = status
        self.attempts = attempts
    }
}

/// Posts an OTLP/JSON body with HTTP/1.1 (`POST path`, `Content-Type:
/// application/json`, `Connection: close`), retrying what may pass.
///
/// A refused or broken connection, a 429 and a 5xx are tried again, up to
/// ``maxAttempts`` times, after 0.5 s, 1 s, 2 s… or after the `Retry-After`
/// seconds the collector asks for; any other status fails at once. Nothing —
/// connecting, sending, waiting for the answer, waiting to retry — goes past
/// the settings' timeout from the call: a retry that would is not made.
///
/// ```swift
/// let delivery = try OTLPHTTPClient.post(request.json(), settings: settings)
/// ```
public enum OTLPHTTPClient {
    /// The most requests one post makes.
    public static let maxAttempts = 5
    /// The wait before the first retry; it doubles each time.
    public static let firstBackoffSeconds = 0.5
    /// How much of an answer is read (the status and a short reason are all that is used).
    static let responseLimit = 65_536

    /// Posts `body` to the settings' endpoint, waiting `firstBackoffSeconds`
    /// before the first retry (doubling after each).
    ///
    /// - Throws: ``ExportError/connectionFailed(url:reason:attempts:)``,
    ///   ``ExportError/rejected(url:status:body:attempts:)`` or
    ///   ``ExportError/timedOut(url:seconds:attempts:)`` once retrying is over.
    public static func post(
        _ body: [UInt8], settings: OTLPExportSettings, firstBackoffSeconds: Double = firstBackoffSeconds
    ) throws(ExportError) -> OTLPDelivery {
        let start = Platform.monotonicNanoseconds
        let deadline = start + min(UInt64(saturating: settings.timeoutSeconds * 1e9), UInt64.max - start)
        let url = settings.endpoint.description
        let request = requestBytes(body, settings: settings)
        var backoff = firstBackoffSeconds
        var attempt = 0
        while true {
            attempt += 1
            let failure: ExportError
            var wait = backoff
            switch exchange(request, with: settings.endpoint, deadline: deadline) {
            case .timedOut:
                throw .timedOut(url: url, seconds: settings.timeoutSeconds, attempts: attempt)
            case .failed(let reason):
                failure = .connectionFailed(url: url, reason: reason, attempts: attempt)
            case .answered(let response) where (200..<300).contains(response.status):
                return OTLPDelivery(status: response.status, attempts: attempt)
            case .answered(let response):
                failure = .rejected(url: url, status: response.status, body: response.body, attempts: attempt)
                guard response.status == 429 || (500..<600).contains(response.status) else { throw failure }
                if let seconds = response.retryAfterSeconds { wait = seconds }
            }
            let now = Platform.monotonicNanoseconds
            let resume = now + min(UInt64(saturating: wait * 1e9), UInt64.max - now)
            guard attempt < maxAttempts, resume < deadline else { throw failure }
            SystemCalls.sleep(nanoseconds: UInt64(saturating: wait * 1e9))
            backoff *= 2
        }
    }

    /// The request's bytes: head, then body.
    static func requestBytes(_ body: [UInt8], settings: OTLPExportSettings) -> [UInt8] {
        let endpoint = settings.endpoint
        let host = endpoint.host.contains(":") ? "[\(endpoint.host)]" : endpoint.host
        var head =
            "POST \(endpoint.path) HTTP/1.1\r\n"
            + "Host: \(host)\(endpoint.port == 80 ? "" : ":\(endpoint.port)")\r\n"
        // User-Agent and Content-Type are defaults a header of that name replaces, never repeats;
        // the framing headers (OTLPExportSettings.clientOwnedHeaders) are refused when settings are made.
        let given = Set(settings.headers.map { $0.name.lowercased() })
        if !given.contains("user-agent") { head += "User-Agent: launchprof/\(LaunchProfVersion.string)\r\n" }
        if !given.contains("content-type") { head += "Content-Type: application/json\r\n" }
        head += "Content-Length: \(body.count)\r\n" + "Connection: close\r\n"
        for header in settings.headers { head += "\(header.name): \(header.value)\r\n" }
        head += "\r\n"
        return Array(head.utf8) + body
    }

    /// How one request went.
    enum Attempt {
        /// The collector answered (any status).
        case answered(HTTPResponse)
        /// No answer: the connection could not be made, broke, or the answer was not HTTP.
        case failed(String)
        /// The deadline passed.
        case timedOut
    }

    /// One request and its answer, on a connection of its own.
    static func exchange(_ request: [UInt8], with endpoint: OTLPEndpoint, deadline: UInt64) -> Attempt {
        do {
            let fd = try Platform.connect(host: endpoint.host, port: endpoint.port, deadline: deadline)
            defer { Platform.close(fd) }
            try Platform.send(fd, request, deadline: deadline)
            let bytes = try Platform.receive(fd, limit: responseLimit, deadline: deadline) {
                HTTPResponse.isComplete($0)
            }
            guard let response = HTTPResponse(bytes) else {
                return .failed(bytes.isEmpty ? "the connection closed without an answer" : "the answer is not HTTP")
            }
            return .answered(response)
        } catch {
            return error.timedOut ? .timedOut : .failed(error.reason)
        }
    }
}
