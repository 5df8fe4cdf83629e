/// How a measurement (and, later, a comparison) came out: one status, the exit
/// code it means, and a one-line reason. Computed once when the report is
/// assembled; the exit code and every renderer read it.
///
/// ```swift
/// exit(report.outcome.exitCode)
/// ```
public struct ReportOutcome: Sendable, Equatable, Codable {
    /// What happened, as a stable word.
    public enum Status: String, Sendable, Hashable, Codable, CaseIterable {
        /// Every budget check passed (exit 0).
        case pass
        /// A budget check failed (exit 1).
        case overBudget = "over-budget"
        /// Runs failed: all of them, or some without `--ignore-failures` (exit 2).
        case failedRuns = "failed-runs"
        /// No counted run completed (exit 2).
        case noRuns = "no-runs"
        /// Stopped early by a signal (128 + its number) or by a launch that could
        /// not be started after others were measured (exit 2).
        case interrupted
        /// A comparison found a regression (exit 1).
        case regression
        /// A comparison could not tell (exit 3).
        case inconclusive
        /// A comparison's two sides share no metric (exit 2).
        case incomparable
    }

    /// What happened.
    public var status: Status
    /// The exit code `launchprof` ends with.
    public var exitCode: ExitCode
    /// One line saying why, for people: `timeToFirstFrame 412 ms > 400 ms (medians)`.
    public var reason: String

    /// Makes an outcome.
    public init(status: Status, exitCode: ExitCode, reason: String) {
        self.status = status
        self.exitCode = exitCode
        self.reason = reason
    }

    /// True when the command could not do its job (exit 2): its reason belongs on standard error.
    public var isError: Bool { exitCode == .error }
}

extension ReportOutcome {
    /// The outcome of a measurement, by this ladder: stopped early, no runs,
    /// every run failed, some runs failed (unless they are ignored), then the
    /// budget verdict.
    public static func of(
        profile: LaunchProfile, runs: [RunRecord], ignoreFailures: Bool,
        stopReason: String?, stopSignal: Int32?, countedRuns: [RunRecord]? = nil
    ) -> ReportOutcome {
        let counted = runs.counted
        let failed = runs.failed
        func failure(_ run: RunRecord) -> String { "run \(run.index): \(run.problemText)" }
        if let stopSignal {
            return ReportOutcome(
                status: .interrupted, exitCode: .stoppedBySignal(stopSignal),
                reason:
                    "\(stopReason ?? "stopped by signal \(stopSignal)"); the report covers the \(counted.count) run(s) before it"
            )
        }
        if let stopReason {
            return ReportOutcome(
                status: .interrupted, exitCode: .error,
                reason: "\(stopReason); the report covers the \(counted.count) run(s) before it")
        }
        if profile.runCount == 0 {
            return ReportOutcome(status: .noRuns, exitCode: .error, reason: "no counted run completed")
        }
        if profile.successfulRuns == 0 {
            return ReportOutcome(
                status: .failedRuns, exitCode: .error,
                reason: "every run failed" + (failed.first.map { " (\(failure($0)))" } ?? ""))
        }
        if let first = failed.first, !ignoreFailures {
            return ReportOutcome(
                status: .failedRuns, exitCode: .error,
                reason:
                    "\(failed.count) of \(counted.count) runs failed (\(failure(first))); --ignore-failures judges the rest"
            )
        }
        // Instructions were asked for (counted launches ran) and not one was counted: no count to report.
        if let countedRuns, !countedRuns.isEmpty, countedRuns.successful.isEmpty {
            let first = countedRuns.failed.first
            return ReportOutcome(
                status: .failedRuns, exitCode: .error,
                reason: "every counted launch failed"
                    + (first.map { " (counted \($0.index): \($0.problemText))" } ?? ""))
        }
        let verdict = profile.verdict
        if verdict.checks.isEmpty, let phase = profile.primaryPhase, let statistics = profile.statistics(phase) {
            return ReportOutcome(
                status: .pass, exitCode: .success,
                reason: "\(phase.rawValue) \(Milliseconds.text(statistics.summary.median)) (median); \(verdict.summary)"
            )
        }
        if verdict.passed {
            return ReportOutcome(status: .pass, exitCode: .success, reason: verdict.summary)
        }
        return ReportOutcome(status: .overBudget, exitCode: .gateFailed, reason: verdict.summary)
    }
}
