import Foundation
import LaunchAnalysis
import LaunchReports
import Testing
import _LaunchProfTestSupport

/// `measure --otlp-endpoint` and `export` against a collector played by a
/// loopback HTTP server: what arrives, and what a failing collector does to the
/// exit code (the report is always written first, its verdict always shown).
@Suite("export: OpenTelemetry spans")
struct OTLPExportTests {
    static let sampleData = Executables.temporaryDirectory()

    /// Measures the naive sample (over its hook budget: exit 1 on its own) with `options`.
    func measure(runs: Int = 1, warmup: Int = 0, _ options: [String], environment: [String: String] = [:]) throws
        -> (result: Executables.Result, report: MeasurementReport?, output: URL)
    {
        let output = Executables.temporaryDirectory()
        var env = environment
        env["LAUNCHPROF_SAMPLE_DIR"] = Self.sampleData.path
        let result = try Executables.run(
            [
                "measure", "--runs", "\(runs)", "--warmup", "\(warmup)", "--output", output.path, "--budget-ms",
                "100000",
                "--format", "terminal,json",
            ] + options,
            environment: env)
        let report = try? JSONReport.read(from: output.appendingPathComponent("sample-naive.json").path)
        return (result, report, output)
    }

    @Test func everySpanOfEveryRunArrivesNestedWithinItsLaunch() throws {
        let server = try LoopbackHTTPServer(replies: [.status(200, body: "{}")])
        defer { server.stop() }
        let (result, report, _) = try measure(
            runs: 2, warmup: 1,
            ["--otlp-endpoint", "http://127.0.0.1:\(server.port)", "--otlp-header", "authorization=Bearer t"],
            environment: ["OTEL_SERVICE_NAME": "reading-list", "OTEL_EXPORTER_OTLP_HEADERS": "x-team=launch%20perf"])
        let measured = try #require(report, "stderr: \(result.stderr)")
        #expect(result.status == 1, "the measurement's own verdict; stderr: \(result.stderr)")
        #expect(result.stdout.contains("FAIL"))
        let request = try #require(server.requests.first)
        #expect(server.requests.count == 1)
        #expect(request.path == "/v1/traces" && request.headers["content-type"] == "application/json")
        #expect(request.headers["authorization"] == "Bearer t" && request.headers["x-team"] == "launch perf")
        let export = try DecodedExport(request.body)
        #expect(
            result.stdout.contains(
                "sent \(export.spans.count) spans of 3 launches to http://127.0.0.1:\(server.port)/v1/traces"))

