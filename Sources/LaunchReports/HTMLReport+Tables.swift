import LaunchAnalysis

extension HTMLReport {
    /// Every phase measured: median, p90, 95% CI of the median, budget, ok/over, outlier runs; then the run-order warnings.
    static func phaseTable(_ profile: LaunchProfile) -> String {
        let checks = Dictionary(profile.verdict.checks.map { ($0.subject, $0) }, uniquingKeysWith: { a, _ in a })
        var html = "<table class=\"grid\"><thead><tr><th>phase</th><th class=\"n\">median</th><th class=\"n\">p90</th>"
            + "<th class=\"n\">95% CI of median</th><th class=\"n\">budget</th><th></th><th>outlier runs</th></tr></thead><tbody>\n"
        for statistics in profile.phases {
            let summary = statistics.summary
            let check = checks[.phase(statistics.phase)]
            let state = check.map { $0.passed ? "<span class=\"good\">ok</span>" : "<span class=\"bad\">over</span>" } ?? ""
            let outliers = statistics.outlierRuns.map { "run \($0)" }.joined(separator: ", ")
            html += "<tr\(statistics.phase.isTotal ? " class=\"total\"" : "")><td><span class=\"sw p-\(statistics.phase.rawValue)\"></span>"
                + "\(statistics.phase.rawValue)</td><td class=\"n\">\(ms(summary.median))</td><td class=\"n\">\(ms(summary.p90))</td>"
                + "<td class=\"n\">\(TerminalReport.interval(summary))</td><td class=\"n\">\(check.map { ms($0.budgetMs) } ?? "")</td>"
                + "<td>\(state)</td><td>\(outliers)</td></tr>\n"
        }
        if let cpu = profile.cpuTime {
            let outliers = cpu.outlierRuns.map { "run \($0)" }.joined(separator: ", ")
            html += "<tr class=\"cpu\"><td>\(CPUTimeText.label)</td><td class=\"n\">\(ms(cpu.total.median))</td>"
                + "<td class=\"n\">\(ms(cpu.total.p90))</td><td class=\"n\">\(TerminalReport.interval(cpu.total))</td>"
                + "<td class=\"n\"></td><td></td><td>\(outliers)</td></tr>\n"
        }
        html += "</tbody></table>\n"
        if let cpu = profile.cpuTime { html += "<p class=\"caption\">" + HTMLEscaping.text(CPUTimeText.split(cpu)) + ".</p>\n" }
        if let level = profile.phases.map(\.summary.medianConfidenceLevel).min(), level < 0.95 {
            html += "<p class=\"caption\">with fewer than 6 runs no interval reaches 95%: the range is shown, with the level it reaches.</p>\n"
        }
        let warnings = profile.phases.flatMap { statistics in
            statistics.warnings.map { "\(statistics.phase.rawValue): " + TerminalReport.describe($0) }
        }
        if !warnings.isEmpty {
            html += "<ul class=\"warnings\">" + warnings.map { "<li>" + HTMLEscaping.text($0) + "</li>" }.joined() + "</ul>\n"
        }
        return html
    }

    /// The advisor's findings, most costly first: rule, span and place, cost, runs, share of budget, recommendation.
    ///
    /// `side` prefixes the ids the timeline's spans refer to (`data-f`), so a
    /// click on a finding outlines its spans.
    static func findingsList(_ profile: LaunchProfile, side: String) -> String {
        guard !profile.findings.isEmpty else {
            return profile.isInstrumented
                ? "<p class=\"good\">no findings: nothing on the main thread before the first frame is worth moving.</p>\n"
                : "<p class=\"caption\">no findings: the program is not instrumented, so there are no spans to judge.</p>\n"
        }
        var html = "<p class=\"caption\">\(profile.findings.count) finding(s); median cost over the runs, in how many runs, "
            + "share of the time-to-first-frame budget. Click one to find its spans in the timeline.</p>\n<ol class=\"findings\">\n"
        for (index, finding) in profile.findings.enumerated() {
            let place = finding.file.map { file in "<code>" + HTMLEscaping.text("\(file):\(finding.line.map(String.init) ?? "?")") + "</code>" }
                ?? "<span class=\"muted\">no call site</span>"
            html += "<li class=\"finding sev-\(finding.severity.rawValue)\" data-finding=\"\(side)\(index)\" tabindex=\"0\">"
                + "<div class=\"head\"><span class=\"sev\">\(finding.severity.rawValue)</span><code class=\"rule\">\(finding.rule.id)</code>"
                + "<b>" + HTMLEscaping.text(finding.span) + "</b>\(place)"
                + "<span class=\"cost\">\(ms(finding.medianMs))</span>"
                + "<span class=\"muted\">\(finding.runsAppeared)/\(finding.runsTotal) runs · "
                + "\(Int(saturating: (finding.budgetShare * 100).rounded()))% of budget</span></div>"
                + "<p class=\"rec\">" + HTMLEscaping.text(finding.recommendation) + "</p></li>\n"
        }
        return html + "</ol>\n"
    }

    /// Every metric compared: base, head, change, CI, p, verdict.
    static func metricTable(_ report: ComparisonReport) -> String {
        var html = "<table class=\"grid\"><thead><tr><th>metric</th><th class=\"n\">base</th><th class=\"n\">head</th>"
            + "<th class=\"n\">change</th><th class=\"n\">CI (level)</th><th class=\"n\">p</th><th>verdict</th></tr></thead><tbody>\n"
        for metric in report.metrics {
            let verdict: String
            switch metric.verdict {
            case .regression: verdict = "<span class=\"bad\">regression</span>"
            case .improvement: verdict = "<span class=\"good\">improvement</span>"
            case .pass: verdict = "<span class=\"muted\">~</span>"
            case .inconclusive: verdict = "<span class=\"warn\">inconclusive</span>"
            }
            let primary = metric.name == report.primaryMetric
            html += "<tr\(primary ? " class=\"total\"" : "")><td>" + HTMLEscaping.text(metric.name) + (metric.gated ? " *" : "") + "</td>"
                + "<td class=\"n\">\(ms(Summary.median(metric.baseMs)))</td><td class=\"n\">\(ms(Summary.median(metric.headMs)))</td>"
                + "<td class=\"n\">\(Percent.text(metric.shiftPercent))</td>"
                + "<td class=\"n\">\(metric.intervalText)</td>"
                + "<td class=\"n\">" + HTMLEscaping.text(Percent.pValue(metric.gated ? metric.adjustedPValue : metric.pValue)) + "</td>"
                + "<td>\(verdict)</td></tr>\n"
        }
        html += "</tbody></table>\n<p class=\"caption\">medians of \(report.metrics[0].baseMs.count) vs \(report.metrics[0].headMs.count) "
            + "launches; * gated (p after Holm); ~ no change beyond the minimum effect of "
            + "\(Milliseconds.oneDecimal(report.settings.minimumEffectPercent))% / \(ms(report.settings.minimumEffectMs)); "
            + "α \(report.settings.alpha).</p>\n"
        return html
    }

    /// Why it changed: findings new, gone and moved, and the spans that moved most.
    static func changesSection(_ changes: FindingsDiff) -> String {
        guard !(changes.new.isEmpty && changes.gone.isEmpty && changes.moved.isEmpty && changes.spans.isEmpty) else { return "" }
        func place(_ change: FindingsDiff.FindingChange) -> String {
            "<b>" + HTMLEscaping.text(change.span) + "</b>"
                + (change.file == nil ? "" : " <code>" + HTMLEscaping.text("\(change.file!):\(change.line.map(String.init) ?? "?")") + "</code>")
        }
        func rows(_ title: String, _ items: [String]) -> String {
            items.isEmpty ? "" : "<h3>\(title)</h3><ul class=\"changes\">" + items.joined() + "</ul>\n"
        }
        var html = ""
        html += rows("new findings", changes.new.map { change in
            "<li><span class=\"tag bad\">new</span><code class=\"rule\">\(change.rule.id)</code>\(place(change)) "
                + "<span class=\"cost\">\(ms(change.headMs ?? .nan))</span><p class=\"rec\">" + HTMLEscaping.text(change.recommendation) + "</p></li>"
        })
        html += rows("gone", changes.gone.map { change in
            "<li><span class=\"tag good\">gone</span><code class=\"rule\">\(change.rule.id)</code>\(place(change)) "
                + "<span class=\"cost\">was \(ms(change.baseMs ?? .nan))</span></li>"
        })
        html += rows("moved", changes.moved.map { change in
            "<li><span class=\"tag\">moved</span><code class=\"rule\">\(change.rule.id)</code>\(place(change)) "
                + "<span class=\"cost\">\(ms(change.baseMs ?? .nan)) → \(ms(change.headMs ?? .nan))</span></li>"
        })
        html += rows("spans that moved most", changes.spans.map { span in
            let tone = span.deltaMs > 0 ? "bad" : "good"
            return "<li><b>" + HTMLEscaping.text(span.name) + "</b> <code>" + HTMLEscaping.text("\(span.file):\(span.line)") + "</code> "
                + "<span class=\"cost\">\(span.baseMs.map(ms) ?? "—") → \(span.headMs.map(ms) ?? "—")</span> "
                + "<span class=\"\(tone)\">\(Milliseconds.signed(span.deltaMs))</span></li>"
        })
        return section("Why it changed", id: "changes", content: html)
    }
}
