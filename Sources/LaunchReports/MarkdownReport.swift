import LaunchAnalysis

/// GitHub-flavoured Markdown, for a pull-request comment or
/// `$GITHUB_STEP_SUMMARY`: the verdict line, then the table, then the findings.
public enum MarkdownReport {
    /// Renders `document`.
    public static func render(_ document: ReportDocument) -> String {
        let text: String
        switch document {
        case .measurement(let report): text = render(report)
        case .comparison(let report): text = render(report)
        }
        return text + (document.reportID.map { "\n" + idComment($0) + "\n" } ?? "")
    }

    /// The comment that carries a written report's id (``ReportDocument/reportID``),
    /// hidden where the Markdown is shown: `<!-- launchprof reportID 9f2c4be01d7a3e55 -->`.
    public static func idComment(_ id: String) -> String {
        "<!-- launchprof reportID " + String(id.filter(\.isHexDigit).prefix(64)) + " -->"
    }

    /// The verdict line: the outcome's tone as a mark, its status and its reason.
    /// With `nothingChecked` (a pass with no budget check) it reads `📏 **measured**`.
    static func verdict(_ outcome: ReportOutcome, nothingChecked: Bool = false) -> String {
        if nothingChecked { return "📏 **measured** — \(escaped(outcome.headline))" }
        let mark: String
        switch outcome.tone {
        case .good: mark = "✅"
        case .warning: mark = "⚠️"
        case .bad: mark = "❌"
        }
        return "\(mark) **\(outcome.status.rawValue)** — \(escaped(outcome.headline))"
    }

    /// How many findings a measurement's Markdown lists (the most costly); it says how many more there are.
    public static let findingsShown = 5

    /// A measurement: verdict, phase table (median, p90, budget, margin), top findings.
    static func render(_ report: MeasurementReport) -> String {
        var lines = [
            "### launchprof measure — \(escaped(report.name))", "",
            verdict(report.outcome, nothingChecked: NothingChecked.applies(to: report)), "",
        ]
        let profile = report.profile
        let checks = Dictionary(profile.verdict.checks.map { ($0.subject, $0) }, uniquingKeysWith: { a, _ in a })
        if !profile.phases.isEmpty {
            let counted = profile.instructions
            func instructions(_ phase: Phase?) -> String {
                counted.map { " \(InstructionText.cell($0, phase: phase)) |" } ?? ""
            }
            lines += [
                "| phase | median | p90 | budget | margin |" + (counted == nil ? "" : " \(InstructionText.column) |"),
                "|---|---:|---:|---:|---:|" + (counted == nil ? "" : "---:|"),
            ]
            for statistics in profile.phases {
                let check = checks[.phase(statistics.phase)]
                let margin = check.map { Milliseconds.signed($0.budgetMs - $0.medianMs) } ?? ""
                lines.append(
                    "| \(statistics.phase.rawValue) | \(ms(statistics.summary.median)) | \(ms(statistics.summary.p90)) | "
                        + "\(check.map { ms($0.budgetMs) } ?? "") | \(margin) |" + instructions(statistics.phase))
            }
            if let cpu = profile.cpuTime {
                lines.append(
                    "| \(CPUTimeText.label) | \(ms(cpu.total.median)) | \(ms(cpu.total.p90)) | | |" + instructions(nil))
                lines += ["", "_" + CPUTimeText.split(cpu) + "_"]
            }
            lines.append("")
        }
        if let instructions = profile.instructions {
            lines += [
                "**Instructions** (counted under callgrind): " + escaped(InstructionText.headline(instructions)), "",
            ]
            if let phases = InstructionText.phases(instructions) { lines += [escaped(phases), ""] }
            if let cost = InstructionText.cost(report) { lines += ["_" + escaped(cost) + "_", ""] }
            lines += InstructionText.functions(instructions).map { "- " + escaped($0) }
            lines.append("")
        }
        let machineLines = FleetText.machineLines(report)
        if !machineLines.isEmpty {
            lines += ["**" + escaped(FleetText.machineHeading(report).capitalizedFirst) + "**", ""]
            lines += machineLines.map { "- " + escaped($0) }
            lines.append("")
        }
        if !profile.findings.isEmpty {
            lines.append("**Findings**")
            lines.append("")
            let shown = Array(profile.findings.prefix(findingsShown))
            let splits = SpanTimeSplit.medians(for: shown, in: report)
            for (finding, split) in zip(shown, splits) {
                // The call site when known; a hook's finding has none, and its name is said once.
                let place = finding.file == nil ? "" : " `\(code(finding.location))`"
                lines.append(
                    "- `\(finding.rule.id)` **\(escaped(finding.span))**\(place) — \(finding.estimateMark)\(ms(finding.medianMs)) "
                        + "in \(finding.runsAppeared)/\(finding.runsTotal) runs: \(escaped(finding.recommendation))")
                if let split, !split.parts.isEmpty { lines.append("  <sub>median " + escaped(split.text) + "</sub>") }
            }
            if profile.findings.count > shown.count {
                lines.append(
                    "- … and \(profile.findings.count - shown.count) more finding(s) (\(profile.findings.count) in all): "
                        + "the HTML page and the JSON report list them")
            }
            if splits.contains(where: { $0?.hasEstimate == true }) {
                lines += ["", "<sub>" + escaped(SpanTimeSplit.estimateNote) + "</sub>"]
            }
            lines.append("")
        }
        lines.append(
            "<sub>\(profile.successfulRuns)/\(profile.runCount) runs ok, \(report.configuration.mode.rawValue), "
                + "ready: \(escaped(report.readyLabel)), launchprof \(report.toolVersion)</sub>")
        return lines.joined(separator: "\n") + "\n"
    }

