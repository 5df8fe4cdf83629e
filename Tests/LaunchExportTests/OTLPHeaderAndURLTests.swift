import LaunchExport
import Testing

/// Headers the HTTP client owns cannot be given twice over, and an endpoint's
/// query or fragment is refused rather than posted to the wrong path.
@Suite("OTLP headers and URLs")
struct OTLPHeaderAndURLTests {
    func resolve(_ endpoint: String, headers: [String] = [], env: [String: String] = [:]) throws -> OTLPExportSettings?
    {
        try OTLPExportSettings.resolve(endpoint: endpoint, headers: headers, timeout: nil, environment: env)
    }

    @Test(arguments: [
        "Host=evil.example", "Content-Length=5", "content-length=5", "TRANSFER-ENCODING=chunked",
        "Connection=keep-alive", " host =x",
    ])
    func aHeaderTheClientOwnsIsRefused(_ header: String) throws {
        #expect {
            try resolve("http://c:4318", headers: [header])
        } throws: { error in
            guard case ExportError.clientOwnedHeader(let name) = error else { return false }
            return OTLPExportSettings.clientOwnedHeaders.contains(name) && "\(error)".contains("'\(name)'")
        }
        #expect(throws: ExportError.self) {
            try resolve(
                "http://c:4318", env: ["OTEL_EXPORTER_OTLP_HEADERS": header.replacingOccurrences(of: " ", with: "")])
        }
    }

    @Test func otherHeadersKeepTheLaterWinsOverride() throws {
        let settings = try #require(
            try resolve(
                "http://c:4318", headers: ["X-Team=b", "x-team=c", "User-Agent=ci"],
                env: ["OTEL_EXPORTER_OTLP_HEADERS": "X-Team=a"]))
        #expect(settings.headers.map(\.name) == ["x-team", "User-Agent"])
        #expect(settings.headers.first?.value == "c")
    }

    @Test(arguments: [
        "http://h:4318/?q=1#f", "http://h:4318?q=1", "http://h:4318/base#f", "http://h:4318/#", "http://h/a?",
    ])
    func aQueryOrFragmentIsRefused(_ url: String) throws {
        #expect {
            try resolve(url)
        } throws: { error in
            "\(error)".contains("query") && "\(error)".contains(url)
        }
        #expect(throws: ExportError.self) { try OTLPEndpoint(url: url) }
    }

    @Test func aControlCharacterInThePathIsRefused() throws {
        #expect(throws: ExportError.self) { try OTLPEndpoint(url: "http://h:1/a\tb") }
        #expect(throws: ExportError.self) { try OTLPEndpoint(url: "http://h:1/a\u{0}b") }
        #expect(try OTLPEndpoint(url: "http://h:1/a/b").path == "/a/b")
    }
}
