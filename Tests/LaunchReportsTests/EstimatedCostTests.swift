import Foundation
import LaunchAnalysis
import LaunchReports
import Testing

/// A finding whose cost rests on estimated per-span usage is marked `≈` in every
/// report that shows findings: the terminal, Markdown and HTML alike.
@Suite("Estimated costs")
struct EstimatedCostTests {
    @Test func everyRendererMarksAnEstimatedCostAndOnlyThatOne() throws {
        var report = try SampleReports.sample()
        try #require(report.profile.findings.count >= 2)
        for index in report.profile.findings.indices { report.profile.findings[index].usageIsEstimated = nil }
        report.profile.findings[0].usageIsEstimated = true
        let marked = report.profile.findings[0]
        let plain = report.profile.findings[1]
        let cost = { (finding: Finding) in ms(finding.medianMs) }

        let page = HTMLReport.render(.measurement(report))
        #expect(page.contains("<span class=\"cost\">≈\(cost(marked))</span>"))
        // What ≈ means, said once on the page, in words.
        let prose = page.replacingOccurrences(
            of: "(?s)<script[^>]*>.*?</script>", with: "", options: [.regularExpression, .caseInsensitive])
        #expect(prose.components(separatedBy: "≈ marks an estimate, attributed rather than read").count - 1 == 1)
        #expect(page.contains("<span class=\"cost\">\(cost(plain))</span>"))
        #expect(!page.contains("≈\(cost(plain))</span>"))

        let markdown = MarkdownReport.render(.measurement(report))
        #expect(markdown.contains("— ≈\(cost(marked))"))
        #expect(markdown.contains("— \(cost(plain))"))

        let terminal = TerminalReport.render(report, color: false)
        #expect(terminal.contains("  ≈\(cost(marked))  "), "\(terminal)")
        #expect(terminal.contains("  \(cost(plain))  ") && !terminal.contains("≈\(cost(plain))"))
    }
}
