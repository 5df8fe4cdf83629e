import Foundation
import LaunchAnalysis
import LaunchTracing
import Testing

/// A metric with no base (a base median of 0, or new in the head) is judged on its
/// absolute value against the floor (``AbsoluteChange``), never passed on an infinite ε.
@Suite("Absolute change of a metric with no base")
struct AbsoluteChangeTests {
    static let ms = TraceBuilder.ms

    /// A launch whose willFinishLaunching takes `willFinishMs` (its first frame at 121 ms
    /// whatever it takes), with a span `Warm` of `warmMs` in didFinishLaunching when given.
    static func timeline(willFinishMs: UInt64, warmMs: UInt64? = nil) throws -> LaunchTimeline {
        var b = TraceBuilder()
        let willEnd = (10 + willFinishMs) * ms
        b.mark(.main, at: 7 * ms)
        b.mark(.willFinishLaunchingBegin, at: 10 * ms)
        b.span("willFinishLaunching", 10 * ms, willEnd, category: .harness, cpu: willFinishMs * ms)
        b.mark(.willFinishLaunchingEnd, at: willEnd)
        b.mark(.didFinishLaunchingBegin, at: willEnd)
        b.span("didFinishLaunching", willEnd, 120 * ms, category: .harness, cpu: 5 * ms)
        if let warmMs { b.span("Warm", willEnd + ms, willEnd + ms + warmMs * ms, category: .compute, cpu: warmMs * ms) }
        b.mark(.didFinishLaunchingEnd, at: 120 * ms)
        b.mark(.firstFrame, at: 121 * ms)
        return try #require(LaunchTimeline.build(from: b.trace()).first)
    }

    static func report(_ timeline: LaunchTimeline, runs: Int, budget: LaunchBudget) -> MeasurementReport {
        let records = (1...runs).map {
            RunRecord(index: $0, isWarmup: false, status: .ok, timeToReadyMs: 121, timeline: timeline)
        }
        let plan = MeasurementPlan(
            name: "app", commandLine: ["launchprof", "measure", "--", "app"], command: ["app"], runs: runs, warmup: 0,
            mode: .warm, ready: nil, timeoutSeconds: 20)
        let collected = CollectedLaunches(
            runs: records, appBudget: budget, environment: ReportOutcomeTests.machine,
            finishedAt: "2026-11-29T10:00:00Z")
        return MeasurementReport(plan: plan, collected: collected, budget: BudgetResolution(timeToFirstFrameMs: 400))
    }

    static func compare(_ base: MeasurementReport, _ head: MeasurementReport, gate: [String], runs: Int) throws
        -> ComparisonReport
    {
        let plan = ComparisonPlan(
            name: "c", source: .interleaved, settings: GateSettings(), gate: try GatedMetrics(parsing: gate),
            stages: [runs])
        return ComparisonReport(plan: plan, base: base, head: head, stagesRun: 1, createdAt: "2026-11-29T10:00:00Z")
    }

    /// 0 → 99 ms in a phase with a 50 ms hook budget: ε was infinite, so it passed (exit 0).
    @Test func aBudgetedPhaseFromZeroToNinetyNineMillisecondsIsARegression() throws {
        let budget = LaunchBudget(hooksMs: [.willFinishLaunching: 50])
        let base = Self.report(try Self.timeline(willFinishMs: 0), runs: 10, budget: budget)
        let head = Self.report(try Self.timeline(willFinishMs: 99), runs: 10, budget: budget)
        let report = try Self.compare(base, head, gate: ["phase:willFinishLaunching"], runs: 10)
        let phase = try #require(report.metrics.first { $0.name == "phase:willFinishLaunching" })
        #expect(phase.absolute?.floorMs == 5 * 50.0 / 400, "the floor: 5 ms scaled by the hook's budget share")
        #expect(phase.absolute?.above == 10)
        #expect(phase.verdict == .regression)
        #expect(abs(phase.shiftMs - 99) < 0.01 && phase.shiftPercent == .infinity)
        #expect(
            phase.intervalMs.lower > phase.absolute!.floorMs,
            "the interval agrees with the decision: \(phase.intervalMs)")
        #expect(report.outcome.exitCode.rawValue == 1, "\(report.outcome.reason)")
        // Unchanged (0 → 0): a pass, not a regression.
        let same = try Self.compare(base, base, gate: ["phase:willFinishLaunching"], runs: 10)
        #expect(same.metrics.first { $0.name == "phase:willFinishLaunching" }?.verdict == .pass)
        #expect(same.outcome.exitCode.rawValue == 0)
        // Too few launches for the sign test to reach α (2⁻⁵ > 0.01): inconclusive, never a pass.
        let few = try Self.compare(
            Self.report(try Self.timeline(willFinishMs: 0), runs: 5, budget: budget),
            Self.report(try Self.timeline(willFinishMs: 99), runs: 5, budget: budget),
            gate: ["phase:willFinishLaunching"], runs: 5)
        #expect(few.metrics.first { $0.name == "phase:willFinishLaunching" }?.verdict == .inconclusive)
        #expect(few.outcome.exitCode.rawValue == 3)
    }

    /// A budgeted span the base never ran is new work: judged on its absolute value.
    @Test func aBudgetedSpanAbsentFromTheBaseIsJudgedOnItsAbsoluteValue() throws {
        let budget = LaunchBudget(spansMs: ["Warm": 20])
        let base = Self.report(try Self.timeline(willFinishMs: 10), runs: 10, budget: budget)
        let head = Self.report(try Self.timeline(willFinishMs: 10, warmMs: 40), runs: 10, budget: budget)
        let report = try Self.compare(base, head, gate: ["span:Warm"], runs: 10)
        let span = try #require(report.metrics.first { $0.name == "span:Warm" })
        #expect(span.absolute != nil)
        #expect(span.verdict == .regression)
        #expect(report.outcome.exitCode.rawValue == 1)
    }

    @Test func theSignTestDecidesAgainstTheFloor() {
        let settings = GateSettings()
        let below = GateDecision.compare(
            [
                (
                    name: "span:New", gated: true, baseMs: [0, 0, 0, 0, 0, 0, 0, 0],
                    headMs: [0.2, 0.3, 0.1, 0.2, 0.25, 0.3, 0.2, 0.15]
                )
            ],
            settings: settings, alpha: 0.01)[0]
        #expect(below.verdict == .pass, "8 launches all below the 5 ms floor: 2⁻⁸ < 0.01")
        let newWork = GateDecision.compare(
            [(name: "span:New", gated: true, baseMs: [], headMs: [30, 31, 29, 30, 32, 30, 31, 30])], settings: settings,
            alpha: 0.01)[0]
        #expect(newWork.verdict == .regression && newWork.absolute?.floorMs == 5)
    }
}