        #expect(export.resourceString("service.name") == "reading-list")
        #expect(export.resourceString("host.name") == measured.environment.hostname)
        #expect(export.resourceString("os.type") == "linux")
        #expect(export.resourceString("host.cpu.model.name") == measured.environment.cpuModel)
        #expect(export.resourceString("launchprof.mode") == "warm")
        #expect(export.traces.count == 3)
        for run in measured.runs {
            let timeline = try #require(run.timeline)
            let root = try #require(
                export.spans.first {
                    $0.parentSpanID == nil && $0.int("launchprof.run.index") == Int64(run.index)
                        && $0.bool("launchprof.run.warmup") == run.isWarmup
                })
            let spans = try #require(export.traces[root.traceID])
            let records = timeline.mainThreadSpans + timeline.otherSpans
            let app = spans.filter { $0.attributes["code.file.path"] != nil }
            #expect(app.map(\.name) == records.map(\.name), "run \(run.index)")
            #expect(
                spans.filter { $0.string("launchprof.hook") != nil }.map(\.name) == [
                    "willFinishLaunching", "didFinishLaunching",
                ])
            // Parents are spans of the same launch; times fall within it.
            let ids = Set(spans.map(\.spanID))
            #expect(
                spans.allSatisfy { $0.parentSpanID == nil ? $0.spanID == root.spanID : ids.contains($0.parentSpanID!) })
            let spawn = try #require(timeline.milestones[.spawn])
            let last = max(timeline.milestones.values.max()!, records.map(\.endNanoseconds).max() ?? 0)
            #expect(
                spans.allSatisfy {
                    $0.start >= root.start && $0.start <= $0.end && $0.end <= root.start + (last - spawn)
                })
            let anchor = try #require(run.wallClock)
            #expect(root.start == anchor.unixNanoseconds(atMonotonic: spawn))
            #expect(app.allSatisfy { $0.int("thread.id") != nil && $0.int("code.line.number") != nil })
        }
    }

    @Test func theEnvironmentsEndpointIsUsedWithoutAnOption() throws {
        let server = try LoopbackHTTPServer(replies: [.status(200)])
        defer { server.stop() }
        let (result, _, _) = try measure(
            ["--quiet"], environment: ["OTEL_EXPORTER_OTLP_ENDPOINT": "http://127.0.0.1:\(server.port)"])
        #expect(result.status == 1, "stderr: \(result.stderr)")
        #expect(server.requests.map(\.path) == ["/v1/traces"])
    }

    @Test func aRefusedConnectionExitsTwoWithTheReportWrittenAndTheVerdictShown() throws {
        let port = try LoopbackHTTPServer.unusedPort()
        let (result, report, _) = try measure(["--otlp-endpoint", "http://127.0.0.1:\(port)", "--otlp-timeout", "2"])
        #expect(result.status == 2)
        #expect(report?.outcome.exitCode.rawValue == 1, "the report keeps the measurement's own outcome")
        #expect(result.stdout.contains("FAIL"))
        // Progress lines aside, one line says why.
        let lines = result.stderr.split(separator: "\n").filter { $0.hasPrefix("launchprof:") }
        #expect(
            lines.count == 1
                && lines[0].hasPrefix(
                    "launchprof: could not send the spans to http://127.0.0.1:\(port)/v1/traces: connection refused"),
            "\(lines)")
    }

    @Test func bestEffortKeepsTheMeasurementsExitCode() throws {
        let port = try LoopbackHTTPServer.unusedPort()
        let (result, report, _) = try measure([
            "--otlp-endpoint", "http://127.0.0.1:\(port)", "--otlp-timeout", "1", "--otlp-best-effort",
        ])
        #expect(result.status == 1)
        #expect(report != nil)
        #expect(
            result.stderr.split(separator: "\n").filter { $0.hasPrefix("launchprof:") }
                .map {
                    $0.hasPrefix(
                        "launchprof: warning: could not send the spans to http://127.0.0.1:\(port)/v1/traces: connection refused"
                    )
                }
                == [true], "\(result.stderr)")
    }

    @Test func aServerErrorExitsTwoAfterItsRetries() throws {
        let server = try LoopbackHTTPServer(replies: [.status(500, body: "exporter queue full")])
        defer { server.stop() }
        let (result, report, _) = try measure([
            "--otlp-endpoint", "http://127.0.0.1:\(server.port)", "--otlp-timeout", "2",
        ])
        #expect(result.status == 2)
        #expect(report != nil && result.stdout.contains("FAIL"))
        // Retried while the backoff fits in the 2 s: as many requests as the message says.
        let attempts = server.requests.count
        #expect(attempts >= 2)
        #expect(
            result.stderr.contains("refused the spans with HTTP 500: exporter queue full (\(attempts) attempts)"),
            "\(result.stderr)")
    }

    @Test func tooManyRequestsIsRetriedAfterItsRetryAfter() throws {
        let server = try LoopbackHTTPServer(replies: [.status(429, headers: ["Retry-After: 1"]), .status(200)])
        defer { server.stop() }
        let (result, report, _) = try measure(["--otlp-endpoint", "http://127.0.0.1:\(server.port)"])
        #expect(result.status == 1, "stderr: \(result.stderr)")
        #expect(report != nil && !result.stderr.contains("launchprof:"), "\(result.stderr)")
        #expect(server.requests.count == 2)
    }

    @Test func aCollectorThatNeverAnswersEndsAtTheTimeout() throws {
        let server = try LoopbackHTTPServer(replies: [.silence])
        defer { server.stop() }
        let (result, report, _) = try measure([
            "--otlp-endpoint", "http://127.0.0.1:\(server.port)", "--otlp-timeout", "1",
        ])
        #expect(result.status == 2)
        #expect(report != nil && result.stdout.contains("FAIL"))
        #expect(
            result.stderr.contains("no answer from http://127.0.0.1:\(server.port)/v1/traces within 1 s"),
            "\(result.stderr)")
    }

    @Test func aBadEndpointIsRefusedBeforeAnyLaunch() throws {
        let (result, report, _) = try measure(["--otlp-endpoint", "https://api.honeycomb.io"])
        #expect(result.status == 2)
        #expect(report == nil)
        #expect(result.stderr.contains("https is not supported"))
    }

    @Test func exportWritesTheFileAndPostsASavedReport() throws {
        let (measured, _, output) = try measure(["--quiet"])
        #expect(measured.status == 1)
        let reportPath = output.appendingPathComponent("sample-naive.json").path
        let file = output.appendingPathComponent("launches.otlp.json").path
        let server = try LoopbackHTTPServer(replies: [.status(200)])
        defer { server.stop() }
        let result = try Executables.run([
            "export", reportPath, "--otlp", file, "--otlp-endpoint", "http://127.0.0.1:\(server.port)",
        ])
        #expect(result.status == 0, "stderr: \(result.stderr)")
        let written = try Data(contentsOf: URL(fileURLWithPath: file))
        #expect(try DecodedExport(written).traces.count == 1)
        #expect(server.requests.first?.body == written)

        // A collector that is down: the file is still written, the exit code is 2.
        try FileManager.default.removeItem(atPath: file)
        let port = try LoopbackHTTPServer.unusedPort()
        let down = try Executables.run([
            "export", reportPath, "--otlp", file, "--otlp-endpoint", "http://127.0.0.1:\(port)", "--otlp-timeout", "1",
        ])
        #expect(down.status == 2)
        #expect(FileManager.default.fileExists(atPath: file))
        #expect(down.stderr.split(separator: "\n").count == 1)

        let nowhere = try Executables.run(["export", reportPath])
        #expect(nowhere.status == 2 && nowhere.stderr.contains("--otlp FILE, --otlp-endpoint URL"))
    }
}
