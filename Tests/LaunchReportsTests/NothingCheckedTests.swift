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

    /// How often `line` says "measured", in any case.
    static func measuredCount(_ line: String) -> Int {
        line.lowercased().components(separatedBy: "measured").count - 1
    }

    @Test func everyVerdictLineSaysMeasuredOnce() throws {
        let report = try Self.unchecked()
        #expect(report.outcome.reason.contains("no budget to check"))
        let terminal = TerminalReport.verdictLine(.measurement(report), color: false)
        #expect(Self.measuredCount(terminal) == 1, "\(terminal)")
        let markdown = try #require(
            MarkdownReport.render(.measurement(report)).split(separator: "\n").first { $0.contains("📏") })
        #expect(Self.measuredCount(String(markdown)) == 1, "\(markdown)")
        let page = HTMLReport.render(.measurement(report))
        let banner = try #require(page.range(of: "<div class=\"verdict plain\""))
        let bannerEnd = try #require(page.range(of: "</div>", range: banner.upperBound..<page.endIndex))
        let html = String(page[banner.lowerBound..<bannerEnd.upperBound])
        #expect(Self.measuredCount(html) == 1, "\(html)")
        #expect(html.contains("no budget to check"))
        // The full terminal report's headline too.
        let full = TerminalReport.render(report, color: false)
        let headline = try #require(full.split(separator: "\n").first { $0.hasPrefix("MEASURED") })
        #expect(Self.measuredCount(String(headline)) == 1, "\(headline)")
    }
}
