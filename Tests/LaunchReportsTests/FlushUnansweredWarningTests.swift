import LaunchAnalysis
import LaunchReports
import Testing

/// A launch whose tracer never answered launchprof's flush request has no spans; the
/// terminal report says so in one warning naming the first such run.
@Suite("Terminal report: a flush request left unanswered")
struct FlushUnansweredWarningTests {
    @Test func oneWarningNamesTheRunEndedWithoutItsTrace() throws {
        let sample = try SampleReports.sample()
        var runs = sample.runs
        let flagged = try #require(runs.indices.first { !runs[$0].isWarmup })
        runs[flagged].flushUnanswered = true
        let report = TextDefectTests.remade(sample, runs: runs)
        let terminal = TerminalReport.render(.measurement(report), options: RenderOptions(color: false))
        let lines = terminal.split(separator: "\n").filter { $0.contains("ended without their trace") }
        #expect(
            lines == [
                "warning: 1 launch(es) ended without their trace: the tracer did not answer launchprof's request "
                    + "to write it within 5 s (run \(runs[flagged].index)); their spans are not in the report"
            ], "\(terminal)")
        let plain = TerminalReport.render(.measurement(sample), options: RenderOptions(color: false))
        #expect(!plain.contains("ended without their trace"))
    }
}
