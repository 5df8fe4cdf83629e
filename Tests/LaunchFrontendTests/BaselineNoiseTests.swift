import Foundation
import LaunchAnalysis
@testable import LaunchFrontend
import LaunchReports
import LaunchTracing
import Testing
import _LaunchProfTestSupport

/// A comparison against a stored baseline: the between-session spread stored
/// beside it, and the caveat `--quiet` keeps. Nothing here launches a process.
@Suite("Baseline noise")
struct BaselineNoiseTests {
    @Test func aStoredSpreadIsReadBackAndABadOneIsOneLine() throws {
        let scratch = ScratchDirectory()
        let parsed = try Arguments(["--output", scratch.path], options: LaunchCommandOptions.table())
        let baseline = try Baseline(name: "main", options: try LaunchCommandOptions(parsed))
        #expect(try baseline.readSpread() == nil)
        let spread = SessionSpread(metric: "timeToReady", sessionMediansMs: [100, 112, 104], source: .sessions)
        try baseline.save(spread)
        #expect(baseline.spreadPath.hasSuffix("/baselines/main.spread.json"))
        #expect(try baseline.readSpread() == spread)
        try Data(#"{"kind": "session-spread", "metric": "x", "sessionMediansMs": [1, -5], "source": "sessions"}"#.utf8)
            .write(to: URL(fileURLWithPath: baseline.spreadPath))
        #expect(throws: UsageError.self) { try baseline.readSpread() }
    }

    @Test func theQuietLineOfABaselineComparisonKeepsTheCaveatOnAPass() throws {
        let report = try #require(try Self.comparison(source: .baseline))
        #expect(report.outcome.status == .pass)
        let line = ReportOutput.quietLine(.comparison(report), color: false)
        #expect(line.hasPrefix("PASS"))
        #expect(line.contains(ComparisonReport.baselineCaveat))
        #expect(!line.contains("\n"))
        let interleaved = try #require(try Self.comparison(source: .interleaved))
        #expect(!ReportOutput.quietLine(.comparison(interleaved), color: false).contains("weaker evidence"))
    }

    /// A comparison of two identical, tight sides (a pass) from `source`.
    static func comparison(source: ComparisonPlan.Source) throws -> ComparisonReport? {
        let values = (0..<30).map { 100 + Double($0 % 5) * 0.1 }
        let base = measured(values), head = measured(values.reversed())
        let plan = ComparisonPlan(name: "c", source: source, settings: GateSettings(), stages: [30])
        return ComparisonReport(plan: plan, base: base, head: head, stagesRun: 1, createdAt: "2026-11-26T00:00:00Z")
    }

    /// A measurement of an uninstrumented program ready after `values` milliseconds.
    static func measured(_ values: [Double]) -> MeasurementReport {
        let plan = MeasurementPlan(
            name: "app", commandLine: ["launchprof", "measure"], command: ["app"], runs: values.count, warmup: 0,
            mode: .warm, ready: nil, timeoutSeconds: 20, ignoreFailures: false)
        let machine = MachineEnvironment(
            hostname: "ci-7", operatingSystem: "Linux 6.1 x86_64", cpuModel: "Test CPU", cpuCount: 2, clockSource: "tsc")
        let runs = values.enumerated().map { RunRecord(index: $0.offset + 1, isWarmup: false, status: .ok, timeToReadyMs: $0.element, timeToExitMs: $0.element) }
        let collected = CollectedLaunches(runs: runs, appBudget: nil, environment: machine, finishedAt: "2026-11-26T00:00:00Z")
        return MeasurementReport(plan: plan, collected: collected, budget: BudgetResolution(timeToFirstFrameMs: 400))
    }
}
