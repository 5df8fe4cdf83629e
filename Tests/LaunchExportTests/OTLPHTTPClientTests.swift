import Foundation
import LaunchExport
import Testing
import _LaunchProfTestSupport

/// The POST as a collector receives it, and what the client does when the
/// collector refuses, fails, throttles or never answers.
@Suite("OTLP/HTTP client")
struct OTLPHTTPClientTests {
    func settings(_ port: UInt16, timeout: Double = 10, headers: [(name: String, value: String)] = []) throws
        -> OTLPExportSettings
    {
        OTLPExportSettings(
            endpoint: try OTLPEndpoint(baseURL: "http://127.0.0.1:\(port)"), headers: headers, timeoutSeconds: timeout)
    }

    let body = Array(#"{"resourceSpans":[]}"#.utf8)

    @Test func thePostIsJSONAtTheTracesPathWithTheHeaders() throws {
        let server = try LoopbackHTTPServer(replies: [.status(200, body: "{}")])
        defer { server.stop() }
        let delivery = try OTLPHTTPClient.post(
            body, settings: settings(server.port, headers: [("authorization", "Bearer t")]))
        #expect(delivery == OTLPDelivery(status: 200, attempts: 1))
        let request = try #require(server.requests.first)
        #expect(request.method == "POST")
        #expect(request.path == "/v1/traces")
        #expect(request.headers["content-type"] == "application/json")
        #expect(request.headers["authorization"] == "Bearer t")
        #expect(request.headers["host"] == "127.0.0.1:\(server.port)")
        #expect([UInt8](request.body) == body)
    }

    /// Every attempt is refused: all of them are made, then the refusal is reported. Short
    /// backoffs well inside a long deadline, so that a loaded machine cannot squeeze the last
    /// attempt past the deadline (that is `noRetryIsMadeThatWouldEndPastTheTimeout`'s case).
    @Test func aRefusedConnectionIsRetriedThenReported() throws {
        let port = try LoopbackHTTPServer.unusedPort()
        #expect {
            try OTLPHTTPClient.post(body, settings: settings(port, timeout: 60), firstBackoffSeconds: 0.01)
        } throws: { error in
            guard case .connectionFailed(_, let reason, let attempts)? = error as? ExportError else { return false }
            return reason.contains("refused") && attempts == OTLPHTTPClient.maxAttempts
        }
    }

    @Test func aServerErrorIsRetriedUpToTheLimitThenReported() throws {
        let server = try LoopbackHTTPServer(replies: [.status(500, body: "collector down")])
        defer { server.stop() }
        #expect(
            throws: ExportError.rejected(
                url: "http://127.0.0.1:\(server.port)/v1/traces", status: 500, body: "collector down",
                attempts: OTLPHTTPClient.maxAttempts)
        ) {
            try OTLPHTTPClient.post(body, settings: settings(server.port, timeout: 60), firstBackoffSeconds: 0.01)
        }
        #expect(server.requests.count == OTLPHTTPClient.maxAttempts)
    }

    @Test func noRetryIsMadeThatWouldEndPastTheTimeout() throws {
        let server = try LoopbackHTTPServer(replies: [.status(503)])
        defer { server.stop() }
        // Backoff of 0.5 s, then 1 s, then 2 s: the third wait cannot fit in 2 s.
        // On a loaded machine the third attempt, begun in time, may itself run out of it: that is
        // reported as a timeout after 3 attempts, which keeps the promise (no fourth).
        #expect {
            try OTLPHTTPClient.post(body, settings: settings(server.port, timeout: 2))
        } throws: { error in
            switch error as? ExportError {
            case .rejected(_, 503, _, let attempts)?:
                return (1...3).contains(attempts) && attempts == server.requests.count
            case .timedOut(_, _, let attempts)?: return attempts == 3 && server.requests.count <= 3
            default: return false
            }
        }
    }

    @Test func aClientErrorIsNotRetried() throws {
        let server = try LoopbackHTTPServer(replies: [.status(400, body: "bad span")])
        defer { server.stop() }
        #expect(
            throws: ExportError.rejected(
                url: "http://127.0.0.1:\(server.port)/v1/traces", status: 400, body: "bad span", attempts: 1)
        ) {
            try OTLPHTTPClient.post(body, settings: settings(server.port))
        }
    }

    @Test func tooManyRequestsIsRetriedAfterTheTimeAskedFor() throws {
        let server = try LoopbackHTTPServer(replies: [.status(429, headers: ["Retry-After: 1"]), .status(200)])
        defer { server.stop() }
        let delivery = try OTLPHTTPClient.post(body, settings: settings(server.port))
        #expect(delivery == OTLPDelivery(status: 200, attempts: 2))
        #expect(server.requests.count == 2)
    }

    @Test func aRetryAfterBeyondTheTimeoutIsNotWaitedFor() throws {
        let server = try LoopbackHTTPServer(replies: [.status(429, headers: ["Retry-After: 3600"])])
        defer { server.stop() }
        #expect {
            try OTLPHTTPClient.post(body, settings: settings(server.port, timeout: 5))
        } throws: { error in
            guard case .rejected(_, 429, _, 1)? = error as? ExportError else { return false }
            return true
        }
        #expect(server.requests.count == 1)
    }

    @Test func aServerThatNeverAnswersEndsAtTheTimeout() throws {
        let server = try LoopbackHTTPServer(replies: [.silence])
        defer { server.stop() }
        #expect {
            try OTLPHTTPClient.post(body, settings: settings(server.port, timeout: 1))
        } throws: { error in
            guard case .timedOut(_, 1, 1)? = error as? ExportError else { return false }
            return true
        }
    }

    @Test func aHostThatDoesNotResolveFailsWithinTheTimeout() throws {
        let settings = OTLPExportSettings(
            endpoint: try OTLPEndpoint(baseURL: "http://collector.invalid:4318"), timeoutSeconds: 1)
        #expect {
            try OTLPHTTPClient.post(body, settings: settings)
        } throws: { error in
            // A resolver that answers says the name is unknown; one that does not answer runs into the timeout.
            switch error as? ExportError {
            case .connectionFailed(_, let reason, _)?: return reason.hasPrefix("cannot resolve 'collector.invalid'")
            case .timedOut?: return true
            default: return false
            }
        }
    }
}
