import LaunchAnalysis
import Testing

@testable import LaunchReports

/// A measurement with no budget from any source checks nothing: its banner says
/// `MEASURED`, not `PASS`, while its status and exit code stay those of a pass.
@Suite("Nothing checked")
struct NothingCheckedTests {
    static func unchecked() throws -> MeasurementReport {
        let template = try SampleReports.uninstrumented(SampleReports.around(400, 10))
        var configuration = template.configuration
        configuration.budgetSource = BudgetProvenance(origin: .none)
        return MeasurementReport(
            name: template.name, createdAt: template.createdAt, environment: template.environment,
            configuration: configuration, runs: template.runs)
    }

    @Test func theBannerSaysMeasuredAndTheStatusStaysAPass() throws {
        let report = try Self.unchecked()
        try #require(report.profile.verdict.checks.isEmpty)
        #expect(report.outcome.status == .pass)
        #expect(report.outcome.exitCode.rawValue == 0)
        let page = HTMLReport.render(.measurement(report))
        #expect(page.contains("<div class=\"verdict plain\" role=\"status\"><span class=\"word\">MEASURED</span>"))
        #expect(!page.contains("<span class=\"word\">PASS</span>"))
        #expect(page.contains("budget: <b>none</b>, nothing checked"))
        #expect(MarkdownReport.render(.measurement(report)).contains("📏 **measured** — "))
        #expect(TerminalReport.verdictLine(.measurement(report), color: false).hasPrefix("MEASURED  "))
        // With a budget, a pass is a pass.
        let checked = try SampleReports.uninstrumented(SampleReports.around(300, 10))
        #expect(HTMLReport.render(.measurement(checked)).contains("<span class=\"word\">PASS</span>"))
    }
}
