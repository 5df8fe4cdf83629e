import LaunchAnalysis
import LaunchTracing

/// The summary a person reads in ten seconds: verdict first, then the phase
/// table (median, p90, budget), then the top findings.
public enum TerminalReport {
    /// Renders `document` as text for a terminal.
    public static func render(_ document: ReportDocument, options: RenderOptions) -> String {
        switch document {
        case .measurement(let report): return render(report, color: options.color, findings: options.findingsLimit)
        case .comparison(let report): return ComparisonTerminalReport.render(report, color: options.color)
        }
    }

    /// Renders `report`; `color` adds ANSI colours. `limit` findings are listed;
    /// with no limit (`.max`, `--all`) each comes with its span's own time split
    /// (CPU, waiting for a CPU, blocked by kind).
    public static func render(_ report: MeasurementReport, color: Bool, findings limit: Int = 5) -> String {
        let style = Style(enabled: color)
        let profile = report.profile
        let outcome = report.outcome
        var lines: [String] = []
        let config = report.configuration
        lines.append(
            style.bold("launchprof measure — \(text(report.name))")
                + style.dim(
                    "  \(profile.successfulRuns)/\(profile.runCount) runs ok"
                        + (report.interrupted && profile.runCount < config.runs ? " (of \(config.runs) planned)" : "")
                        + ", \(config.mode.rawValue), ready: \(text(report.readyLabel))"
                        + (config.warmup > 0 ? ", \(config.warmup) warm-up" : "")))

        // The outcome first; then the budget verdict over the runs that succeeded,
        // when the outcome is about something else.
        lines.append(headline(outcome, style: style, nothingChecked: NothingChecked.applies(to: report)))
        let failedRuns = profile.runCount - profile.successfulRuns
        let judged = outcome.status == .pass || outcome.status == .overBudget
        if failedRuns > 0, profile.successfulRuns > 0, judged {
            lines.append(
                style.red("FAILED RUNS") + "  \(failedRuns) of \(profile.runCount) runs failed (see below); "
                    + "the verdict covers the \(profile.successfulRuns) that succeeded")
        }
        if !judged, profile.successfulRuns > 0 {
            let verdict = profile.verdict
            lines.append(
                (verdict.passed ? style.green("budget") : style.red("budget"))
                    + "  \(text(verdict.summary)), over the \(profile.successfulRuns) run(s) that succeeded")
        }
        for warning in profile.warnings ?? [] { lines.append(style.yellow("warning: ") + text(warning)) }
        let leftovers = report.runs.filter { ($0.leftoverProcesses ?? 0) > 0 }
        if let first = leftovers.first {
            lines.append(
                style.yellow("warning: ")
                    + "\(leftovers.count) launch(es) left processes running outside their process group "
                    + "(\(first.isWarmup ? "a warm-up" : "run \(first.index)"): \(first.leftoverProcesses!)); launchprof ended them"
            )
        }
        let cutOff = report.runs.filter { $0.childrenCutOff == true }
        if let first = cutOff.first {
            lines.append(
                style.yellow("warning: ")
                    + "\(cutOff.count) launch(es) exited leaving processes still running at the timeout "
                    + "(\(first.isWarmup ? "a warm-up" : "run \(first.index)")); launchprof ended them there and their later work is not counted"
            )
        }
        let unanswered = report.runs.filter { $0.flushUnanswered == true }
        if let first = unanswered.first {
            lines.append(
                style.yellow("warning: ")
                    + "\(unanswered.count) launch(es) ended without their trace: the tracer did not answer launchprof's "
                    + "request to write it within \(LaunchDiagnosis.seconds(LaunchContract.flushWaitSeconds)) s "
                    + "(\(first.isWarmup ? "a warm-up" : "run \(first.index)")); their spans are not in the report"
            )
        }
        lines.append("")

        // Phases.
        if !profile.phases.isEmpty {
            let budgets = Dictionary(profile.verdict.checks.map { ($0.subject, $0) }, uniquingKeysWith: { a, _ in a })
            let counted = profile.instructions
            var rows: [[String]] = [
                ["phase", "median", "p90", "95% CI of median", "budget", ""]
                    + (counted == nil ? [] : [InstructionText.column])
            ]
            // For an instrumented program the ready and exit times repeat the frame
            // and include the trace flush; they stay in the JSON report.
            let readyIsFrame = config.ready == .firstFrame
            // With `--ready exit`, timeToExit repeats timeToReady exactly.
            let exitRepeatsReady = profile.statistics(.timeToReady)?.summary == profile.statistics(.timeToExit)?.summary
            let shown = profile.phases.filter {
                !(profile.isInstrumented && readyIsFrame && ($0.phase == .timeToReady || $0.phase == .timeToExit))
                    && !($0.phase == .timeToExit && exitRepeatsReady)
            }
            for statistics in shown {
                let s = statistics.summary
                let check = budgets[.phase(statistics.phase)]
                rows.append(
                    [
                        statistics.phase.rawValue, ms(s.median), ms(s.p90), interval(s),
                        check.map { ms($0.budgetMs) } ?? "",
                        check.map { $0.passed ? style.green("ok") : style.red("over") } ?? "",
                    ] + (counted.map { [InstructionText.cell($0, phase: statistics.phase)] } ?? []))
            }
            if let cpu = profile.cpuTime {
                rows.append(
                    [CPUTimeText.label, ms(cpu.total.median), ms(cpu.total.p90), interval(cpu.total), "", ""]
                        + (counted.map { [InstructionText.cell($0, phase: nil)] } ?? []))
            }
            lines += style.table(rows, rightAligned: counted == nil ? [1, 2, 3, 4] : [1, 2, 3, 4, 6])
            if let cpu = profile.cpuTime { lines.append(style.dim("   " + CPUTimeText.split(cpu))) }
            if let level = shown.map(\.summary.medianConfidenceLevel).min(), level < 0.95 {
                lines.append(
                    style.dim(
                        "   with fewer than 6 runs no interval reaches 95%: the range is shown, with the level it reaches"
                    ))
            }
            // Warnings about the totals and the hooks; the JSON has them for every phase.
            let warned = shown.filter {
                $0.phase.isTotal || $0.phase == .willFinishLaunching || $0.phase == .didFinishLaunching
            }
            let warnings = warned.flatMap { statistics in
                statistics.warnings.map { "\(statistics.phase.rawValue): \(describe($0, warmup: config.warmup))" }
                    + (statistics.outlierRuns.isEmpty
                        ? []
                        : [
                            "\(statistics.phase.rawValue): \(statistics.outlierRuns.count) outlier run(s) (modified z-score > 3.5; \(RunList.text(statistics.outlierRuns))), kept"
                        ])
            }
            for warning in warnings.prefix(4) { lines.append(style.yellow("warning: ") + warning) }
            lines.append("")
        }

        // Instruction counts, when the launches were counted.
        if let instructions = profile.instructions {
            lines.append(style.bold("instructions") + style.dim(" (counted under callgrind)"))
            lines.append("  " + text(InstructionText.headline(instructions)))
            if let cost = InstructionText.cost(report) { lines.append(style.dim("  " + cost)) }
            if let phases = InstructionText.phases(instructions) { lines.append("  " + phases) }
            for function in InstructionText.functions(instructions) { lines.append(style.dim("   " + text(function))) }
            lines.append("")
        }

        // A report pooled from several machines: the distribution machine by machine.
        let machineLines = FleetText.machineLines(report)
        if !machineLines.isEmpty {
            lines.append(style.bold(FleetText.machineHeading(report)))
            lines += machineLines.map { "  " + $0 }
            lines.append("")
        }

        // Findings.
        if !profile.findings.isEmpty {
            lines.append(
                style.bold("findings")
                    + style.dim(
                        " (\(profile.findings.count); median cost, runs, share of the budget it is judged against)"))
            let shown = Array(profile.findings.prefix(limit))
            // With --all (no limit), each finding's span with its own time split: CPU, waiting for a CPU, blocked.
            let splits = limit == .max ? SpanTimeSplit.medians(for: shown, in: report) : shown.map { _ in nil }
            for (finding, split) in zip(shown, splits) {
                let mark =
                    finding.severity == .critical
                    ? style.red("✗") : finding.severity == .warning ? style.yellow("!") : style.dim("·")
                let place = text(finding.file == nil ? finding.span : "\(finding.span) (\(finding.location))")
                lines.append(
                    " \(mark) \(finding.rule.id)  \(place)  \(finding.estimateMark)\(ms(finding.medianMs))  "
                        + "\(finding.runsAppeared)/\(finding.runsTotal)  "
                        + text(FindingText.budgetShare(finding, in: profile)))
                lines.append("     " + text(finding.recommendation))
                if let split, !split.parts.isEmpty { lines.append(style.dim("     median " + split.text)) }
            }
            if splits.contains(where: { $0?.hasEstimate == true }) {
                lines.append(style.dim("   " + SpanTimeSplit.estimateNote))
            }
            if profile.findings.count > limit {
                lines.append(
                    style.dim("   … \(profile.findings.count - limit) more: --all lists them, the JSON report has them")
                )
            }
            lines.append("")
        } else if profile.isInstrumented {
            lines.append(
                style.green("no findings")
                    + style.dim(": nothing on the main thread before the first frame is worth moving"))
            lines.append("")
        }

        // Failed runs.
        if failedRuns > 0 {
            lines.append(style.red("\(failedRuns) failed run(s)"))
            for run in report.failedRuns {
                lines.append("  run \(run.index): \(text(run.problemText))")
                if let stderr = run.stderrPath {
                    lines.append(style.dim("    its output: \(text(stderr)) (and stdout.txt beside it)"))
                }
            }
            lines.append("")
        }
        return lines.joined(separator: "\n")
    }

