import LaunchExport
import Testing

/// Where a post goes, from the options and the OpenTelemetry variables, as an
/// OpenTelemetry user expects them to be read.
@Suite("OTLP export settings")
struct OTLPExportSettingsTests {
    func resolve(
        _ endpoint: String? = nil, headers: [String] = [], timeout: String? = nil,
        env environment: [String: String] = [:]
    ) throws -> OTLPExportSettings? {
        try OTLPExportSettings.resolve(endpoint: endpoint, headers: headers, timeout: timeout, environment: environment)
    }

    @Test func nothingIsPostedWithoutAnEndpoint() throws {
        #expect(try resolve() == nil)
        #expect(
            try resolve(env: ["OTEL_EXPORTER_OTLP_ENDPOINT": "http://c:4318", "OTEL_TRACES_EXPORTER": "none"]) == nil)
    }

    @Test func theBaseEndpointGetsTheTracesPathAndTheTracesEndpointIsUsedAsItIs() throws {
        #expect(try resolve("http://collector:4318")?.endpoint.description == "http://collector:4318/v1/traces")
        #expect(try resolve("http://collector:4318/")?.endpoint.description == "http://collector:4318/v1/traces")
        #expect(
            try resolve("http://collector/otlp/v1/traces")?.endpoint.description == "http://collector:80/otlp/v1/traces"
        )
        #expect(
            try resolve(env: ["OTEL_EXPORTER_OTLP_ENDPOINT": "http://a:4318/base"])?.endpoint.path == "/base/v1/traces")
        let both = [
            "OTEL_EXPORTER_OTLP_ENDPOINT": "http://a:4318",
            "OTEL_EXPORTER_OTLP_TRACES_ENDPOINT": "http://b:9000/custom",
        ]
        #expect(try resolve(env: both)?.endpoint.description == "http://b:9000/custom")
        #expect(try resolve("http://c:1", env: both)?.endpoint.description == "http://c:1/v1/traces")
        #expect(try resolve("http://[::1]:4318")?.endpoint.host == "::1")
    }

    @Test func badEndpointsAreRefusedWithTheReason() throws {
        #expect(throws: ExportError.self) { try resolve("https://api.honeycomb.io") }
        #expect(throws: ExportError.self) { try resolve("collector:4318") }
        #expect(throws: ExportError.self) { try resolve("http://collector:99999") }
        #expect(throws: ExportError.self) { try resolve(env: ["OTEL_EXPORTER_OTLP_ENDPOINT": "grpc://x"]) }
        #expect {
            try resolve("https://api.honeycomb.io")
        } throws: { error in
            "\(error)".contains("local OpenTelemetry Collector")
        }
    }

    @Test func headersFromTheVariablesAreDecodedAndTheOptionsWin() throws {
        let settings = try resolve(
            "http://c:4318", headers: ["x-team=launch", "Authorization=Bearer opt"],
            env: [
                "OTEL_EXPORTER_OTLP_HEADERS": "authorization=Bearer%20env, x-honeycomb-dataset = launches",
                "OTEL_EXPORTER_OTLP_TRACES_HEADERS": "x-honeycomb-dataset=traces",
            ])
        let headers = try #require(settings).headers
        #expect(headers.map(\.name) == ["x-honeycomb-dataset", "x-team", "Authorization"])
        #expect(headers.map(\.value) == ["traces", "launch", "Bearer opt"])
        #expect(throws: ExportError.self) { try resolve("http://c", headers: ["no-equals"]) }
        #expect(throws: ExportError.self) { try resolve("http://c", headers: ["bad name=x"]) }
        #expect(throws: ExportError.self) { try resolve("http://c", headers: ["x=a\r\nInjected: 1"]) }
    }

    @Test func theTimeoutIsSecondsAsAnOptionAndMillisecondsAsAVariable() throws {
        #expect(try resolve("http://c")?.timeoutSeconds == 10)
        #expect(try resolve("http://c", timeout: "2.5")?.timeoutSeconds == 2.5)
        #expect(try resolve("http://c", env: ["OTEL_EXPORTER_OTLP_TIMEOUT": "3000"])?.timeoutSeconds == 3)
        #expect(
            try resolve(
                "http://c", env: ["OTEL_EXPORTER_OTLP_TIMEOUT": "3000", "OTEL_EXPORTER_OTLP_TRACES_TIMEOUT": "500"])?
                .timeoutSeconds == 0.5)
        #expect(throws: ExportError.self) { try resolve("http://c", timeout: "0") }
        #expect(throws: ExportError.self) { try resolve("http://c", env: ["OTEL_EXPORTER_OTLP_TIMEOUT": "soon"]) }
        #expect(try resolve("http://c", env: ["OTEL_SERVICE_NAME": "reader"])?.serviceName == "reader")
    }
}
