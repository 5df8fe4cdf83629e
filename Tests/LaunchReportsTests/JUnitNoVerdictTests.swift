import Foundation
import LaunchAnalysis
import LaunchReports
import Testing

/// Issue 31, item 6: a measurement or comparison that was stopped or refused is
/// written as such in JUnit, Markdown, the terminal, HTML and GitHub annotations:
/// an `<error>` case and no green one, "no verdict (interrupted)" or "(error)".
@Suite("JUnit and every renderer without a verdict")
struct JUnitNoVerdictTests {
    /// `/bin/true`'s report of `values` ms, stopped by `signal` (2 SIGINT, 15 SIGTERM) when given.
    static func measured(_ values: [Double?], signal: Int32? = nil, name: String = "true-v1") throws
        -> MeasurementReport
    {
        let template = try SampleReports.uninstrumented(values, name: name)
        return MeasurementReport(
            name: name, createdAt: template.createdAt, environment: template.environment,
            configuration: template.configuration,
            runs: template.runs, stopSignal: signal)
    }

    /// An interleaved comparison of `values` a side, both sides stopped by `signal` before the first look.
    static func stoppedComparison(_ values: [Double?], signal: Int32) throws -> ComparisonReport {
        let plan = ComparisonPlan(name: "pr-42", source: .interleaved, settings: GateSettings(), stages: [20, 40])
        return ComparisonReport(
            plan: plan, base: try measured(values, signal: signal, name: "base"),
            head: try measured(values, signal: signal, name: "head"),
            stagesRun: 0, createdAt: "2026-11-23T10:00:00Z")
    }

    /// Every test case of the one suite, with the element of its result (nil for a green case).
    static func cases(_ xml: String) throws -> [(name: String, result: JUnitReportTests.Element?)] {
        let root = try JUnitReportTests.parse(xml)
        let suite = try #require(root.first("testsuite"))
        return suite.all("testcase").map { test in
            (test.attributes["name"] ?? "", test.children.first { ["failure", "error", "skipped"].contains($0.name) })
        }
    }

    @Test func aComparisonStoppedByCtrlCIsAnErrorCaseAndNoGreenOne() throws {
        let report = try Self.stoppedComparison(SampleReports.around(100, 11), signal: 2)
        #expect(report.verdict == .interrupted && report.outcome.exitCode.rawValue == 130)
        let xml = JUnitReport.render(.comparison(report))
        let root = try JUnitReportTests.parse(xml)
        #expect(root.attributes["errors"] == "1", "\(xml)")
        let cases = try Self.cases(xml)
        #expect(cases.count >= 2, "\(xml)")
        #expect(cases.allSatisfy { $0.result != nil }, "a green case: \(xml)")
        let runs = try #require(cases.first { $0.name == "runs" }?.result)
        #expect(runs.name == "error" && runs.attributes["type"] == "interrupted")
        let metric = try #require(cases.first { $0.name == report.primaryMetric }?.result)
        #expect(metric.name == "skipped" && metric.attributes["type"] == "interrupted")
        #expect(metric.attributes["message"]?.hasPrefix("not judged (interrupted): ") == true)
    }

    @Test func aMeasurementStoppedBySigtermIsAnErrorCaseAndNoGreenOne() throws {
        let report = try Self.measured(SampleReports.around(100, 4), signal: 15)
        #expect(report.outcome.exitCode.rawValue == 143)
        let xml = JUnitReport.render(.measurement(report))
        let root = try JUnitReportTests.parse(xml)
        #expect(root.attributes["errors"] == "1" && root.attributes["failures"] == "0", "\(xml)")
        let cases = try Self.cases(xml)
        #expect(cases.allSatisfy { $0.result != nil }, "a green case: \(xml)")
        #expect(cases.first { $0.name == "runs" }?.result?.name == "error")
    }

    @Test func anIncomparableComparisonIsAnErrorCase() throws {
        let base = try SampleReports.uninstrumented(SampleReports.around(100))
        var head = try SampleReports.uninstrumented(SampleReports.around(100))
        head.environment.machine = "another"
        let plan = ComparisonPlan(
            name: "pr-42", source: .storedReports, settings: GateSettings(), stages: [20], stratifyByMachine: true)
        let report = ComparisonReport(
            plan: plan, base: base, head: head, stagesRun: 1, createdAt: "2026-11-23T10:00:00Z")
        #expect(report.outcome.status == .incomparable && report.verdict == .error)
        let cases = try Self.cases(JUnitReport.render(.comparison(report)))
        #expect(cases.allSatisfy { $0.result != nil })
        #expect(cases.first { $0.name == "runs" }?.result?.name == "error")
    }

    @Test func markdownTerminalHTMLAndAnnotationsSayNoVerdict() throws {
        let report = try Self.stoppedComparison(SampleReports.around(100, 11), signal: 2)
        let document = ReportDocument.comparison(report)

        let markdown = MarkdownReport.render(document)
        #expect(markdown.contains("⚠️ **interrupted** — no verdict (interrupted): base: "), "\(markdown)")
        #expect(markdown.contains("| _not judged (interrupted)_ |"), "\(markdown)")
        #expect(!markdown.contains("| ~ |"), "\(markdown)")

        let terminal = ComparisonTerminalReport.render(report, color: false)
        #expect(terminal.contains("STOPPED  no verdict (interrupted): base: "), "\(terminal)")
        #expect(terminal.contains("not judged (interrupted)"), "\(terminal)")
        #expect(TerminalReport.verdictLine(document, color: false).hasPrefix("STOPPED  no verdict (interrupted)"))

        let page = HTMLReport.render(document)
        #expect(page.contains("<span class=\"reason\">no verdict (interrupted): "))
        #expect(page.contains("<span class=\"warn\">not judged (interrupted)</span>"))

        let annotations = GitHubAnnotations.render(document) { _, _ in nil }
        #expect(
            annotations.contains("::error title=launchprof compare%3A interrupted::no verdict (interrupted): base: "),
            "\(annotations)")
        let measurement = try Self.measured(SampleReports.around(100, 4), signal: 15)
        #expect(
            GitHubAnnotations.render(.measurement(measurement)) { _, _ in nil }
                .contains("::error title=launchprof interrupted::no verdict (interrupted): "))
    }
}
