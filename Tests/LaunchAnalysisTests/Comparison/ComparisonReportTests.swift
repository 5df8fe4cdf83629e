import Foundation
import LaunchAnalysis
import LaunchTracing
import Testing

/// A comparison assembled from two measurements: which metrics, which verdict,
/// which outcome and exit code, and why it changed.
@Suite("Comparison report")
struct ComparisonReportTests {
    /// A measurement of an uninstrumented program whose launches took `values` milliseconds.
    static func measured(_ values: [Double?], host: String = "ci-7", budgetMs: Double = 400) -> MeasurementReport {
        var report = ReportOutcomeTests.report(values, budgetMs: budgetMs)
        report.environment.hostname = host
        // One recorded session for both sides, as an interleaved comparison's are: these tests are of the launch-level test.
        report.session = "one-session"
        return report
    }

    /// `count` values around `median` with a small deterministic spread (±2 %).
    static func around(_ median: Double, _ count: Int = 20) -> [Double] {
        (0..<count).map { median * (1 + 0.02 * sin(Double($0) * 2.399)) }
    }

    static func compare(
        _ base: MeasurementReport, _ head: MeasurementReport, gate: [String] = [], failOverBudget: Bool = false
    ) -> ComparisonReport {
        let plan = ComparisonPlan(
            name: "c", source: .storedReports, settings: GateSettings(),
            gate: (try? GatedMetrics(parsing: gate)) ?? .listed([]), stages: [20],
            failOverBudget: failOverBudget)
        return ComparisonReport(plan: plan, base: base, head: head, stagesRun: 1, createdAt: "2026-11-23T10:00:00Z")
    }

    @Test func aClearSlowdownIsARegressionWithExitOne() throws {
        let report = Self.compare(Self.measured(Self.around(100)), Self.measured(Self.around(130)))
        #expect(report.primaryMetric == "timeToReady")
        #expect(report.verdict == .regression)
        #expect(report.outcome.status == .regression)
        #expect(report.outcome.exitCode.rawValue == 1)
        #expect(report.outcome.reason.hasPrefix("regression in timeToReady: timeToReady +"))
        let primary = try #require(report.metrics.first { $0.name == "timeToReady" })
        #expect(primary.shiftPercent > 25 && primary.shiftPercent < 35)
    }

    @Test func theSameLaunchTimesPass() {
        let report = Self.compare(Self.measured(Self.around(100)), Self.measured(Self.around(100)))
        #expect(report.verdict == .pass)
        #expect(report.outcome.exitCode.rawValue == 0)
        #expect(report.outcome.reason.hasPrefix("no regression: "))
    }

    @Test func aClearSpeedUpIsAnImprovementThatPasses() {
        let report = Self.compare(Self.measured(Self.around(100)), Self.measured(Self.around(60)))
        #expect(report.verdict == .improvement)
        #expect(report.outcome.status == .pass)
        #expect(report.outcome.reason.hasPrefix("improvement: "))
    }

    /// Issue 21: three launches a side can never decide at α 0.01 (1/C(6, 3) = 1/20).
    @Test func tooFewLaunchesAreAnErrorNamingHowManyAreNeeded() {
        let report = Self.compare(Self.measured([100, 140, 90]), Self.measured([110, 150, 95]))
        #expect(report.outcome.exitCode.rawValue == 2)
        #expect(report.outcome.status == .incomparable)
        #expect(report.outcome.reason.contains("at least 5 per side"), "\(report.outcome.reason)")
        #expect(report.metrics.isEmpty)
    }

    @Test func tooLittleDataIsInconclusiveWithExitThreeAndNamesTheNoise() {
        let report = Self.compare(
            Self.measured([100, 140, 90, 120, 80, 130]), Self.measured([110, 150, 95, 125, 85, 140]))
        #expect(report.verdict == .inconclusive)
        #expect(report.outcome.status == .inconclusive)
        #expect(report.outcome.exitCode.rawValue == 3)
        #expect(report.outcome.reason.contains("the noise seen: base ±"))
    }

    @Test func aHeadOverItsBudgetFailsOnlyWhenAskedTo() {
        let base = Self.measured(Self.around(100), budgetMs: 101)
        let head = Self.measured(Self.around(102), budgetMs: 101)
        let lenient = Self.compare(base, head)
        #expect(lenient.outcome.exitCode.rawValue == 0)
        #expect(lenient.warnings.contains { $0.hasPrefix("the head is over its budget") })
        let strict = Self.compare(base, head, failOverBudget: true)
        #expect(strict.outcome.status == .overBudget)
        #expect(strict.outcome.exitCode.rawValue == 1)
    }

