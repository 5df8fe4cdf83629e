import Foundation
import LaunchAnalysis
import LaunchReports
import Testing
import _LaunchProfTestSupport

/// Large, hexadecimal or non-finite numbers from outside — budget files, flags,
/// a measured program's trace, stored reports, OpenTelemetry variables — are
/// refused where they are read (exit 2, one line naming them) or rendered;
/// launchprof never traps on them (it did: exit 132, no report).
@Suite("extreme numbers")
struct ExtremeNumberTests {
    let scratch = ScratchDirectory("lp-numbers")

    /// Exit 2, one line on standard error containing each of `fragments`.
    func expectOneLineError(
        _ result: Executables.Result, _ fragments: [String], sourceLocation: SourceLocation = #_sourceLocation
    ) {
        #expect(result.status == 2, "exit \(result.status): \(result.stderr)", sourceLocation: sourceLocation)
        let lines = result.stderr.split(separator: "\n")
        #expect(lines.count == 1, "expected one line, got: \(result.stderr)", sourceLocation: sourceLocation)
        for fragment in fragments {
            #expect(
                result.stderr.contains(fragment), "\(result.stderr) lacks \(fragment)", sourceLocation: sourceLocation)
        }
    }

    @Test(arguments: [
        (#"{"timeToFirstFrameMs": 1e19}"#, "timeToFirstFrameMs"),
        (#"{"backgroundTimeToFirstFrameMs": 3600001}"#, "backgroundTimeToFirstFrameMs"),
        (#"{"hooks": {"didFinishLaunching": 1e300}}"#, "hooks.didFinishLaunching"),
        (#"{"spans": {"DecodeCatalog": 1e300}}"#, "spans.DecodeCatalog"),
        (#"{"minimumEffect": {"milliseconds": 1e300}}"#, "minimumEffect.milliseconds"),
        (#"{"minimumEffect": {"percent": 1e300}}"#, "minimumEffect.percent"),
    ])
    func aBudgetFileValueAboveOneHourIsRefusedNamingIt(_ json: String, _ key: String) throws {
        let budget = try scratch.write(json, to: "budget-\(key).json")
        let result = try Executables.run(
            ["measure", "--runs", "1", "--budget", budget, "--", "/bin/true"], in: scratch.url)
        expectOneLineError(result, [budget, "'\(key)'", key.hasSuffix("percent") ? "1000 percent" : "one hour"])
        #expect(!FileManager.default.fileExists(atPath: scratch.file("Reports")), "nothing is measured")
    }

    @Test func flagsTakeDecimalMillisecondsUpToOneHour() throws {
        for value in ["1e19", "0x10", "inf", "nan", "3600001", "1e300"] {
            let result = try Executables.run(
                ["measure", "--runs", "1", "--budget-ms", value, "--", "/bin/true"], in: scratch.url)
            expectOneLineError(result, ["--budget-ms", "'\(value)'"])
        }
        for (flag, value) in [
            ("--min-effect-ms", "1e300"), ("--min-effect", "1e300"), ("--min-effect", "1e300%"),
            ("--min-effect-ms", "0x10"),
        ] {
            let result = try Executables.run(
                ["compare", flag, value, "--runs", "3", "--base", "/bin/true", "--head", "/bin/true"], in: scratch.url)
            expectOneLineError(result, [flag, "'\(value)'"])
        }
        let result = try Executables.run(
            ["measure", "--runs", "1", "--timeout", "0x10", "--", "/bin/true"], in: scratch.url)
        expectOneLineError(result, ["--timeout", "'0x10'"])
    }

    /// One rule for every number an option takes: a plain decimal in a range the refusal names.
    @Test func everyNumberOptionTakesAPlainDecimalInANamedRange() throws {
        for (flag, value, range) in [
            ("--budget-ms", "1e19", "from 0.001 to 3600000"), ("--budget-ms", "1e-300", "from 0.001"),
            ("--budget-ms", "0.0000001", "from 0.001"), ("--timeout", "1e-9", "from 0.001 to 86400"),
        ] {
            let result = try Executables.run(
                ["measure", "--runs", "1", flag, value, "--", "/bin/true"], in: scratch.url)
            expectOneLineError(result, [flag, "'\(value)'", range])
        }
        let otlp = try Executables.run(
            [
                "measure", "--runs", "1", "--otlp-endpoint", "http://127.0.0.1:9", "--otlp-timeout", "1e-9", "--",
                "/bin/true",
            ], in: scratch.url)
        expectOneLineError(otlp, ["'1e-9'", "from 0.001 to 3600"])
    }

    @Test func anOTLPTimeoutAboveOneHourIsRefusedBeforeAnyLaunch() throws {
        let option = try Executables.run(
            [
                "measure", "--runs", "1", "--otlp-endpoint", "http://127.0.0.1:9", "--otlp-timeout", "99999999999",
                "--", "/bin/true",
            ],
            in: scratch.url)
        expectOneLineError(option, ["99999999999", "one hour"])
        let variable = try Executables.run(
            ["measure", "--runs", "1", "--otlp-endpoint", "http://127.0.0.1:9", "--", "/bin/true"],
            environment: ["OTEL_EXPORTER_OTLP_TIMEOUT": "999999999999999999999"], in: scratch.url)
        expectOneLineError(variable, ["999999999999999999999", "one hour"])
    }

    @Test func aTraceBudgetOutOfRangeMakesThatRunInvalidAndTheOthersAreKept() throws {
        let counter = scratch.file("count")
        let script = try scratch.write(
            """
            #!/bin/sh
            n=$(cat \(counter) 2>/dev/null || echo 0); echo $((n+1)) > \(counter)
            if [ $n = 1 ]; then exec '\(Executables.fixture)' budget-metadata '{"timeToFirstFrameMs":1e300}'; fi
            exec '\(Executables.fixture)' budget-metadata '{"timeToFirstFrameMs":900}'
            """, to: "budgeted.sh", permissions: 0o755)
        let output = scratch.url.appendingPathComponent("out")
        let result = try Executables.run(
            ["measure", "--runs", "3", "--warmup", "0", "--output", output.path, "--name", "budgeted", "--", script],
            in: scratch.url)
        #expect(result.status == 2, "\(result.stderr)")
        let report = try JSONReport.read(from: output.appendingPathComponent("budgeted.json").path)
        #expect(report.runs.map(\.status) == [.ok, .invalidTrace, .ok])
        #expect(report.runs[1].problem?.contains("timeToFirstFrameMs") == true, "\(report.runs[1].problem ?? "")")
        #expect(report.configuration.budget.timeToFirstFrameMs == 900)
    }

    /// A measurement of /bin/true written as JSON, its number at `key` of run 1 set to `value`.
    func storedReport(_ name: String, editing key: String, to value: Double) throws -> String {
        let output = scratch.url.appendingPathComponent(name)
        let result = try Executables.run(
            [
                "measure", "--runs", "5", "--warmup", "0", "--output", output.path, "--name", name, "--format", "json",
                "--", "/bin/true",
            ],
            in: scratch.url)
        #expect(result.status == 0, "\(result.stderr)")
        let path = output.appendingPathComponent("\(name).json").path
        var object = try #require(
            try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: path))) as? [String: Any])
        var runs = try #require(object["runs"] as? [[String: Any]])
        runs[0][key] = value
        object["runs"] = runs
        try JSONSerialization.data(withJSONObject: object).write(to: URL(fileURLWithPath: path))
        return path
    }

    /// Times at the top of a stored report's range (one hour: larger is refused,
    /// see `StoredReportRangeTests`) are rendered in every format and compared.
    @Test func storedReportsWithTimesOfAnHourAreRenderedAndCompared() throws {
        let base = try storedReport("base", editing: "timeToReadyMs", to: 3_600_000)
        let head = try storedReport("head", editing: "timeToExitMs", to: 3_600_000)
        for format in ReportFormat.allCases {
            let result = try Executables.run(
                ["report", base, "--format", format.rawValue, "--output", "-"], in: scratch.url)
            #expect(result.status == 0, "\(format): exit \(result.status): \(result.stderr)")
        }
        let comparison = scratch.url.appendingPathComponent("cmp")
        let compared = try Executables.run(
            [
                "compare", "--base-report", base, "--head-report", head, "--output", comparison.path, "--name", "cmp",
                "--format", "json,terminal",
            ],
            in: scratch.url)
        #expect((0...3).contains(compared.status), "exit \(compared.status): \(compared.stderr)")

        // A comparison report whose shift is an hour, given to `report` in every format.
        let path = comparison.appendingPathComponent("cmp.comparison.json").path
        let text = try String(contentsOfFile: path, encoding: .utf8)
        let edited = text.replacingOccurrences(
            of: #""shiftMs" : [-0-9.e]+"#, with: #""shiftMs" : -3600000"#, options: .regularExpression)
        #expect(edited != text, "the comparison report has a shiftMs")
        try edited.write(toFile: path, atomically: true, encoding: .utf8)
        for format in ReportFormat.allCases {
            let result = try Executables.run(
                ["report", path, "--format", format.rawValue, "--output", "-"], in: scratch.url)
            #expect((0...3).contains(result.status), "\(format): exit \(result.status): \(result.stderr)")
        }
    }
}