    /// A comparison: verdict, metric table, why it changed, warnings.
    static func render(_ report: ComparisonReport) -> String {
        var lines = ["### launchprof compare — \(escaped(report.name))", "", verdict(report.outcome), ""]
        if let decided = InstructionText.decidedBy(report) { lines += ["**" + escaped(decided) + "**", ""] }
        lines += whatToFix(report.changes)
        if !report.metrics.isEmpty {
            lines += [
                "| metric | " + ComparisonText.headings.joined(separator: " | ") + " |",
                "|---|" + String(repeating: "---:|", count: ComparisonText.headings.count - 1) + "---|",
            ]
            var notes: [String] = []
            for metric in report.metrics {
                let row = ComparisonText.Row(metric)
                if let note = row.presenceNote { notes.append(note) }
                let judged =
                    metric.verdict == .pass
                    ? "~" : metric.verdict == .regression ? "**regression**" : metric.verdict.rawValue
                let verdict =
                    metric.presence == .neither
                    ? "not recorded" : report.outcome.noAnswer.map { "_\($0.notJudged)_" } ?? judged
                lines.append(
                    "| \(escaped(metric.name))\(metric.gated ? " \\*" : "") | "
                        + (row.cells + [verdict]).joined(separator: " | ") + " |")
            }
            lines.append("")
            lines.append(
                "<sub>\(ComparisonText.launches(report)); \\* gated (p after Holm); ~ no change beyond the minimum effect of "
                    + "\(Milliseconds.oneDecimal(report.settings.minimumEffectPercent))% / \(ms(report.settings.minimumEffectMs)); α \(report.settings.alpha). "
                    + escaped(ComparisonText.shiftNote) + "</sub>")
            for note in notes { lines += ["", "> ⚠️ " + escaped(note)] }
            lines.append("")
        }
        if let counted = InstructionText.comparisonLines(report) {
            lines += ["**Instructions** (" + escaped(InstructionText.ruleNote(report)) + ")", ""]
            lines += counted.summary.map { "- " + escaped($0) }
            lines.append("")
            for (heading, names) in [
                ("Functions whose inclusive instructions grew most", counted.grew),
                ("Functions whose inclusive instructions shrank most", counted.shrank),
            ] where !names.isEmpty {
                lines += ["_" + heading + "_", ""] + names.map { "- `" + code($0) + "`" } + [""]
            }
        }
        if let fleet = report.fleet {
            lines += ["**Machines** (\(escaped(report.primaryMetric))): " + escaped(FleetText.method(fleet)), ""]
            lines += fleet.machines.map { "- " + escaped(FleetText.shiftLine($0)) }
            lines += fleet.leftOut.map { "- ⚠️ " + escaped(FleetText.leftOutLine($0)) }
            lines.append("")
        }
        let why = ComparisonText.WhyItChanged(report.changes, whatToFixShown: !whatToFix(report.changes).isEmpty)
        let level = report.changes.spanInterval?.confidence
        if !why.isEmpty {
            lines += ["**Why it changed**", ""]
            if why.namedAbove > 0 { lines += ["_besides the \(why.namedAbove) under What to fix:_", ""] }
            for change in why.new {
                lines.append("- new `\(change.rule.id)` \(markdownPlace(change)) — \(ms(change.headMs ?? .nan))")
            }
            for change in why.gone {
                lines.append("- gone `\(change.rule.id)` \(markdownPlace(change)) — was \(ms(change.baseMs ?? .nan))")
            }
            for change in why.moved {
                lines.append(
                    "- moved `\(change.rule.id)` \(markdownPlace(change)) — "
                        + "\(ms(change.baseMs ?? .nan)) → \(ms(change.headMs ?? .nan))")
            }
            for span in why.spans {
                let site = SourceSite.text(file: span.file, line: span.line)
                lines.append(
                    "- span **\(escaped(span.name))** `\(code(site))` — \(span.baseMs.map(ms) ?? "—") → \(span.headMs.map(ms) ?? "—") "
                        + "(\(escaped(ComparisonText.spanChange(span, level: level))))")
            }
            if !why.spans.isEmpty, let note = ComparisonText.spanIntervalNote(report.changes) {
                lines += ["", "<sub>" + escaped(note) + "</sub>"]
            }
            lines.append("")
        }
        for warning in report.warnings { lines.append("> ⚠️ \(escaped(warning))") }
        if !report.warnings.isEmpty { lines.append("") }
        return lines.joined(separator: "\n") + "\n"
    }

