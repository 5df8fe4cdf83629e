import LaunchAnalysis
import LaunchMeasure
import LaunchReports
import LaunchTracing

/// Writes the measure command's reports, says what went wrong in one line, and
/// picks the exit code (DESIGN.md): 2 when a run failed (unless
/// `--ignore-failures`) or the session could not finish, 1 over budget, 0 within
/// it, 128 + the signal when stopped by one.
enum MeasureOutput {
    static func write(_ outcome: MeasureOutcome, settings: MeasureSettings) -> ExitCode {
        let report = outcome.report
        var written: [String] = []
        var writeProblem: String?
        // The JSON report first: it is the record everything else comes from.
        if settings.formats.contains("json") {
            do {
                try AtomicFile.write(Array(JSONReport.render(report)), to: settings.jsonPath)
                written.append(settings.jsonPath)
            } catch {
                writeProblem = "cannot write \(settings.jsonPath): \(error)"
            }
        }
        // What was measured is shown even when it could not be saved (then even with --quiet).
        if settings.formats.contains("terminal") && !settings.quiet || writeProblem != nil {
            print(TerminalReport.render(report, color: settings.color))
            if !written.isEmpty { print("report: " + written.joined(separator: ", ")) }
        }
        if let writeProblem {
            Terminal.standardError("launchprof: \(writeProblem)")
            return .error
        }
        if let signal = outcome.stopSignal {
            return signal == Terminal.interruptSignal ? .interrupted : .stoppedBySignal(signal)
        }
        let profile = report.profile
        let counted = report.runs.filter { !$0.isWarmup }
        let failed = counted.filter { $0.status != .ok }
        if let reason = report.stopReason {
            Terminal.standardError("launchprof: \(reason); the report covers the \(counted.count) run(s) before it")
            return .error
        }
        if profile.successfulRuns == 0 {
            let first = failed.first
            Terminal.standardError("launchprof: every run failed" + (first?.problem.map { " (run \(first!.index): \($0))" } ?? ""))
            return .error
        }
        if !failed.isEmpty, !settings.ignoreFailures {
            let first = failed[0]
            Terminal.standardError("launchprof: \(failed.count) of \(counted.count) runs failed (run \(first.index): "
                + "\(first.problem ?? first.status.rawValue)); --ignore-failures judges the rest")
            return .error
        }
        return profile.verdict.passed ? .success : .gateFailed
    }
}
