import Foundation
import LaunchAnalysis
import LaunchTracing
import Testing

/// Issue 31, item 6: a comparison that was stopped, refused or found nothing to
/// compare has no verdict, and its JSON says so (`interrupted` or `error`, as its
/// outcome), never `pass`.
@Suite("Comparison report without a verdict")
struct ComparisonReportNoVerdictTests {
    /// A side of an interleaved comparison: launches of `values` ms, stopped by `signal` or by `stop` when given.
    static func side(_ values: [Double], signal: Int32? = nil, stop: SessionStop? = nil) -> MeasurementReport {
        let plan = MeasurementPlan(
            name: "app", commandLine: ["launchprof", "compare"], command: ["app"], runs: 20, warmup: 0, mode: .warm,
            ready: nil,
            timeoutSeconds: 20)
        let collected = CollectedLaunches(
            runs: values.enumerated().map { ReportOutcomeTests.run($0.offset + 1, $0.element) }, appBudget: nil,
            environment: ReportOutcomeTests.machine, finishedAt: "2026-11-23T10:00:00Z",
            stopSignal: signal, stopSignalName: signal.map { $0 == 2 ? "INT" : "TERM" }, stop: stop)
        return MeasurementReport(plan: plan, collected: collected, budget: BudgetResolution(timeToFirstFrameMs: 10_000))
    }

    /// An interleaved comparison planned at 20 and 40 launches a side, stopped before its first look (`stagesRun` 0).
    static func stopped(_ base: MeasurementReport, _ head: MeasurementReport) -> ComparisonReport {
        let plan = ComparisonPlan(name: "c", source: .interleaved, settings: GateSettings(), stages: [20, 40])
        return ComparisonReport(plan: plan, base: base, head: head, stagesRun: 0, createdAt: "2026-11-23T10:00:00Z")
    }

    /// The top-level `verdict` as the JSON encoder writes it.
    static func encodedVerdict(_ report: ComparisonReport) throws -> String? {
        let encoder = JSONEncoder()
        encoder.nonConformingFloatEncodingStrategy = .convertToString(
            positiveInfinity: "inf", negativeInfinity: "-inf", nan: "nan")
        let object = try JSONSerialization.jsonObject(with: encoder.encode(report)) as? [String: Any]
        return object?["verdict"] as? String
    }

    @Test func aCtrlCAfterElevenLaunchesASideIsInterruptedNotAPass() throws {
        let values = ComparisonReportTests.around(100, 11)
        let report = Self.stopped(Self.side(values, signal: 2), Self.side(values, signal: 2))
        // The look at the launches made so far still finds nothing changed: the whole is not a pass for it.
        #expect(report.metrics.first?.verdict == .pass)
        #expect(report.outcome.status == .interrupted && report.outcome.exitCode.rawValue == 130)
        #expect(report.verdict == .interrupted)
        #expect(try Self.encodedVerdict(report) == "interrupted")
    }

    @Test func aSigtermIsInterruptedWithItsOwnExitCode() throws {
        let values = ComparisonReportTests.around(100, 6)
        let report = Self.stopped(Self.side(values, signal: 15), Self.side(values, signal: 15))
        #expect(report.outcome.exitCode.rawValue == 143)
        #expect(report.verdict == .interrupted)
        #expect(report.outcome.headline.hasPrefix("no verdict (interrupted): base: "))
    }

    @Test func aSideThatCouldNotLaunchMidwayIsInterruptedWithExitTwo() throws {
        let values = ComparisonReportTests.around(100, 12)
        let stop = SessionStop(
            .couldNotStart, launch: .run(13, of: 20), detail: "cannot start '/app': permission denied", side: .head)
        let report = Self.stopped(Self.side(values, stop: stop), Self.side(values, stop: stop))
        #expect(report.outcome.status == .interrupted && report.outcome.exitCode.rawValue == 2)
        #expect(report.verdict == .interrupted)
        #expect(try Self.encodedVerdict(report) == "interrupted")
    }

    @Test func failedRunsOnASideAreAnError() throws {
        let base = ComparisonReportTests.measured(ComparisonReportTests.around(100))
        let head = ComparisonReportTests.measured(ComparisonReportTests.around(100, 19).map { Optional($0) } + [nil])
        let report = ComparisonReportTests.compare(base, head)
        #expect(report.outcome.status == .failedRuns && report.outcome.exitCode.rawValue == 2)
        #expect(report.verdict == .error)
        #expect(try Self.encodedVerdict(report) == "error")
    }

    @Test func anIncomparableComparisonIsAnErrorNotAPass() throws {
        // Stratified by machine, and no machine has launches on both sides: nothing to compare.
        let base = FleetComparisonTests.measured(ComparisonReportTests.around(100), machine: "ci-a")
        let head = FleetComparisonTests.measured(ComparisonReportTests.around(100), machine: "ci-b")
        let report = FleetComparisonTests.compare(base, head)
        #expect(report.outcome.status == .incomparable && report.outcome.exitCode.rawValue == 2)
        #expect(report.verdict == .error)
        #expect(try Self.encodedVerdict(report) == "error")
        #expect(report.outcome.headline.hasPrefix("no verdict (error): "))
    }

    @Test func anAnswerKeepsTheGatedVerdictAndTheVerdictAlwaysAgreesWithTheOutcome() throws {
        let base = ComparisonReportTests.measured(ComparisonReportTests.around(100))
        let same = ComparisonReportTests.compare(
            base, ComparisonReportTests.measured(ComparisonReportTests.around(100)))
        #expect(same.verdict == .pass && same.outcome.exitCode.rawValue == 0)
        let slower = ComparisonReportTests.compare(
            base, ComparisonReportTests.measured(ComparisonReportTests.around(130)))
        #expect(slower.verdict == .regression && slower.outcome.exitCode.rawValue == 1)
        for status in ReportOutcome.Status.allCases {
            let outcome = ReportOutcome(status: status, exitCode: .error, reason: "r")
            let verdict = ComparisonVerdict(outcome: outcome, gated: .pass)
            #expect((verdict == .pass) == (status.noAnswer == nil), "\(status)")
        }
    }

    @Test func aVersionThreeReportStillReads() throws {
        let base = ComparisonReportTests.measured(ComparisonReportTests.around(100))
        let report = ComparisonReportTests.compare(
            base, ComparisonReportTests.measured(ComparisonReportTests.around(100)))
        let encoder = JSONEncoder()
        encoder.nonConformingFloatEncodingStrategy = .convertToString(
            positiveInfinity: "inf", negativeInfinity: "-inf", nan: "nan")
        var object = try #require(try JSONSerialization.jsonObject(with: encoder.encode(report)) as? [String: Any])
        #expect(object["schemaVersion"] as? Int == 4)
        object["schemaVersion"] = 3
        let decoder = JSONDecoder()
        decoder.nonConformingFloatDecodingStrategy = .convertFromString(
            positiveInfinity: "inf", negativeInfinity: "-inf", nan: "nan")
        let read = try decoder.decode(ComparisonReport.self, from: JSONSerialization.data(withJSONObject: object))
        #expect(read.schemaVersion == 3 && read.verdict == .pass)
    }
}
