import Foundation
import LaunchAnalysis
import LaunchReports
import Testing

/// Text from the measured program cannot notify anyone or reference an issue
/// when the Markdown report is posted on GitHub.
@Suite("Markdown mentions")
struct MarkdownMentionsTests {
    static let hostile = "@octocat @org/team #1 GH-2 owner/repo#3"

    /// Every place GitHub would see a mention or a reference in `markdown`
    /// (outside code spans, where nothing links; `code` keeps their fences whole).
    func mentions(in markdown: String) throws -> [String] {
        let markdown = try NSRegularExpression(pattern: "`[^`\n]*`").stringByReplacingMatches(
            in: markdown, range: NSRange(markdown.startIndex..., in: markdown), withTemplate: "")
        let pattern = try NSRegularExpression(pattern: "@[A-Za-z0-9_-]|#[0-9]|GH-[0-9]", options: [.caseInsensitive])
        let range = NSRange(markdown.startIndex..., in: markdown)
        return pattern.matches(in: markdown, range: range).map { String(markdown[Range($0.range, in: markdown)!]) }
    }

    @Test func neutralisedTextReadsTheSameWithoutAMention() throws {
        let text = MarkdownMentions.neutralized(Self.hostile)
        let found = try mentions(in: text)
        #expect(found.isEmpty, "\(found)")
        #expect(text.unicodeScalars.filter { $0 != MarkdownMentions.joiner }.map(String.init).joined() == Self.hostile)
        #expect(MarkdownMentions.neutralized("a@ b # c") == "a@ b # c")
    }

    @Test func aMeasurementsProgramTextIsNeutralisedInMarkdown() throws {
        var report = try SampleReports.sample()
        report.name = Self.hostile
        report.profile.findings[0].span = Self.hostile
        report.profile.findings[0].recommendation = "ask \(Self.hostile)"
        report.outcome.reason = Self.hostile
        let markdown = MarkdownReport.render(.measurement(report))
        #expect(markdown.contains("octocat"))
        let found = try mentions(in: markdown)
        #expect(found.isEmpty, "\(found) in \(markdown)")
    }

    @Test func aComparisonsProgramTextIsNeutralisedInMarkdown() throws {
        let base = try SampleReports.uninstrumented(SampleReports.around(20))
        let head = try SampleReports.uninstrumented(SampleReports.around(30))
        var comparison = SampleReports.comparison(base, head)
        comparison.name = Self.hostile
        comparison.warnings.append(Self.hostile)
        let markdown = MarkdownReport.render(.comparison(comparison))
        #expect(markdown.contains("octocat"))
        let found = try mentions(in: markdown)
        #expect(found.isEmpty, "\(found) in \(markdown)")
    }
}
