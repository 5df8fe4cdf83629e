import Foundation
import LaunchAnalysis
import Testing

/// Issue 33, findings 1 and 3: `merge` dropped every input's instruction counts and
/// silently pooled different programs (the first report's budget deciding for all).
@Suite("merge: what is pooled")
struct MergePoolingTests {
    static func measured(_ values: [Double], command: [String] = ["/bin/true"], budgetMs: Double = 10_000)
        -> MeasurementReport
    {
        var report = ReportOutcomeTests.report(values, budgetMs: budgetMs)
        report.configuration.command = command
        return report
    }

    @Test func reportsOfDifferentProgramsBudgetsOrMetricsAreRefusedUnlessPooled() throws {
        let values = ComparisonReportTests.around(100).compactMap { $0 }
        let a = Self.measured(values)
        let otherProgram = Self.measured(values, command: ["/bin/sleep", "0.05"])
        let otherBudget = Self.measured(values, budgetMs: 20)
        var counted = Self.measured(values)
        counted.countedRuns = [RunRecord(index: 1, isWarmup: false, status: .ok, timeToReadyMs: 5, timeToExitMs: 5)]
        for (other, says) in [
            (otherProgram, "different programs"), (otherBudget, "different budgets"), (counted, "different metrics"),
        ] {
            #expect {
                _ = try MeasurementReport(merging: [a, other], name: "p", createdAt: "2026-11-29T10:00:00Z")
            } throws: { error in
                "\(error)".contains(says) && "\(error)".contains("--pool")
            }
            let pooled = try MeasurementReport(
                merging: [a, other], name: "p", createdAt: "2026-11-29T10:00:00Z", poolingDifferences: true)
            #expect(pooled.profile.runCount == 2 * values.count)
        }
        // The same program, budget and metrics pool as before.
        _ = try MeasurementReport(merging: [a, Self.measured(values)], name: "p", createdAt: "2026-11-29T10:00:00Z")
    }

    @Test func everyInputsInstructionCountsAreKept() throws {
        let values = ComparisonReportTests.around(100).compactMap { $0 }
        var a = Self.measured(values)
        var b = Self.measured(values)
        a.countedRuns = [RunRecord(index: 1, isWarmup: false, status: .ok, timeToReadyMs: 5, timeToExitMs: 5)]
        b.countedRuns = [
            RunRecord(index: 1, isWarmup: false, status: .ok, timeToReadyMs: 6, timeToExitMs: 6),
            RunRecord(index: 2, isWarmup: false, status: .ok, timeToReadyMs: 7, timeToExitMs: 7),
        ]
        a.environment.machine = "runner-a"
        b.environment.machine = "runner-b"
        let pooled = try MeasurementReport(merging: [a, b], name: "p", createdAt: "2026-11-29T10:00:00Z")
        let kept = try #require(pooled.countedRuns)
        #expect(kept.map(\.timeToExitMs) == [5, 6, 7])
        #expect(kept.map(\.index) == [1, 2, 3])
        #expect(kept.map(\.machine) == ["runner-a", "runner-b", "runner-b"])
    }

    /// Finding 4: a copy of a report with its `wallClock` stamps stripped was pooled
    /// again beside the original: a run is the same when its stamp or its samples are.
    @Test func aCopyWithoutStampsIsStillTheSameRuns() throws {
        let values = ComparisonReportTests.around(100).compactMap { $0 }
        var a = Self.measured(values)
        for index in a.runs.indices {
            a.runs[index].wallClock = WallClockAnchor(
                monotonicNanoseconds: UInt64(index) * 7, unixNanoseconds: 1_800_000_000_000_000_000 + UInt64(index))
        }
        var stripped = a
        for index in stripped.runs.indices { stripped.runs[index].wallClock = nil }
        #expect(RunIdentity.firstRepeated(in: [("a.json", a), ("copy.json", stripped)]) != nil)
        // Different launches with stamps and different samples are not taken for one another.
        let other = Self.measured(values.map { $0 + 0.5 })
        #expect(RunIdentity.firstRepeated(in: [("a.json", a), ("b.json", other)]) == nil)
    }
}
