import LaunchAnalysis

extension HTMLReport {
    /// The tooltip of a finding's cost marked `≈`, as the terminal and Markdown reports mark it.
    static let estimatedCostTitle = FindingText.estimateNote

    /// Every phase measured: median, p90, 95% CI of the median, budget, ok/over, outlier runs; then the run-order warnings.
    static func phaseTable(_ profile: LaunchProfile, warmup: Int) -> String {
        let checks = Dictionary(profile.verdict.checks.map { ($0.subject, $0) }, uniquingKeysWith: { a, _ in a })
        var html =
            "<div class=\"tablebox\"><table class=\"grid stack\"><thead><tr><th>phase</th><th class=\"n\">median</th><th class=\"n\">p90</th>"
            + "<th class=\"n\">95% CI of median</th><th class=\"n\">budget</th><th></th><th>outlier runs</th>"
            + (profile.instructions == nil ? "" : "<th class=\"n\">\(InstructionText.column)</th>")
            + "</tr></thead><tbody>\n"
        func instructions(_ phase: Phase?) -> String {
            profile.instructions.map {
                "<td class=\"n\" data-label=\"\(InstructionText.column)\">" + InstructionText.cell($0, phase: phase)
                    + "</td>"
            } ?? ""
        }
        for statistics in profile.phases {
            let summary = statistics.summary
            let check = checks[.phase(statistics.phase)]
            let state =
                check.map { $0.passed ? "<span class=\"good\">ok</span>" : "<span class=\"bad\">over</span>" } ?? ""
            let outliers = RunList.text(statistics.outlierRuns)
            html +=
                "<tr\(statistics.phase.isTotal ? " class=\"total\"" : "")><td><span class=\"sw p-\(statistics.phase.rawValue)\"></span>"
                + "\(statistics.phase.rawValue)</td><td class=\"n\" data-label=\"median\">\(ms(summary.median))</td>"
                + "<td class=\"n\" data-label=\"p90\">\(ms(summary.p90))</td>"
                + "<td class=\"n\" data-label=\"95% CI of median\">\(TerminalReport.interval(summary))</td>"
                + "<td class=\"n\" data-label=\"budget\">\(check.map { ms($0.budgetMs) } ?? "")</td>"
                + "<td data-label=\"checked\">\(state)</td><td data-label=\"outlier runs\">\(outliers)</td>"
                + instructions(statistics.phase) + "</tr>\n"
        }
        if let cpu = profile.cpuTime {
            let outliers = RunList.text(cpu.outlierRuns)
            html +=
                "<tr class=\"cpu\"><td>\(CPUTimeText.label)</td><td class=\"n\" data-label=\"median\">\(ms(cpu.total.median))</td>"
                + "<td class=\"n\" data-label=\"p90\">\(ms(cpu.total.p90))</td>"
                + "<td class=\"n\" data-label=\"95% CI of median\">\(TerminalReport.interval(cpu.total))</td>"
                + "<td class=\"n\"></td><td></td><td data-label=\"outlier runs\">\(outliers)</td>" + instructions(nil)
                + "</tr>\n"
        }
        html += "</tbody></table></div>\n"
        if let cpu = profile.cpuTime {
            html += "<p class=\"caption\">" + HTMLEscaping.text(CPUTimeText.split(cpu)) + ".</p>\n"
        }
        if let level = profile.phases.map(\.summary.medianConfidenceLevel).min(), level < 0.95 {
            html +=
                "<p class=\"caption\">with fewer than 6 runs no interval reaches 95%: the range is shown, with the level it reaches.</p>\n"
        }
        let warnings = profile.phases.flatMap { statistics in
            statistics.warnings.map { "\(statistics.phase.rawValue): " + TerminalReport.describe($0, warmup: warmup) }
        }
        if !warnings.isEmpty {
            html +=
                "<ul class=\"warnings\">" + warnings.map { "<li>" + HTMLEscaping.text($0) + "</li>" }.joined()
                + "</ul>\n"
        }
        return html
    }

    /// The advisor's findings, most costly first: rule, span and place, cost, runs, share of budget, recommendation.
    ///
    /// `side` prefixes the ids the timeline's spans refer to (`data-f`), so a
    /// click on a finding zooms the timeline to its spans; `limit` findings are
    /// listed, with a link to the full list when there are more.
    static func findingsList(_ profile: LaunchProfile, side: String, limit: Int, explainEstimate: Bool = true) -> String
    {
        guard !profile.findings.isEmpty else {
            return profile.isInstrumented
                ? "<p class=\"good\">no findings: nothing on the main thread before the first frame is worth moving.</p>\n"
                : "<p class=\"caption\">no findings: the program is not instrumented, so there are no spans to judge.</p>\n"
        }
        var html =
            "<p class=\"caption\">\(profile.findings.count) finding(s); median cost over the runs and what kind of time it is "
            + "(CPU, blocked on something, or wall), in how many runs, "
            + "share of the budget it is judged against (the time-to-first-frame budget; a hook's or span's own budget when "
            + "it is over it). Click one to find its spans in the timeline.</p>\n<ol class=\"findings\">\n"
        // A call site first: a finding without one (a hook over its budget) repeats the verdict above.
        let ordered =
            profile.findings.enumerated().filter { $0.element.file != nil }
            + profile.findings.enumerated().filter { $0.element.file == nil }
        let shown = ordered.prefix(limit)
        for (index, finding) in shown {
            let place = finding.file.map { site($0, finding.line) } ?? "<span class=\"muted\">no call site</span>"
            html +=
                "<li class=\"finding sev-\(finding.severity.rawValue)\" data-finding=\"\(side)\(index)\" tabindex=\"0\">"
                + "<div class=\"head\"><span class=\"sev\">\(finding.severity.rawValue)</span><code class=\"rule\">\(finding.rule.id)</code>"
                + "<b>" + HTMLEscaping.text(finding.span) + "</b>\(place)"
                + "<span class=\"cost\">\(finding.estimateMark)\(ms(finding.medianMs))</span>"
                + "<span class=\"muted\">" + FindingText.costKind(finding.rule)
                + " · \(finding.runsAppeared)/\(finding.runsTotal) runs · "
                + HTMLEscaping.text(FindingText.budgetShare(finding, in: profile)) + "</span></div>"
                + "<p class=\"rec\">" + HTMLEscaping.text(finding.recommendation) + "</p></li>\n"
        }
        html += "</ol>\n"
        if explainEstimate, shown.contains(where: { !$0.element.estimateMark.isEmpty }) {
            html += "<p class=\"caption\">" + HTMLEscaping.text(FindingText.estimateNote) + ".</p>\n"
        }
        if profile.findings.count > limit {
            html +=
                "<p class=\"caption\">all \(profile.findings.count) findings are listed further down, under “All findings”.</p>\n"
        }
        return html
    }

    /// Every metric compared: base and head medians, the median difference and
    /// the estimated shift the verdict tests, its interval, p, verdict; a table
    /// that scrolls in its own box on a narrow window.
    static func metricTable(_ report: ComparisonReport) -> String {
        var html =
            "<div class=\"tablebox\"><table class=\"grid stack\"><thead><tr><th>metric</th>"
            + ComparisonText.headings.enumerated().map { index, heading in
                "<th\(index < ComparisonText.headings.count - 1 ? " class=\"n\"" : "")>\(HTMLEscaping.text(heading))</th>"
            }.joined() + "</tr></thead><tbody>\n"
        var notes: [String] = []
        for metric in report.metrics {
            let verdict: String
            switch metric.verdict {
            case _ where metric.presence == .neither: verdict = "<span class=\"warn\">not recorded</span>"
            case _ where report.outcome.noAnswer != nil:
                verdict = "<span class=\"warn\">" + (report.outcome.noAnswer?.notJudged ?? "") + "</span>"
            case .regression: verdict = "<span class=\"bad\">regression</span>"
            case .improvement: verdict = "<span class=\"good\">improvement</span>"
            case .pass: verdict = "<span class=\"muted\">~</span>"
            case .inconclusive: verdict = "<span class=\"warn\">inconclusive</span>"
            }
            let row = ComparisonText.Row(metric)
            if let note = row.presenceNote { notes.append(note) }
            let primary = report.isPrimary(metric)
            // Each cell names its column (`data-label`): on a narrow window the rows stack, the verdict first.
            let cells = zip(ComparisonText.headings, row.cells)
            html +=
                "<tr\(primary ? " class=\"total\"" : "")><td>" + HTMLEscaping.text(metric.name)
                + (metric.gated ? " *" : "") + "</td>"
                + cells.map { "<td class=\"n\" data-label=\"\($0.0)\">" + HTMLEscaping.text($0.1) + "</td>" }.joined()
                + "<td class=\"verdict-cell\" data-label=\"verdict\">\(verdict)</td></tr>\n"
        }
        html +=
            "</tbody></table></div>\n<p class=\"caption\">\(ComparisonText.launches(report)); * gated (p after Holm); "
            + "~ no change beyond the minimum effect of "
            + "\(Milliseconds.oneDecimal(report.settings.minimumEffectPercent))% / \(ms(report.settings.minimumEffectMs)); "
            + "α \(report.settings.alpha).</p>\n<p class=\"caption\">" + HTMLEscaping.text(ComparisonText.shiftNote)
            + ".</p>\n"
        if !notes.isEmpty {
            html +=
                "<ul class=\"warnings\">" + notes.map { "<li>" + HTMLEscaping.text($0) + "</li>" }.joined() + "</ul>\n"
        }
        return html
    }

    /// What to fix, right under a comparison's verdict: the findings new in the
    /// head, most costly first (a click finds a finding's spans in the head's
    /// timeline), then the spans that got slower, each with its file and line;
    /// nothing when the head added neither.
    static func whatToFix(_ report: ComparisonReport) -> String {
        let findings = report.changes.newFindingsToFix
        let spans = report.changes.slowerSpans
        guard !(findings.isEmpty && spans.isEmpty) else { return "" }
        var html =
            "<p class=\"caption\">what the head added: its new findings, most costly first, then the spans that got slower, "
            + "most first. Click a finding to find its spans in the head's timeline.</p>\n<ol class=\"findings\">\n"
        let head = report.head.profile.findings
        for change in findings {
            let index = head.firstIndex {
                $0.rule == change.rule && $0.span == change.span && $0.file == change.file && $0.line == change.line
            }
            let severity = index.map { head[$0].severity } ?? .warning
            html +=
                "<li class=\"finding sev-\(severity.rawValue)\""
                + (index.map { " data-finding=\"h\($0)\" tabindex=\"0\"" } ?? "") + ">"
                + "<div class=\"head\"><span class=\"tag bad\">new</span><code class=\"rule\">\(change.rule.id)</code>\(place(change))"
                + "<span class=\"cost\">\(ms(change.headMs ?? .nan))</span></div>"
                + "<p class=\"rec\">" + HTMLEscaping.text(change.recommendation) + "</p></li>\n"
        }
        for span in spans {
            let cost =
                span.baseMs.map { "\(ms($0)) → \(span.headMs.map(ms) ?? "—")" }
                ?? "\(span.headMs.map(ms) ?? "—"), not in the base"
            html +=
                "<li class=\"finding\"><div class=\"head\"><span class=\"tag bad\">\(span.baseMs == nil ? "new" : "slower")</span><b>"
                + HTMLEscaping.text(span.name) + "</b>"
                + site(span.file, span.line)
                + "<span class=\"cost\">\(cost)</span>"
                + "<span class=\"bad\">"
                + HTMLEscaping.text(ComparisonText.spanChange(span, level: report.changes.spanInterval?.confidence))
                + "</span></div></li>\n"
        }
        html += "</ol>\n"
        if !spans.isEmpty, let note = ComparisonText.spanIntervalNote(report.changes) {
            html += "<p class=\"caption\">" + HTMLEscaping.text(note) + ".</p>\n"
        }
        return section("What to fix", id: "top", content: html)
    }

    /// A finding's span in bold and its call site, `file:line`, when known.
    static func place(_ change: FindingsDiff.FindingChange) -> String {
        "<b>" + HTMLEscaping.text(change.span) + "</b>"
            + (change.file.map { " " + site($0, change.line) } ?? "")
    }

    /// A call site as the page shows it, in code: the file as the program named it
    /// (`#fileID`, `Module/File.swift`) and the line, `?` when the trace has none.
    static func site(_ file: String, _ line: Int?) -> String {
        "<code>" + HTMLEscaping.text("\(file):\(line.map(String.init) ?? "?")") + "</code>"
    }

    /// Why it changed: findings new, gone and moved, and the spans that moved most, each named once
    /// (what "what to fix" lists above is left out here), each span with its interval.
    static func changesSection(_ report: ComparisonReport) -> String {
        let changes = report.changes
        let why = ComparisonText.WhyItChanged(changes, whatToFixShown: !whatToFix(report).isEmpty)
        guard !why.isEmpty else { return "" }
        func rows(_ title: String, _ items: [String]) -> String {
            items.isEmpty ? "" : "<h3>\(title)</h3><ul class=\"changes\">" + items.joined() + "</ul>\n"
        }
        var html = ""
        if why.namedAbove > 0 {
            html += "<p class=\"caption\">besides the \(why.namedAbove) listed under What to fix.</p>\n"
        }
        html += rows(
            "new findings",
            why.new.map { change in
                "<li><span class=\"tag bad\">new</span><code class=\"rule\">\(change.rule.id)</code>\(place(change)) "
                    + "<span class=\"cost\">\(ms(change.headMs ?? .nan))</span><p class=\"rec\">"
                    + HTMLEscaping.text(change.recommendation) + "</p></li>"
            })
        html += rows(
            "gone",
            why.gone.map { change in
                "<li><span class=\"tag good\">gone</span><code class=\"rule\">\(change.rule.id)</code>\(place(change)) "
                    + "<span class=\"cost\">was \(ms(change.baseMs ?? .nan))</span></li>"
            })
        html += rows(
            "moved",
            why.moved.map { change in
                "<li><span class=\"tag\">moved</span><code class=\"rule\">\(change.rule.id)</code>\(place(change)) "
                    + "<span class=\"cost\">\(ms(change.baseMs ?? .nan)) → \(ms(change.headMs ?? .nan))</span></li>"
            })
        let level = changes.spanInterval?.confidence
        html += rows(
            "spans that moved most, surest first",
            why.spans.map { span in
                let tone = span.isWithinNoise ? "muted" : span.deltaMs > 0 ? "bad" : "good"
                return "<li><b>" + HTMLEscaping.text(span.name) + "</b> " + site(span.file, span.line) + " "
                    + "<span class=\"cost\">\(span.baseMs.map(ms) ?? "—") → \(span.headMs.map(ms) ?? "—")</span> "
                    + "<span class=\"\(tone)\">" + HTMLEscaping.text(ComparisonText.spanChange(span, level: level))
                    + "</span></li>"
            })
        if !why.spans.isEmpty, let note = ComparisonText.spanIntervalNote(changes) {
            html += "<p class=\"caption\">" + HTMLEscaping.text(note) + ".</p>\n"
        }
        return section("Why it changed", id: "changes", content: html)
    }
}
