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

    @Test func aStoredSpreadCarriesItsSchemaVersionAndIsRangeCheckedWhenRead() throws {
        let scratch = ScratchDirectory()
        let parsed = try Arguments(["--output", scratch.path], options: LaunchCommandOptions.table())
        let baseline = try Baseline(name: "main", options: try LaunchCommandOptions(parsed))
        try baseline.save(SessionSpread(metric: "timeToReady", sessionMediansMs: [100, 112], source: .sessions))
        let written = try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: baseline.spreadPath))) as? [String: Any])
        #expect(written["schemaVersion"] as? Int == SessionSpread.currentSchemaVersion)
        func write(_ json: String) throws { try Data(json.utf8).write(to: URL(fileURLWithPath: baseline.spreadPath)) }
        // One written before versions were reads as version 1.
        try write(#"{"kind": "session-spread", "metric": "timeToReady", "sessionMediansMs": [100, 120], "source": "sessions"}"#)
        #expect(abs((try baseline.readSpread()?.percent ?? 0) - 20) < 1e-9)
        let bad: [(json: String, says: String)] = [
            (#"{"kind": "session-spread", "schemaVersion": 2, "metric": "m", "sessionMediansMs": [1], "source": "sessions"}"#, "schemaVersion 2 is newer"),
            (#"{"kind": "session-spread", "schemaVersion": 0, "metric": "m", "sessionMediansMs": [1], "source": "sessions"}"#, "schemaVersion 0"),
            (#"{"kind": "measurement", "schemaVersion": 1, "metric": "m", "sessionMediansMs": [1], "source": "sessions"}"#, "kind is 'measurement'"),
            (#"{"kind": "session-spread", "schemaVersion": 1, "metric": "", "sessionMediansMs": [1], "source": "sessions"}"#, "names no metric"),
            (#"{"kind": "session-spread", "schemaVersion": 1, "metric": "m", "sessionMediansMs": [], "source": "sessions"}"#, "0 session medians"),
            (#"{"kind": "session-spread", "schemaVersion": 1, "metric": "m", "sessionMediansMs": [100, 1e300], "source": "sessions"}"#, "sessionMediansMs[1]"),
            (#"{"kind": "session-spread", "schemaVersion": 1, "metric": "m", "sessionMediansMs": [100], "source": "hearsay"}"#, "cannot read"),
        ]
        for (json, says) in bad {
            try write(json)
            let error = #expect(throws: UsageError.self) { try baseline.readSpread() }
            let message = error?.message ?? ""
            #expect(message.hasPrefix(baseline.spreadPath + ": ") && message.contains(says), "\(message)")
            #expect(!message.contains("\n"), "one line: \(message)")
        }
    }

    /// Under `--metric cpu` alone CPU time decides, so the drift that raises its ε is
    /// CPU time's: wall time, which swings with the load, would hide a real regression.
    @Test func theDriftOfABaselineComparisonIsOfTheMetricThatDecides() throws {
        // Wall time doubles halfway through each side (load came and went); CPU time stays within 1 %.
        let wall = (0..<20).map { $0 < 10 ? 100.0 : 200.0 }
        let cpu = (0..<20).map { 50 + Double($0 % 2) * 0.5 }
        let base = Self.measured(wall, cpuMs: cpu), head = Self.measured(wall, cpuMs: cpu)
        let wallDrift = try #require(Baseline.drift(base: base, head: head))
        #expect(wallDrift.metric == "timeToReady" && wallDrift.percent > 99)
        let cpuDrift = try #require(Baseline.drift(base: base, head: head, metrics: [.cpu]))
        #expect(cpuDrift.metric == "cpuTime" && cpuDrift.percent < 1.1, "\(cpuDrift)")
        // Beside wall time, wall time decides the drift (the primary metric comes first).
        #expect(Baseline.drift(base: base, head: head, metrics: [.wall, .cpu])?.metric == "timeToReady")
    }

    @Test func theAllowanceIsTheStoredSpreadOfTheDecidingMetricAndNoneForInstructionsAlone() throws {
        let wall = (0..<20).map { $0 < 10 ? 100.0 : 120.0 }
        let cpu = (0..<20).map { 50 + Double($0 % 2) * 0.5 }
        let base = Self.measured(wall, cpuMs: cpu), head = Self.measured(wall, cpuMs: cpu)
        let stored = SessionSpread(metric: "timeToReady", sessionMediansMs: [100, 140, 110], source: .sessions)
        var plan = ComparisonPlan(name: "c", source: .baseline, settings: GateSettings(), stages: [20])
        #expect(Baseline.allowance(stored: stored, base: base, head: head, plan: plan) == stored)
        // Of one session, it is not a between-session spread: the drift stands in.
        let one = SessionSpread(metric: "timeToReady", sessionMediansMs: [100], source: .sessions)
        #expect(Baseline.allowance(stored: one, base: base, head: head, plan: plan)?.source == .withinSessions)
        // Under --metric cpu the stored wall spread is of another metric: CPU time's own drift stands in.
        plan.metrics = [.cpu]
        #expect(Baseline.allowance(stored: stored, base: base, head: head, plan: plan)?.metric == "cpuTime")
        // Instructions alone: no time metric decides, so nothing raises ε and no warning names a drift.
        plan.metrics = [.instructions]
        #expect(Baseline.allowance(stored: stored, base: base, head: head, plan: plan) == nil)
        plan.gate = .listed([.cpuTime])
        #expect(Baseline.allowance(stored: stored, base: base, head: head, plan: plan) != nil, "a gated time metric brings it back")
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

    /// Inconclusive against a baseline because the between-session spread (30 %), not
    /// ε (5 %), had to be cleared: the reason says so and names what gates a baseline on
    /// a busy machine; with ε above the spread, or interleaved, it does not.
    @Test func anInconclusiveBaselineComparisonSaysTheSpreadHidItAndWhatToGateOn() throws {
        let baseMs = (0..<20).map { 100 + Double($0 % 5) * 0.1 }, headMs = baseMs.map { $0 * 1.2 }  // +20 %: past ε, not past the spread
        let base = Self.measured(baseMs, cpuMs: baseMs), head = Self.measured(headMs, cpuMs: headMs)
        func compared(_ source: ComparisonPlan.Source, spread: Double?, metrics: [LaunchMetric] = [.wall]) -> ComparisonReport {
            var plan = ComparisonPlan(name: "c", source: source, settings: GateSettings(), stages: [20])
            plan.settings.betweenSessionPercent = spread
            plan.metrics = metrics
            return ComparisonReport(plan: plan, base: base, head: head, stagesRun: 1, createdAt: "2026-11-26T00:00:00Z")
        }
        let hidden = compared(.baseline, spread: 30)
        #expect(hidden.outcome.status == .inconclusive)
        #expect(hidden.outcome.reason.contains("between-session spread (30.0%)"), "\(hidden.outcome.reason)")
        #expect(hidden.outcome.reason.contains("--metric cpu or --metric instructions"))
        #expect(!hidden.outcome.reason.contains("\n"))
        let quiet = ReportOutput.quietLine(.comparison(hidden), color: false)
        #expect(quiet.contains("--metric cpu") && !quiet.contains("\n"), "\(quiet)")
        // Under --metric cpu it names instructions alone.
        let cpu = compared(.baseline, spread: 30, metrics: [.cpu])
        #expect(cpu.outcome.status == .inconclusive)
        #expect(cpu.outcome.reason.contains("gate a baseline on --metric instructions,"), "\(cpu.outcome.reason)")
        // A regression that clears the spread: nothing to advise.
        #expect(compared(.baseline, spread: 10).outcome.status == .regression)
        #expect(!compared(.baseline, spread: 10).outcome.reason.contains("between-session spread"))
        #expect(!compared(.interleaved, spread: nil).outcome.reason.contains("between-session spread"))
        // Inconclusive with the spread below ε (a +5 % head, exactly ε): ε, not the spread, is what hid it.
        let atEpsilon = Self.measured(baseMs.map { $0 * 1.05 })
        var plan = ComparisonPlan(name: "c", source: .baseline, settings: GateSettings(), stages: [20])
        plan.settings.betweenSessionPercent = 3
        let belowEpsilon = ComparisonReport(plan: plan, base: base, head: atEpsilon, stagesRun: 1, createdAt: "2026-11-26T00:00:00Z")
        #expect(belowEpsilon.outcome.status == .inconclusive, "\(belowEpsilon.outcome.reason)")
        #expect(!belowEpsilon.outcome.reason.contains("between-session spread"))
    }

    /// A comparison of two identical, tight sides (a pass) from `source`.
    static func comparison(source: ComparisonPlan.Source) throws -> ComparisonReport? {
        let values = (0..<30).map { 100 + Double($0 % 5) * 0.1 }
        let base = measured(values), head = measured(values.reversed())
        let plan = ComparisonPlan(name: "c", source: source, settings: GateSettings(), stages: [30])
        return ComparisonReport(plan: plan, base: base, head: head, stagesRun: 1, createdAt: "2026-11-26T00:00:00Z")
    }

    /// A measurement of an uninstrumented program ready after `values` milliseconds.
    static func measured(_ values: [Double], cpuMs: [Double]? = nil) -> MeasurementReport {
        let plan = MeasurementPlan(
            name: "app", commandLine: ["launchprof", "measure"], command: ["app"], runs: values.count, warmup: 0,
            mode: .warm, ready: nil, timeoutSeconds: 20, ignoreFailures: false)
        let machine = MachineEnvironment(
            hostname: "ci-7", operatingSystem: "Linux 6.1 x86_64", cpuModel: "Test CPU", cpuCount: 2, clockSource: "tsc")
        var runs = values.enumerated().map { RunRecord(index: $0.offset + 1, isWarmup: false, status: .ok, timeToReadyMs: $0.element, timeToExitMs: $0.element) }
        for (index, ms) in (cpuMs ?? []).enumerated() where runs.indices.contains(index) {
            runs[index].cpuTime = CPUTime(userNanoseconds: UInt64(ms * 1e6))
        }
        let collected = CollectedLaunches(runs: runs, appBudget: nil, environment: machine, finishedAt: "2026-11-26T00:00:00Z")
        return MeasurementReport(plan: plan, collected: collected, budget: BudgetResolution(timeToFirstFrameMs: 400))
    }
}
