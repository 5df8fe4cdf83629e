import Foundation
import Testing
import _LaunchProfTestSupport

/// A header the OTLP client writes itself, or an endpoint with a query or
/// fragment, is refused before any launch: exit 2 and one line.
@Suite("OTLP refusals")
struct OTLPRefusalTests {
    let scratch = ScratchDirectory("lp-otlp-refusal")

    func expectRefused(
        _ arguments: [String], mentions fragments: [String], sourceLocation: SourceLocation = #_sourceLocation
    ) throws {
        let result = try Executables.run(
            ["measure", "--runs", "1", "--warmup", "0"] + arguments + ["--", "/bin/true"], in: scratch.url)
        #expect(result.status == 2, "exit \(result.status): \(result.stderr)", sourceLocation: sourceLocation)
        #expect(result.stderr.split(separator: "\n").count == 1, "\(result.stderr)", sourceLocation: sourceLocation)
        for fragment in fragments {
            #expect(result.stderr.contains(fragment), "\(result.stderr)", sourceLocation: sourceLocation)
        }
        #expect(!result.stdout.contains("run 1"), sourceLocation: sourceLocation)
    }

    @Test func clientOwnedHeadersAndQueriesAreRefused() throws {
        try expectRefused(
            [
                "--otlp-endpoint", "http://127.0.0.1:9", "--otlp-header", "Host=evil.example", "--otlp-header",
                "Content-Length=5",
            ],
            mentions: ["'Host'"])
        try expectRefused(
            ["--otlp-endpoint", "http://127.0.0.1:9", "--otlp-header", "transfer-encoding=chunked"],
            mentions: ["'Transfer-Encoding'"])
        try expectRefused(
            ["--otlp-endpoint", "http://127.0.0.1:9/?q=1#f"], mentions: ["http://127.0.0.1:9/?q=1#f", "query"])
    }
}
