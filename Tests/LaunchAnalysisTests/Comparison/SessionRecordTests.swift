import Foundation
import LaunchAnalysis
import Testing

/// Sessions as reports record them: an id per report, kept per run by `merge`, never
/// inferred from equal metadata; two stored reports of different sessions are compared
/// session against session.
@Suite("Sessions in reports")
struct SessionRecordTests {
    static func measured(_ values: [Double], session: String?) -> MeasurementReport {
        var report = ReportOutcomeTests.report(values, budgetMs: 10_000)
        report.session = session
        return report
    }

    @Test func mergeKeepsEachRunsSessionAndGivesAReportWithoutOneItsOwn() throws {
        let values = ComparisonReportTests.around(100).compactMap { $0 }
        let a = Self.measured(values, session: "aaaa")
        let b = Self.measured(values, session: nil)
        let c = Self.measured(values, session: nil)
        let merged = try MeasurementReport(merging: [a, b, c], name: "pooled", createdAt: "2026-11-29T10:00:00Z")
        let sessions = merged.runs.map { merged.session(of: $0) }
        #expect(Set(sessions.prefix(values.count)) == ["aaaa"])
        let second = Set(sessions.dropFirst(values.count).prefix(values.count))
        let third = Set(sessions.suffix(values.count))
        #expect(second.count == 1 && third.count == 1 && second != third, "identical reports are still two sessions")
        #expect(!second.contains("aaaa") && second.first??.count == 16)
        // Merged again, a run keeps the session it has.
        let again = try MeasurementReport(
            merging: [merged, Self.measured(values, session: "dddd")], name: "p", createdAt: "2026-11-29T11:00:00Z")
        #expect(again.runs.prefix(merged.runs.count).map { again.session(of: $0) } == sessions)
        // Encoded and read back, the ids stay.
        let decoded = try JSONDecoder().decode(MeasurementReport.self, from: JSONEncoder().encode(again))
        #expect(decoded.runs.map { decoded.session(of: $0) } == again.runs.map { again.session(of: $0) })
        #expect(SessionID.make() != SessionID.make())
    }

    /// Two stored reports of one session each, +30 %: a regression before sessions were
    /// told apart; now inconclusive, saying why, unless a session SD is stated.
    @Test func twoStoredReportsOfDifferentSessionsAreNotJudgedLaunchByLaunch() {
        let base = Self.measured(ComparisonReportTests.around(100).compactMap { $0 }, session: "one")
        let head = Self.measured(ComparisonReportTests.around(130).compactMap { $0 }, session: "two")
        var plan = ComparisonPlan(name: "c", source: .storedReports, settings: GateSettings(), stages: [20])
        let report = ComparisonReport(
            plan: plan, base: base, head: head, stagesRun: 1, createdAt: "2026-11-29T10:00:00Z")
        #expect(report.verdict == .inconclusive)
        #expect(report.outcome.exitCode.rawValue == 3)
        #expect(
            report.primary?.summary.contains("sessions differ: no verdict") == true, "\(report.primary?.summary ?? "")")
        #expect(report.outcome.reason.contains("different sessions"))
        // More launches would not decide it, and no test was made: no such advice, no p-value shown.
        #expect(!report.outcome.reason.contains("more launches"), "\(report.outcome.reason)")
        #expect(report.primary?.verdictPValue == nil)
        plan.sessionEvidence.statedSD = log(1.03)
        let stated = ComparisonReport(
            plan: plan, base: base, head: head, stagesRun: 1, createdAt: "2026-11-29T10:00:00Z")
        #expect(stated.verdict == .regression)
        #expect(stated.warnings.contains { $0.contains("stated session SD") })
        // The same reports in one recorded session: the launch-level test, as before.
        let same = ComparisonReport(
            plan: ComparisonPlan(name: "c", source: .storedReports, settings: GateSettings(), stages: [20]),
            base: base, head: Self.measured(ComparisonReportTests.around(130).compactMap { $0 }, session: "one"),
            stagesRun: 1,
            createdAt: "2026-11-29T10:00:00Z")
        #expect(same.verdict == .regression && same.primary?.sessions == nil)
    }
}