    /// The one line a quiet command still prints: the outcome's status as a word, and its reason.
    public static func verdictLine(_ document: ReportDocument, color: Bool) -> String {
        headline(document.outcome, style: Style(enabled: color), nothingChecked: NothingChecked.applies(to: document))
    }

    /// The outcome's word in its tone's colour, and its reason; `MEASURED`, uncoloured, for a pass with nothing checked.
    static func headline(_ outcome: ReportOutcome, style: Style, nothingChecked: Bool = false) -> String {
        (nothingChecked ? style.bold(NothingChecked.word) : style.tone(outcome.tone, outcome.word)) + "  "
            + text(outcome.headline)
    }

    /// `398–412 ms`, with the level it reaches when that is under 95% (n < 6).
    static func interval(_ summary: Summary) -> String {
        let range = summary.medianConfidenceInterval
        let text = ms(range.lowerBound).replacingOccurrences(of: " ms", with: "") + "–" + ms(range.upperBound)
        guard summary.medianConfidenceLevel < 0.95 else { return text }
        return text + " (\(Int(saturating: (summary.medianConfidenceLevel * 100).rounded(.down)))%)"
    }

    /// Text from the measured program or its trace, its control characters escaped.
    static func text(_ value: String) -> String { ControlCharacters.escaped(value) }

    /// A run-order warning in words; `warmup` is how many warm-up launches ran
    /// before the counted ones (advice to add one is only given when none ran).
    static func describe(_ warning: RunWarning, warmup: Int) -> String {
        switch warning {
        case .firstRunSlow(let ratio):
            let advice =
                warmup > 0
                ? "even after \(warmup) warm-up launch(es): something the first counted launch does is not warmed up by them"
                : "caches not warm? add --warmup"
            return "the first counted run was \(Milliseconds.oneDecimal(ratio))× slower than the rest (\(advice))"
        case .drift(let slope, let relative):
            return
                "times drift over the runs (\(Milliseconds.oneDecimal(slope)) ms/run, \(Percent.whole(relative)) over the session): the machine may be busy"
        }
    }
}
