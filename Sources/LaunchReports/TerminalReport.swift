import LaunchAnalysis

/// The summary a person reads in ten seconds: verdict first, then the phase
/// table (median, p90, budget), then the top findings.
public enum TerminalReport {
    /// Renders `report`; `color` adds ANSI colours.
    public static func render(_ report: MeasurementReport, color: Bool, findings limit: Int = 5) -> String {
        let style = Style(enabled: color)
        let profile = report.profile
        var lines: [String] = []
        let config = report.configuration
        lines.append(style.bold("launchprof measure — \(report.name)")
            + style.dim("  \(profile.successfulRuns)/\(profile.runCount) runs ok, \(config.mode), ready: \(config.ready)"
                + (config.warmup > 0 ? ", \(config.warmup) warm-up" : "")))

        // Verdict: failed runs first, since a verdict over the rest can mislead.
        let failedRuns = profile.runCount - profile.successfulRuns
        if profile.runCount == 0 {
            lines.append(style.yellow("NO RUNS") + "  no counted run completed")
        } else if profile.successfulRuns == 0 {
            lines.append(style.red("ERROR") + "  every run failed; see the runs below")
        }
        if failedRuns > 0, profile.successfulRuns > 0 {
            lines.append(style.red("FAILED RUNS") + "  \(failedRuns) of \(profile.runCount) runs failed (see below); "
                + "the verdict covers the \(profile.successfulRuns) that succeeded")
        }
        if profile.successfulRuns == 0 {
            // Nothing to judge.
        } else if profile.verdict.passed {
            let main = profile.verdict.checks.first
            lines.append(style.green("PASS") + "  " + (main.map { "\($0.subject) \(ms($0.medianMs)) (median) within budget \(ms($0.budgetMs))" } ?? ""))
        } else {
            let failed = profile.verdict.checks.filter { !$0.passed }
            let text = failed.isEmpty ? "nothing to check" : failed.map { "\($0.subject) \(comparison($0.medianMs, $0.budgetMs))" }.joined(separator: ", ")
            lines.append(style.red("FAIL") + "  " + text + style.dim(" (medians)"))
        }
        if report.interrupted {
            lines.append(style.yellow("stopped early") + " (\(report.stopReason ?? "interrupted")): the report covers the runs completed before it")
        }
        let leftovers = report.runs.filter { ($0.leftoverProcesses ?? 0) > 0 }
        if let first = leftovers.first {
            lines.append(style.yellow("warning: ") + "\(leftovers.count) launch(es) left processes running outside their process group "
                + "(\(first.isWarmup ? "a warm-up" : "run \(first.index)"): \(first.leftoverProcesses!)); launchprof ended them")
        }
        lines.append("")

        // Phases.
        if !profile.phases.isEmpty {
            let budgets = Dictionary(profile.verdict.checks.map { ($0.subject, $0) }, uniquingKeysWith: { a, _ in a })
            var rows: [[String]] = [["phase", "median", "p90", "95% CI of median", "budget", ""]]
            // For an instrumented program the ready and exit times repeat the frame
            // and include the trace flush; they stay in the JSON report.
            let readyIsFrame = config.ready == "first-frame"
            // With `--ready exit`, timeToExit repeats timeToReady exactly.
            let exitRepeatsReady = profile.statistics(.timeToReady)?.summary == profile.statistics(.timeToExit)?.summary
            let shown = profile.phases.filter {
                !(profile.isInstrumented && readyIsFrame && ($0.phase == .timeToReady || $0.phase == .timeToExit))
                    && !($0.phase == .timeToExit && exitRepeatsReady)
            }
            for statistics in shown {
                let s = statistics.summary
                let check = budgets[statistics.phase.rawValue]
                rows.append([
                    statistics.phase.rawValue, ms(s.median), ms(s.p90), interval(s),
                    check.map { ms($0.budgetMs) } ?? "",
                    check.map { $0.passed ? style.green("ok") : style.red("over") } ?? "",
                ])
            }
            lines += table(rows, rightAligned: [1, 2, 3, 4], style: style)
            if let level = shown.map(\.summary.medianConfidenceLevel).min(), level < 0.95 {
                lines.append(style.dim("   with fewer than 6 runs no interval reaches 95%: the range is shown, with the level it reaches"))
            }
            // Warnings about the totals and the hooks; the JSON has them for every phase.
            let warned = shown.filter { $0.phase.isTotal || $0.phase == .willFinishLaunching || $0.phase == .didFinishLaunching }
            let warnings = warned.flatMap { statistics in
                statistics.warnings.map { "\(statistics.phase.rawValue): \(describe($0))" }
                    + (statistics.outlierRuns.isEmpty ? [] : ["\(statistics.phase.rawValue): \(statistics.outlierRuns.count) outlier run(s) (modified z-score > 3.5; run \(statistics.outlierRuns.map(String.init).joined(separator: ", "))), kept"])
            }
            for warning in warnings.prefix(4) { lines.append(style.yellow("warning: ") + warning) }
            lines.append("")
        }

        // Findings.
        if !profile.findings.isEmpty {
            lines.append(style.bold("findings") + style.dim(" (\(profile.findings.count); median cost, runs, share of budget)"))
            for finding in profile.findings.prefix(limit) {
                let mark = finding.severity == .critical ? style.red("✗") : finding.severity == .warning ? style.yellow("!") : style.dim("·")
                let place = finding.file == nil ? finding.span : "\(finding.span) (\(finding.location))"
                lines.append(" \(mark) \(finding.rule)  \(place)  \(ms(finding.medianMs))  "
                    + "\(finding.runsAppeared)/\(finding.runsTotal)  \(Int((finding.budgetShare * 100).rounded()))%")
                lines.append("     " + finding.recommendation)
            }
            if profile.findings.count > limit {
                lines.append(style.dim("   … \(profile.findings.count - limit) more in the JSON report"))
            }
            lines.append("")
        } else if profile.isInstrumented {
            lines.append(style.green("no findings") + style.dim(": nothing on the main thread before the first frame is worth moving"))
            lines.append("")
        }

        // Failed runs.
        if failedRuns > 0 {
            lines.append(style.red("\(failedRuns) failed run(s)"))
            for run in report.runs where !run.isWarmup && run.status != .ok {
                lines.append("  run \(run.index): \(run.problem ?? run.status.rawValue)")
                if let stderr = run.stderrPath { lines.append(style.dim("    its output: \(stderr) (and stdout.txt beside it)")) }
            }
            lines.append("")
        }
        return lines.joined(separator: "\n")
    }