    /// What to fix, right under a comparison's verdict: the findings new in the
    /// head, then the spans that got slower, each with its file and line; nothing
    /// when the head added neither.
    static func whatToFix(_ changes: FindingsDiff) -> [String] {
        let findings = changes.newFindingsToFix
        let spans = changes.slowerSpans
        guard !(findings.isEmpty && spans.isEmpty) else { return [] }
        var lines = ["**What to fix**", ""]
        for change in findings {
            lines.append(
                "- new `\(change.rule.id)` \(markdownPlace(change)) — \(ms(change.headMs ?? .nan)): \(escaped(change.recommendation))"
            )
        }
        for span in spans {
            let site = SourceSite.text(file: span.file, line: span.line)
            let level = changes.spanInterval?.confidence
            let change =
                span.baseMs.map {
                    "\(ms($0)) → \(span.headMs.map(ms) ?? "—") (\(escaped(ComparisonText.spanChange(span, level: level))))"
                }
                ?? "\(span.headMs.map(ms) ?? "—"), not in the base"
            lines.append(
                "- \(span.baseMs == nil ? "new" : "slower") **\(escaped(span.name))** `\(code(site))` — \(change)")
        }
        if !spans.isEmpty, let note = ComparisonText.spanIntervalNote(changes) {
            lines += ["", "<sub>" + escaped(note) + "</sub>"]
        }
        return lines + [""]
    }

    /// `**Fetch** `App.swift:42``, or the span alone when its site is unknown.
    static func markdownPlace(_ change: FindingsDiff.FindingChange) -> String {
        "**\(escaped(change.span))**" + (change.file == nil ? "" : " `\(code(change.location))`")
    }

    /// `text` with its control characters (``ControlCharacters``) and Markdown's
    /// table and emphasis characters escaped, and its mentions and issue
    /// references made inert (``MarkdownMentions``).
    static func escaped(_ text: String) -> String {
        var out = ""
        for character in MarkdownMentions.neutralized(ControlCharacters.escaped(text)) {
            if "|*_`<>[]".contains(character) { out.append("\\") }
            out.append(character)
        }
        return out
    }

    /// `text` for inside a code span: control characters escaped, and a backquote
    /// or table bar, which would end the span or the cell, replaced.
    static func code(_ text: String) -> String {
        var out = ""
        for character in ControlCharacters.escaped(text) {
            switch character {
            case "`": out.append("'")
            case "|": out += "\\|"
            default: out.append(character)
            }
        }
        return out
    }
}
