import Foundation
import LaunchAnalysis
import LaunchReports
import Testing
import _LaunchProfTestSupport

/// The terminal report, checked whole against fixed input (as
/// swift-argument-parser checks its help text), and the headline each outcome gets.
@Suite("Terminal report")
struct TerminalReportTests {
    @Test("the whole report, line for line", arguments: ["measurement-v1-sample", "measurement-v1-true"])
    func golden(name: String) throws {
        let report = try JSONReport.read(from: FixtureFiles.path(name + ".json"))
        let actual = TerminalReport.render(.measurement(report), options: RenderOptions(color: false))
        // After an intended change of the report: LAUNCHPROF_UPDATE_GOLDENS=1 swift test --filter TerminalReportTests,
        // then read the fixture's diff before committing it.
        assertGolden(actual, path: FixtureFiles.path(name + ".terminal.txt"))
    }

    @Test func everyFindingIsListedWhenAskedFor() throws {
        let report = try JSONReport.read(from: FixtureFiles.path("measurement-v1-sample.json"))
        let all = TerminalReport.render(.measurement(report), options: RenderOptions(findingsLimit: .max))
        for finding in report.profile.findings { #expect(all.contains(finding.recommendation)) }
        #expect(!all.contains("more: --all"))
    }

    @Test func colourIsOnlyAddedWhenAskedFor() throws {
        let report = try JSONReport.read(from: FixtureFiles.path("measurement-v1-true.json"))
        #expect(!TerminalReport.render(.measurement(report), options: RenderOptions(color: false)).contains("\u{1B}["))
        #expect(TerminalReport.render(.measurement(report), options: RenderOptions(color: true)).contains("\u{1B}["))
    }

    /// An outcome that is no answer (stopped or refused) says so before its reason (issue 31).
    @Test(
        "the headline is the outcome's status and reason",
        arguments: [
            (ReportOutcome.Status.pass, "PASS"), (.overBudget, "FAIL"),
            (.failedRuns, "FAILED RUNS  no verdict (error):"),
            (.noRuns, "NO RUNS  no verdict (error):"), (.interrupted, "STOPPED  no verdict (interrupted):"),
            (.regression, "REGRESSION"),
            (.inconclusive, "INCONCLUSIVE"), (.incomparable, "INCOMPARABLE  no verdict (error):"),
        ])
    func headline(status: ReportOutcome.Status, word: String) throws {
        var report = try JSONReport.read(from: FixtureFiles.path("measurement-v1-true.json"))
        report.outcome = ReportOutcome(status: status, exitCode: .error, reason: "the reason given")
        let lines = TerminalReport.render(.measurement(report), options: RenderOptions()).split(separator: "\n")
        #expect(lines[1] == "\(word)  the reason given".replacingOccurrences(of: ":  ", with: ": "))
    }
}
