import LaunchAnalysis
import LaunchReports
import Testing

/// The outcome's word and tone are decided once, in ``ReportOutcome``: the
/// terminal, Markdown, HTML and CI annotations only draw them.
@Suite("Outcome word and tone")
struct OutcomeWordTests {
    /// `/bin/true`'s report carrying `status` as its outcome.
    func report(_ status: ReportOutcome.Status) throws -> MeasurementReport {
        var report = try SampleReports.uninstrumented([10, 11, 12])
        report.outcome = ReportOutcome(status: status, exitCode: .gateFailed, reason: "because of \(status.rawValue)")
        return report
    }

    @Test(arguments: ReportOutcome.Status.allCases)
    func everyRendererShowsTheOutcomesWordInItsTone(status: ReportOutcome.Status) throws {
        let report = try report(status)
        let outcome = report.outcome
        let colour = ["good": "\u{1B}[32;1m", "warning": "\u{1B}[33m", "bad": "\u{1B}[31;1m"][outcome.tone.rawValue]!
        // An outcome that is no answer (stopped or refused) says so before its reason.
        let said = outcome.noAnswer.map { $0.phrase + ": " } ?? ""
        let line = TerminalReport.verdictLine(.measurement(report), color: true)
        #expect(line.hasPrefix(colour + outcome.word + "\u{1B}[0m  " + said + "because of"), "\(line.debugDescription)")

        let page = HTMLReport.render(.measurement(report))
        let tone = ["good": "good", "warning": "warn", "bad": "bad"][outcome.tone.rawValue]!
        #expect(
            page.contains("<div class=\"verdict \(tone)\" role=\"status\"><span class=\"word\">\(outcome.word)</span>"))

        let markdown = MarkdownReport.render(.measurement(report))
        let mark = ["good": "✅", "warning": "⚠️", "bad": "❌"][outcome.tone.rawValue]!
        #expect(markdown.contains("\(mark) **\(status.rawValue)** — " + said + "because of"))
    }

    @Test func wordsAndTonesAreTheOnesTheReportsHaveAlwaysShown() {
        let expected: [ReportOutcome.Status: (String, ReportOutcome.Tone)] = [
            .pass: ("PASS", .good), .overBudget: ("FAIL", .bad), .failedRuns: ("FAILED RUNS", .bad),
            .noRuns: ("NO RUNS", .warning),
            .interrupted: ("STOPPED", .warning), .regression: ("REGRESSION", .bad),
            .inconclusive: ("INCONCLUSIVE", .warning),
            .incomparable: ("INCOMPARABLE", .bad),
        ]
        for status in ReportOutcome.Status.allCases {
            #expect(status.word == expected[status]?.0 && status.tone == expected[status]?.1, "\(status)")
        }
    }

    /// A failed gate is an error annotation whether a measurement or a comparison failed it.
    @Test func aFailedGateIsAnErrorAnnotationInAMeasurementAsInAComparison() throws {
        let over = try report(.overBudget)
        let annotations = GitHubAnnotations.render(.measurement(over)) { _, _ in nil }
        #expect(annotations.contains("::error title=launchprof over-budget::because of over-budget"), "\(annotations)")
        let stopped = try report(.inconclusive)
        #expect(
            GitHubAnnotations.render(.measurement(stopped)) { _, _ in nil }.contains(
                "::warning title=launchprof inconclusive::"))
    }
}
