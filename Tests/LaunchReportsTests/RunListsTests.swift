import LaunchAnalysis
import LaunchReports
import Testing

/// Counted, successful and failed runs: one definition each, which every
/// statistic and renderer uses.
@Suite("Run lists")
struct RunListsTests {
    static let runs = [
        RunRecord(index: 0, isWarmup: true, status: .ok, timeToReadyMs: 50),
        RunRecord(index: 0, isWarmup: true, status: .failedExit, problem: "warm-up failed", exitCode: 1),
        RunRecord(index: 1, isWarmup: false, status: .ok, timeToReadyMs: 10),
        RunRecord(index: 2, isWarmup: false, status: .failedExit, problem: "exited with status 3", exitCode: 3),
        RunRecord(index: 3, isWarmup: false, status: .ok, timeToReadyMs: 12),
    ]

    @Test func warmUpsAreNeverCountedSucceededOrFailed() {
        #expect(Self.runs.counted.map(\.index) == [1, 2, 3])
        #expect(Self.runs.successful.map(\.index) == [1, 3])
        #expect(Self.runs.failed.map(\.index) == [2])
        #expect(Self.runs[...].successful.map(\.index) == [1, 3], "any collection of runs")
    }

    @Test func theProfileTheOutcomeAndTheRenderersAgreeOnThem() throws {
        var report = try SampleReports.uninstrumented([10, nil, 12], ignoreFailures: true)
        report.runs.insert(
            RunRecord(index: 0, isWarmup: true, status: .failedExit, problem: "warm-up failed", exitCode: 1), at: 0)
        report = MeasurementReport(
            name: report.name, createdAt: report.createdAt, environment: report.environment,
            configuration: report.configuration, runs: report.runs)
        #expect(
            report.profile.runCount == report.runs.counted.count
                && report.profile.successfulRuns == report.successfulRuns.count)
        #expect(report.failedRuns.map(\.index) == [2])
        let junit = JUnitReport.render(.measurement(report))
        #expect(junit.contains("run 2: exited with status 3") && !junit.contains("warm-up failed"))
        let terminal = TerminalReport.render(.measurement(report), options: RenderOptions(color: false))
        #expect(terminal.contains("run 2: exited with status 3") && !terminal.contains("warm-up failed"))
        let html = HTMLReport.render(.measurement(report))
        #expect(html.contains("1 failed run(s)") && !html.contains("warm-up failed"))
    }
}
