import LaunchAnalysis

/// A comparison for a person at a terminal: the verdict first, then a
/// benchstat-style table of every metric (`~` where nothing significant
/// changed), then why it changed.
public enum ComparisonTerminalReport {
    /// Renders `report`; `color` adds ANSI colours.
    public static func render(_ report: ComparisonReport, color: Bool) -> String {
        let style = Style(enabled: color)
        var lines: [String] = []
        let launches = ComparisonText.launches(report)
        let stages = report.source == .interleaved ? ", stage \(report.stagesRun) of \(report.stages.count)" : ""
        lines.append(
            style.bold("launchprof compare — \(text(report.name))")
                + style.dim(
                    "  \(report.source.rawValue), \(launches)\(stages), α \(report.settings.alpha), minimum effect "
                        + "\(Milliseconds.oneDecimal(report.settings.minimumEffectPercent))% / \(Milliseconds.text(report.settings.minimumEffectMs))"
                ))
        lines.append(TerminalReport.headline(report.outcome, style: style))
        if let decided = InstructionText.decidedBy(report) { lines.append(style.bold(decided)) }
        lines.append(style.dim("base: " + text(CommandLineText.quoted(report.base.configuration.command))))
        lines.append(style.dim("head: " + text(CommandLineText.quoted(report.head.configuration.command))))
        for warning in report.warnings { lines.append(style.yellow("warning: ") + text(warning)) }
        lines.append("")

        if !report.metrics.isEmpty {
            var rows: [[String]] = [["metric"] + ComparisonText.headings]
            var notes: [String] = []
            for metric in report.metrics {
                let verdict: String
                switch metric.verdict {
                case _ where metric.presence == .neither: verdict = style.yellow("not recorded")
                case _ where report.outcome.noAnswer != nil:
                    verdict = style.yellow(report.outcome.noAnswer?.notJudged ?? "")
                case .regression: verdict = style.red("regression")
                case .improvement: verdict = style.green("improvement")
                case .pass: verdict = "~"
                case .inconclusive: verdict = style.yellow("inconclusive")
                }
                let row = ComparisonText.Row(metric)
                if let note = row.presenceNote { notes.append(note) }
                rows.append([text(metric.name) + (metric.gated ? " *" : "")] + row.cells + [verdict])
            }
            // The cells are numbers (right-aligned); the name and the verdict are words.
            lines += style.table(rows, rightAligned: Set(1..<ComparisonText.headings.count))
            lines.append(style.dim("   * gated (p after Holm); ~ no change beyond the minimum effect"))
            lines.append(style.dim("   " + ComparisonText.shiftNote))
            for note in notes { lines.append(style.yellow("warning: ") + text(note)) }
            lines.append("")
        }

        // The instruction gate: its decision, the phases, and the functions that grew and shrank.
        if let counted = InstructionText.comparisonLines(report) {
            lines.append(style.bold("instructions") + style.dim(" " + InstructionText.ruleNote(report)))
            lines += counted.summary.map { "  " + text($0) }
            if !counted.grew.isEmpty { lines.append("  functions whose inclusive instructions grew most:") }
            lines += counted.grew.map { "   " + style.red("+") + " " + text($0) }
            if !counted.shrank.isEmpty { lines.append("  functions whose inclusive instructions shrank most:") }
            lines += counted.shrank.map { "   " + style.green("−") + " " + text($0) }
            lines.append("")
        }

        // Across machines: each machine's own shift, and those left out.
        if let fleet = report.fleet {
            lines.append(style.bold("machines") + style.dim(" (\(report.primaryMetric)): " + FleetText.method(fleet)))
            lines += fleet.machines.map { "  " + FleetText.shiftLine($0) }
            lines += fleet.leftOut.map { "  " + style.yellow(FleetText.leftOutLine($0)) }
            lines.append("")
        }

        let changes = report.changes
        let why = ComparisonText.WhyItChanged(changes, whatToFixShown: false)
        if !why.isEmpty {
            lines.append(style.bold("why it changed"))
            for change in why.new {
                lines.append(
                    " " + style.red("new  ") + " \(change.rule.id)  \(text(change.place))  \(ms(change.headMs ?? .nan))"
                )
            }
            for change in why.gone {
                lines.append(
                    " " + style.green("gone ")
                        + " \(change.rule.id)  \(text(change.place))  was \(ms(change.baseMs ?? .nan))")
            }
            for change in why.moved {
                lines.append(
                    " moved  \(change.rule.id)  \(text(change.place))  \(ms(change.baseMs ?? .nan)) → \(ms(change.headMs ?? .nan))"
                )
            }
            for span in why.spans {
                let site = SourceSite.text(file: span.file, line: span.line)
                lines.append(
                    " span   \(text(span.name)) (\(text(site)))  \(span.baseMs.map(ms) ?? "—") → \(span.headMs.map(ms) ?? "—")  "
                        + "(\(ComparisonText.spanChange(span, level: changes.spanInterval?.confidence)))")
            }
            if !why.spans.isEmpty, let note = ComparisonText.spanIntervalNote(changes) {
                lines.append(style.dim("  " + note))
            }
            lines.append("")
        }
        return lines.joined(separator: "\n")
    }

    private static func text(_ value: String) -> String { ControlCharacters.escaped(value) }
}