    @Test func failedRunsOnEitherSideFollowMeasuresContract() {
        let report = Self.compare(Self.measured(Self.around(100)), Self.measured(Self.around(100, 18) + [nil, nil]))
        #expect(report.outcome.status == .failedRuns)
        #expect(report.outcome.exitCode.rawValue == 2)
        #expect(report.outcome.reason.hasPrefix("head: 2 of 20 runs failed"))
    }

    @Test func differentMachinesAreWarnedAbout() {
        let report = Self.compare(
            Self.measured(Self.around(100), host: "a"), Self.measured(Self.around(100), host: "b"))
        #expect(report.warnings.contains { $0.contains("machine (a vs b)") })
    }

    @Test func anInstrumentedSideAndAnUninstrumentedOneShareNoMetric() throws {
        let instrumented = try MeasurementReportTests.instrumented()
        #expect(throws: ComparisonError.self) {
            try ComparisonMetrics(base: instrumented, head: Self.measured([100, 110]), gate: .listed([]))
        }
        let report = Self.compare(instrumented, Self.measured([100, 110]))
        #expect(report.outcome.status == .incomparable)
        #expect(report.outcome.exitCode.rawValue == 2)
        #expect(report.problem?.contains("instrumented") == true)
    }

    @Test func phasesAreComparedAndGatedOnRequest() throws {
        let side = try MeasurementReportTests.instrumented()
        let metrics = try ComparisonMetrics(base: side, head: side, gate: .listed([.phase(.didFinishLaunching)]))
        #expect(metrics.primary == "timeToFirstFrame")
        #expect(metrics.series.first?.name == "timeToFirstFrame")
        #expect(metrics.series.contains { $0.name == "phase:didFinishLaunching" && $0.gated })
        #expect(metrics.series.contains { $0.name == "phase:loader" && !$0.gated })
        #expect(!metrics.series.contains { $0.name == "phase:timeToReady" })
        let all = try ComparisonMetrics(base: side, head: side, gate: .all)
        #expect(all.series.allSatisfy { $0.gated })
        #expect(all.series.count <= ComparisonMetrics.most(budgetSpans: side.configuration.budget.spansMs.count))
        // The spellings are parsed once and written back unchanged.
        for spelling in ["timeToFirstFrame", "phase:didFinishLaunching", "span:DecodeCatalog"] {
            #expect(MetricID(parsing: spelling)?.description == spelling)
        }
        #expect(MetricID(parsing: "phase:nope") == nil && MetricID(parsing: "span:") == nil)
        #expect(
            try GatedMetrics(parsing: ["phase:didFinishLaunching", "all"]) == .all
                && GatedMetrics.all.spellings == ["all"])
    }

    @Test func newWorkInTheHeadIsNamedWithItsSourceLine() throws {
        var slower = TraceBuilder.launch()
        slower.span(
            "Extra", 112 * TraceBuilder.ms, 119 * TraceBuilder.ms, line: 99, category: .compute,
            cpu: 7 * TraceBuilder.ms)
        let base = try MeasurementReportTests.instrumented()
        let head = try MeasurementReportTests.instrumented(trace: slower.trace())
        let diff = FindingsDiff(base: base, head: head)
        let new = try #require(diff.new.first { $0.span == "Extra" })
        #expect(new.rule == .deferrableCPUWork)
        #expect(new.location == "App.swift:99")
        #expect(diff.spans.contains { $0.name == "Extra" && $0.baseMs == nil && $0.line == 99 })
        #expect(FindingsDiff(base: head, head: base).gone.contains { $0.span == "Extra" })
    }

    @Test func aComparisonRoundTripsThroughJSON() throws {
        let report = Self.compare(Self.measured(Self.around(100)), Self.measured(Self.around(130)))
        let encoder = JSONEncoder()
        encoder.nonConformingFloatEncodingStrategy = .convertToString(
            positiveInfinity: "inf", negativeInfinity: "-inf", nan: "nan")
        let decoder = JSONDecoder()
        decoder.nonConformingFloatDecodingStrategy = .convertFromString(
            positiveInfinity: "inf", negativeInfinity: "-inf", nan: "nan")
        let data = try encoder.encode(report)
        let same = try decoder.decode(ComparisonReport.self, from: data) == report
        #expect(same)
        let object = try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
        #expect(object["kind"] as? String == "comparison")
        let metric = try #require((object["metrics"] as? [[String: Any]])?.first)
        for key in [
            "name", "gated", "baseMs", "headMs", "shiftMs", "shiftPercent", "intervalMs", "intervalPercent",
            "mannWhitneyU", "pValue", "adjustedPValue", "verdict",
        ] {
            #expect(metric[key] != nil, "metrics[0] lacks \(key)")
        }
    }
}
