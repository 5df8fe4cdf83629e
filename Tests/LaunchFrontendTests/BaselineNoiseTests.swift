import Foundation
import LaunchAnalysis
import LaunchReports
import LaunchTracing
import Testing
import _LaunchProfTestSupport

@testable import LaunchFrontend

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
        let written = try #require(
            try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: baseline.spreadPath)))
                as? [String: Any])
        #expect(written["schemaVersion"] as? Int == SessionSpread.currentSchemaVersion)
        func write(_ json: String) throws { try Data(json.utf8).write(to: URL(fileURLWithPath: baseline.spreadPath)) }
        // One written before versions were reads as version 1.
        try write(
            #"{"kind": "session-spread", "metric": "timeToReady", "sessionMediansMs": [100, 120], "source": "sessions"}"#
        )
        #expect(abs((try baseline.readSpread()?.percent ?? 0) - 20) < 1e-9)
        let bad: [(json: String, says: String)] = [
            (
                #"{"kind": "session-spread", "schemaVersion": 3, "metric": "m", "sessionMediansMs": [1], "source": "sessions"}"#,
                "schemaVersion 3 is newer"
            ),
            (
                #"{"kind": "session-spread", "schemaVersion": 0, "metric": "m", "sessionMediansMs": [1], "source": "sessions"}"#,
                "schemaVersion 0"
            ),
            (
                #"{"kind": "measurement", "schemaVersion": 1, "metric": "m", "sessionMediansMs": [1], "source": "sessions"}"#,
                "kind is 'measurement'"
            ),
            (
                #"{"kind": "session-spread", "schemaVersion": 1, "metric": "", "sessionMediansMs": [1], "source": "sessions"}"#,
                "names no metric"
            ),
            (
                #"{"kind": "session-spread", "schemaVersion": 1, "metric": "m", "sessionMediansMs": [], "source": "sessions"}"#,
                "0 session medians"
            ),
            (
                #"{"kind": "session-spread", "schemaVersion": 1, "metric": "m", "sessionMediansMs": [100, 1e300], "source": "sessions"}"#,
                "sessionMediansMs[1]"
            ),
            (
                #"{"kind": "session-spread", "schemaVersion": 1, "metric": "m", "sessionMediansMs": [100], "source": "hearsay"}"#,
                "cannot read"
            ),
            // Strictly: a key twice (Python and jq read the last, the decoder the first), a number its field cannot hold.
            (
                #"{"kind": "session-spread", "schemaVersion": 1, "metric": "m", "sessionMediansMs": [1, 9], "sessionMediansMs": [100, 101], "#
                    + #""source": "sessions"}"#, "'sessionMediansMs' appears twice"
            ),
            (
                #"{"kind": "session-spread", "schemaVersion": 1.5, "metric": "m", "sessionMediansMs": [100], "source": "sessions"}"#,
                "schemaVersion: 1.5 is not a whole number from"
            ),
            (
                #"{"kind": "session-spread", "schemaVersion": 1, "metric": "m", "sessionMediansMs": [100, 1e400], "source": "sessions"}"#,
                "sessionMediansMs[1]: 1e400 is not a finite number"
            ),
        ]
        for (json, says) in bad {
            try write(json)
            let error = #expect(throws: UsageError.self) { try baseline.readSpread() }
            let message = error?.message ?? ""
            #expect(message.hasPrefix(baseline.spreadPath + ": ") && message.contains(says), "\(message)")
            #expect(!message.contains("\n"), "one line: \(message)")
            #expect(!message.contains("DecodingError") && !message.contains("Debug description"), "\(message)")
        }
    }

    /// The values are session medians of launch time (the gate takes their logarithms'
    /// variance as the session SD): zero, a subnormal or a nanosecond launch is no
    /// measurement and is refused with the field and the range; the phases and spans of
    /// a version-2 history may be 0; calibrate's and every test's spreads still read.
    @Test func aSpreadNoMeasurementGivesIsRefusedNamingTheFieldAndTheRange() throws {
        let scratch = ScratchDirectory()
        let parsed = try Arguments(["--output", scratch.path], options: LaunchCommandOptions.table())
        let baseline = try Baseline(name: "main", options: try LaunchCommandOptions(parsed))
        func write(_ json: String) throws { try Data(json.utf8).write(to: URL(fileURLWithPath: baseline.spreadPath)) }
        let whole = "a median of timeToReady, a whole launch, is from 0.001 to 3600000 ms"
        let session = { (ready: Double, loader: Double) in
            SessionSpread.StoredSession(
                session: "s",
                metrics: [
                    "timeToReady": .init(medianMs: ready, launches: 20, medianVariance: 1e-4),
                    "phase:loader": .init(medianMs: loader, launches: 20, medianVariance: 0),
                ])
        }
        var spread = SessionSpread(metric: "timeToReady", sessionMediansMs: [], source: .sessions)
        for ready in [0.9, 1.1, 1.0] { spread = spread.appending(session(ready, 0)) }
        try baseline.save(spread)
        #expect(try baseline.readSpread() == spread, "a phase too short for the clock is 0")
        for (medians, field) in [
            ("[5e-324, 11.4, 11.5]", "sessionMediansMs[0] is 5e-324"),
            ("[0, 11.4, 11.5]", "sessionMediansMs[0] is 0.0"),
            ("[3600000, 1e-6, 5]", "sessionMediansMs[1] is 1e-06"),
        ] {
            try write(
                #"{"kind": "session-spread", "metric": "timeToReady", "sessionMediansMs": "# + medians
                    + #", "source": "sessions"}"#)
            let error = #expect(throws: UsageError.self) { try baseline.readSpread() }
            #expect(
                error?.message == "\(baseline.spreadPath): not a between-session spread: \(field): \(whole)",
                "\(error?.message ?? "read")")
        }
        var tiny = spread
        tiny.history![1].metrics["phase:loader"]!.medianMs = 5e-324
        #expect(tiny.problem?.hasPrefix(#"history[1].metrics["phase:loader"].medianMs is 5e-324: "#) == true)
        var instant = spread
        instant.history![2].metrics["timeToReady"]!.medianMs = 0
        #expect(instant.problem == #"history[2].metrics["timeToReady"].medianMs is 0.0: "# + whole)
        var cpu = spread
        cpu.history![0].metrics["cpuTime"] = .init(medianMs: 1e-9, launches: 20, medianVariance: 0)
        #expect(cpu.problem?.contains("cpuTime, a whole launch") == true, "\(cpu.problem ?? "nil")")
    }

    /// A history whose sessions differ widely sets the session SD: a comparison it leaves
    /// inconclusive names the history's file and what changes it, not more launches.
    @Test func anInconclusiveComparisonNamesTheStoredHistoryThatDecidedIt() throws {
        let baseMs = (0..<20).map { 100 + Double($0 % 5) * 0.1 }
        let headMs = baseMs.map { $0 * 1.2 }
        var plan = ComparisonPlan(name: "c", source: .baseline, settings: GateSettings(), stages: [20])
        plan.sessionEvidence.history = SessionSpread(
            metric: "timeToReady", sessionMediansMs: [50, 100, 300], source: .sessions)
        plan.sessionEvidence.historyBaseline = "main"
        plan.sessionEvidence.historyPath = "baselines/main.spread.json"
        let report = ComparisonReport(
            plan: plan, base: Self.measured(baseMs), head: Self.measured(headMs), stagesRun: 1,
            createdAt: "2026-11-26T00:00:00Z")
        #expect(report.outcome.status == .inconclusive, "\(report.outcome.reason)")
        #expect(report.primary?.sessions?.source == .history)
        let reason = report.outcome.reason
        let sd = try #require(report.primary?.sessions?.sessionSDPercent)
        #expect(
            reason.hasSuffix(
                "; the between-session noise is the baseline's stored history (baselines/main.spread.json: 3 sessions, "
                    + "session SD \(Percent.text(sd, signed: false))), which more launches do not narrow: measure a new one "
                    + "with 'launchprof calibrate --rounds 5 --save-baseline main' "
                    + "(--session-sd is used only for a baseline without a history)"), "\(reason)")
        #expect(!reason.contains("a quieter machine") && !reason.contains("\n"), "\(reason)")
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

    /// Against a baseline with no history of sessions nothing estimates how far sessions
    /// differ: a +20 % head is inconclusive, not a regression, and the reason names the fix
    /// in one line; with a history of five sessions it is a regression.
    @Test func aBaselineWithNoHistoryIsInconclusiveAndSaysWhatWouldDecide() throws {
        let baseMs = (0..<20).map { 100 + Double($0 % 5) * 0.1 }
        let headMs = baseMs.map { $0 * 1.2 }
        let base = Self.measured(baseMs, cpuMs: baseMs)
        let head = Self.measured(headMs, cpuMs: headMs)
        func compared(history: SessionSpread?) -> ComparisonReport {
            var plan = ComparisonPlan(name: "c", source: .baseline, settings: GateSettings(), stages: [20])
            plan.sessionEvidence.history = history
            return ComparisonReport(plan: plan, base: base, head: head, stagesRun: 1, createdAt: "2026-11-26T00:00:00Z")
        }
        let none = compared(history: nil)
        #expect(none.outcome.status == .inconclusive)
        #expect(none.primary?.sessions?.source == SessionComparison.Source.none)
        #expect(
            none.outcome.reason.contains("different sessions") && none.outcome.reason.contains("calibrate --rounds 5"),
            "\(none.outcome.reason)")
        #expect(!none.outcome.reason.contains("\n"))
        #expect(none.warnings.contains { $0.contains("sessions differ") })
        let history = SessionSpread(
            metric: "timeToReady", sessionMediansMs: [100, 101.5, 99.2, 100.8, 99.6], source: .sessions)
        let tested = compared(history: history)
        #expect(tested.outcome.status == .regression, "\(tested.outcome.reason)")
        #expect(tested.primary?.sessions?.source == .history)
        #expect(tested.primary?.method == .studentT)
    }

    /// A comparison of two identical, tight sides (a pass) from `source`.
    static func comparison(source: ComparisonPlan.Source) throws -> ComparisonReport? {
        let values = (0..<30).map { 100 + Double($0 % 5) * 0.1 }
        let base = measured(values)
        let head = measured(values.reversed())
        var plan = ComparisonPlan(name: "c", source: source, settings: GateSettings(), stages: [30])
        plan.sessionEvidence.history = SessionSpread(
            metric: "timeToReady", sessionMediansMs: [100, 100.2, 99.9, 100.1], source: .sessions)
        return ComparisonReport(plan: plan, base: base, head: head, stagesRun: 1, createdAt: "2026-11-26T00:00:00Z")
    }

    /// A measurement of an uninstrumented program ready after `values` milliseconds.
    static func measured(_ values: [Double], cpuMs: [Double]? = nil) -> MeasurementReport {
        let plan = MeasurementPlan(
            name: "app", commandLine: ["launchprof", "measure"], command: ["app"], runs: values.count, warmup: 0,
            mode: .warm, ready: nil, timeoutSeconds: 20, ignoreFailures: false)
        let machine = MachineEnvironment(
            hostname: "ci-7", operatingSystem: "Linux 6.1 x86_64", cpuModel: "Test CPU", cpuCount: 2, clockSource: "tsc"
        )
        var runs = values.enumerated().map {
            RunRecord(
                index: $0.offset + 1, isWarmup: false, status: .ok, timeToReadyMs: $0.element, timeToExitMs: $0.element)
        }
        for (index, ms) in (cpuMs ?? []).enumerated() where runs.indices.contains(index) {
            runs[index].cpuTime = CPUTime(userNanoseconds: UInt64(ms * 1e6))
        }
        let collected = CollectedLaunches(
            runs: runs, appBudget: nil, environment: machine, finishedAt: "2026-11-26T00:00:00Z")
        return MeasurementReport(plan: plan, collected: collected, budget: BudgetResolution(timeToFirstFrameMs: 400))
    }
}