    /// `412 ms > 400 ms`, with a decimal more when rounding would make the two look equal.
    static func comparison(_ value: Double, _ limit: Double) -> String {
        var left = ms(value), right = ms(limit)
        if left == right {
            left = "\(Milliseconds.twoDecimals(value)) ms"
            right = "\(Milliseconds.twoDecimals(limit)) ms"
        }
        return "\(left) > \(right)"
    }

    /// `398–412 ms`, with the level it reaches when that is under 95% (n < 6).
    static func interval(_ summary: Summary) -> String {
        let range = summary.medianConfidenceInterval
        let text = ms(range.lowerBound).replacingOccurrences(of: " ms", with: "") + "–" + ms(range.upperBound)
        guard summary.medianConfidenceLevel < 0.95 else { return text }
        return text + " (\(Int((summary.medianConfidenceLevel * 100).rounded(.down)))%)"
    }

    static func describe(_ warning: RunWarning) -> String {
        switch warning {
        case .firstRunSlow(let ratio):
            return "the first counted run was \(Milliseconds.oneDecimal(ratio))× slower than the rest (caches not warm? add --warmup)"
        case .drift(let slope, let relative):
            return "times drift over the runs (\(Milliseconds.oneDecimal(slope)) ms/run, \(Int((relative * 100).rounded()))% over the session): the machine may be busy"
        }
    }

    static func table(_ rows: [[String]], rightAligned: Set<Int>, style: Style) -> [String] {
        let widths = (0..<rows[0].count).map { column in rows.map { Style.visibleWidth($0[column]) }.max() ?? 0 }
        return rows.enumerated().map { index, row in
            let cells = row.enumerated().map { column, cell in
                let pad = String(repeating: " ", count: widths[column] - Style.visibleWidth(cell))
                return rightAligned.contains(column) ? pad + cell : cell + pad
            }
            let line = cells.joined(separator: "  ").trimmingTrailingSpaces()
            return index == 0 ? style.dim(line) : line
        }
    }
}

/// `value` milliseconds as every report writes them (``Milliseconds/text(_:)``).
public func ms(_ value: Double) -> String {
    Milliseconds.text(value)
}

extension String {
    func trimmingTrailingSpaces() -> String {
        var copy = self
        while copy.hasSuffix(" ") { copy.removeLast() }
        return copy
    }
}

/// ANSI styling, off when not on a terminal or with NO_COLOR.
struct Style {
    let enabled: Bool

    func wrap(_ code: String, _ text: String) -> String { enabled ? "\u{1B}[\(code)m\(text)\u{1B}[0m" : text }
    func bold(_ text: String) -> String { wrap("1", text) }
    func dim(_ text: String) -> String { wrap("2", text) }
    func red(_ text: String) -> String { wrap("31;1", text) }
    func green(_ text: String) -> String { wrap("32;1", text) }
    func yellow(_ text: String) -> String { wrap("33", text) }

    /// Width of `text` without ANSI escapes.
    static func visibleWidth(_ text: String) -> Int {
        var width = 0
        var inEscape = false
        for scalar in text.unicodeScalars {
            if scalar == "\u{1B}" { inEscape = true; continue }
            if inEscape { if scalar == "m" { inEscape = false }; continue }
            width += 1
        }
        return width
    }
}
