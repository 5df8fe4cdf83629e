import LaunchAnalysis
import LaunchTracing
import Testing

/// The outcome ladder, computed once from the runs: what the exit code and
/// every renderer read.
@Suite("Report outcome")
struct ReportOutcomeTests {
    static let machine = MachineEnvironment(
        hostname: "ci-7", operatingSystem: "Linux 6.1 x86_64", cpuModel: "Test CPU", cpuCount: 2, clockSource: "tsc")

    /// A run of an uninstrumented program ready after `ms` milliseconds, or failed.
    static func run(_ index: Int, _ ms: Double?, warmup: Bool = false) -> RunRecord {
        guard let ms else {
            return RunRecord(
                index: index, isWarmup: warmup, status: .failedExit, problem: "exited with code 3", exitCode: 3)
        }
        return RunRecord(index: index, isWarmup: warmup, status: .ok, timeToReadyMs: ms, timeToExitMs: ms)
    }

    static func report(
        _ values: [Double?], budgetMs: Double = 400, ignoreFailures: Bool = false,
        stopReason: String? = nil, stopSignal: Int32? = nil, stopSignalName: String? = nil
    ) -> MeasurementReport {
        let plan = MeasurementPlan(
            name: "app", commandLine: ["launchprof", "measure"], command: ["app"], runs: values.count, warmup: 0,
            mode: .warm, ready: nil, timeoutSeconds: 20, ignoreFailures: ignoreFailures)
        let collected = CollectedLaunches(
            runs: values.enumerated().map { run($0.offset + 1, $0.element) }, appBudget: nil, environment: machine,
            finishedAt: "2026-11-23T10:00:00Z", stopReason: stopReason, stopSignal: stopSignal,
            stopSignalName: stopSignalName)
        return MeasurementReport(
            plan: plan, collected: collected, budget: BudgetResolution(timeToFirstFrameMs: budgetMs))
    }

    @Test func withinBudgetPasses() {
        let outcome = Self.report([100, 110, 120]).outcome
        #expect(outcome.status == .pass)
        #expect(outcome.exitCode.rawValue == 0)
        #expect(outcome.reason == "timeToReady 110 ms (median) within budget 400 ms")
        #expect(!outcome.isError)
    }

    @Test func overBudgetFailsTheGate() {
        let outcome = Self.report([100, 110, 120], budgetMs: 100).outcome
        #expect(outcome.status == .overBudget)
        #expect(outcome.exitCode.rawValue == 1)
        #expect(outcome.reason == "timeToReady 110 ms > 100 ms (medians)")
    }

    @Test func failedRunsAreAnErrorUnlessIgnored() {
        let failed = Self.report([100, nil, 120, nil]).outcome
        #expect(failed.status == .failedRuns)
        #expect(failed.exitCode.rawValue == 2)
        #expect(failed.isError)
        #expect(failed.reason == "2 of 4 runs failed (run 2: exited with code 3); --ignore-failures judges the rest")
        let ignored = Self.report([100, nil, 120, nil], ignoreFailures: true).outcome
        #expect(ignored.status == .pass)
        #expect(ignored.exitCode.rawValue == 0)
    }

    @Test func everyRunFailing() {
        let outcome = Self.report([nil, nil], ignoreFailures: true).outcome
        #expect(outcome.status == .failedRuns)
        #expect(outcome.exitCode.rawValue == 2)
        #expect(outcome.reason == "every run failed (run 1: exited with code 3)")
    }

    @Test func noRuns() {
        let outcome = Self.report([]).outcome
        #expect(outcome.status == .noRuns)
        #expect(outcome.exitCode.rawValue == 2)
    }

    @Test func aStopSignalWinsAndGivesOneHundredTwentyEightPlusItsNumber() {
        let outcome = Self.report([100], stopSignal: 2, stopSignalName: "INT").outcome
        #expect(outcome.status == .interrupted)
        #expect(outcome.exitCode.rawValue == 130)
        #expect(outcome.reason == "stopped by SIGINT; the report covers the 1 run(s) before it")
        #expect(Self.report([100], stopSignal: 15, stopSignalName: "TERM").outcome.exitCode.rawValue == 143)
        #expect(!outcome.isError)
    }

    @Test func aLaunchThatCouldNotStartMidwayIsAnError() {
        let outcome = Self.report([100, 120], stopReason: "run 3 of 6 could not be started: no such program").outcome
        #expect(outcome.status == .interrupted)
        #expect(outcome.exitCode.rawValue == 2)
        #expect(outcome.reason.hasPrefix("run 3 of 6 could not be started"))
    }

    @Test func exitCodesMapBothWays() {
        for code in [ExitCode.success, .gateFailed, .error, .inconclusive, .stoppedBySignal(2), .stoppedBySignal(15)] {
            #expect(ExitCode(rawValue: code.rawValue) == code)
        }
        #expect(ExitCode.stoppedBySignal(2).rawValue == 130)
    }
}
