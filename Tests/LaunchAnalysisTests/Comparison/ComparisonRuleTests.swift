import LaunchAnalysis
import Testing

/// The comparison plan as an interleaved session's stop rule: one look per
/// stage, and the report carries the last look's decision instead of looking again.
@Suite("Comparison rule")
struct ComparisonRuleTests {
    static let plan = MeasurementPlan(
        name: "side", commandLine: ["launchprof", "compare"], command: ["app"], runs: 30, warmup: 0, mode: .warm,
        ready: .exit,
        timeoutSeconds: 20)
    static let budget = BudgetResolution(timeToFirstFrameMs: 100_000)

    /// Launches ready after `values` milliseconds (a little jitter, so ranks are untied).
    static func collected(_ values: [Double]) -> CollectedLaunches {
        CollectedLaunches(
            runs: values.enumerated().map {
                ReportOutcomeTests.run($0.offset + 1, $0.element + Double($0.offset % 5) * 0.1)
            },
            appBudget: nil, environment: ReportOutcomeTests.machine, finishedAt: "2026-11-25T10:00:00Z")
    }

    static func rule(stages: [Int]) -> ComparisonRule {
        let comparison = ComparisonPlan(name: "c", source: .interleaved, settings: GateSettings(), stages: stages)
        return ComparisonRule(plan: comparison, base: plan, head: plan, budget: budget)
    }

    @Test func aClearSlowdownStopsAtTheFirstStageAndTheReportSaysRegression() {
        var rule = Self.rule(stages: [20, 40, 60])
        let base = Self.collected(Array(repeating: 100, count: 20))
        let head = Self.collected(Array(repeating: 200, count: 20))
        let stopped = rule.stop(afterStage: 0, base: base, head: head)
        #expect(stopped)
        #expect(rule.last?.stage == 0)
        let report = rule.report(base: base, head: head, stagesRun: 1)
        #expect(report.verdict == .regression)
        #expect(report.outcome.status == .regression)
    }

    @Test func theReportReusesTheLastLookWhenTheSidesHoldTheLaunchesItSaw() {
        var rule = Self.rule(stages: [20, 40, 60])
        let base = Self.collected(Array(repeating: 100, count: 20))
        let stopped = rule.stop(afterStage: 0, base: base, head: Self.collected(Array(repeating: 200, count: 20)))
        #expect(stopped)
        // Same counts, other values: a report that looked again would find no regression; it reuses the look instead.
        let reused = rule.report(base: base, head: base, stagesRun: 1)
        #expect(reused.verdict == .regression)
        #expect(
            ComparisonReport(plan: rule.plan, base: reused.base, head: reused.head, stagesRun: 1, createdAt: "x")
                .verdict != .regression)
    }

    @Test func theReportLooksAgainWhenTheSessionEndedBetweenLooks() {
        var rule = Self.rule(stages: [20, 40, 60])
        let base = Self.collected(Array(repeating: 100, count: 20))
        let stopped = rule.stop(afterStage: 0, base: base, head: Self.collected(Array(repeating: 200, count: 20)))
        #expect(stopped)
        // Stopped by a signal with one more launch per side than the look saw: the report looks at what is there.
        let more = Self.collected(Array(repeating: 100, count: 21))
        #expect(rule.report(base: more, head: more, stagesRun: 1).verdict != .regression)
    }

    @Test func aSessionOfOneStageStopsWithoutLooking() {
        var once = StopAfterFirstStage()
        let none = Self.collected([])
        let stopped = once.stop(afterStage: 0, base: none, head: none)
        #expect(stopped)
    }
}
