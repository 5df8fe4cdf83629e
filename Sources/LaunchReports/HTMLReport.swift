import LaunchAnalysis

/// One self-contained HTML page (`<name>.html`, `<name>.comparison.html`): the
/// verdict, what to fix (the top findings), the median run's timeline as SVG
/// with the findings on its spans, the distribution of launch times against
/// the budget, the phase table and all the findings.
///
/// The page needs nothing but itself: its CSS, SVG and script are inline, it
/// loads no font, image or script, and its content security policy forbids any
/// request. It reads well from 400 px (tables scroll in their own box) to wide
/// screens, follows the reader's light or dark setting (text at WCAG AA
/// contrast) and prints. The timeline zooms and pans, opens zoomed to the range
/// the verdict judges, finds spans by name (every match counted and stepped
/// through, drawn or not), and zooms to a finding's span when
/// the finding is clicked. Large reports stay light: the median run's spans are
/// carried as columns with a string table (a few dozen bytes a span) and drawn on
/// a canvas, spans under a pixel merged into one bar with a count; the other runs
/// are points of the strip plot.
///
/// ```swift
/// let page = HTMLReport.render(.measurement(report))        // the page as text
/// try ReportWriter(directory: "Reports").write(.measurement(report), formats: [.json, .html])
/// ```
public enum HTMLReport {
    /// Renders `document` as a whole HTML page.
    public static func render(_ document: ReportDocument) -> String {
        switch document {
        case .measurement(let report): return render(report)
        case .comparison(let report): return render(report)
        }
    }

    // MARK: - Measurement

    /// How many findings the page lists right under the verdict (all of them are further down when there are more).
    static let topFindings = 5

    /// A measurement: verdict, what was measured, what to fix, timeline, distribution, phases, all findings, failed runs.
    static func render(_ report: MeasurementReport) -> String {
        let profile = report.profile
        var body = verdict(report.outcome, nothingChecked: NothingChecked.applies(to: report))
        body += "<header><h1>" + HTMLEscaping.text(report.name) + "</h1>"
        body += "<p class=\"meta\">" + measurementFacts(report).joined(separator: " · ") + "</p>"
        body += "<p class=\"meta sub\">" + provenance(report).joined(separator: " · ") + "</p></header>\n"

        let judged = report.outcome.status == .pass || report.outcome.status == .overBudget
        if !judged, profile.successfulRuns > 0 {
            body +=
                "<p class=\"note\">budget over the \(profile.successfulRuns) run(s) that succeeded: "
                + HTMLEscaping.text(profile.verdict.summary) + "</p>\n"
        }

        // What to fix, and where, right under the verdict; the timeline after.
        if !profile.findings.isEmpty {
            body += section("What to fix", id: "top", content: findingsList(profile, side: "m", limit: topFindings))
        }

        let metric = profile.primaryPhase
        let budget = metric.flatMap { profile.verdict.check(.phase($0))?.budgetMs }
        if let metric, let median = medianRun(of: report, metric: metric), let timeline = median.timeline {
            let layout = TimelineLayout(timeline: timeline, limit: .max)
            let value = median.milliseconds(metric).map(ms) ?? "—"
            body += section(
                "Timeline of the median run", id: "timeline",
                content:
                    "<p class=\"caption\">run \(median.index) of \(profile.runCount): \(metric.rawValue) \(value), "
                    + medianRunPhrase(report, metric: metric) + ". Click a span for its details; "
                    + "spans with a finding are outlined by severity.</p>"
                    + timelineFigure(
                        layout, timeline: timeline, findings: profile.findings, side: "m", budgetMs: budget,
                        axisEndMs: axisEnd([layout], budgetMs: budget),
                        judgedMs: judgedRange([(timeline, layout)], metric: metric, budgetMs: budget)))
        }

        if let metric, let statistics = profile.statistics(metric) {
            let points = report.successfulRuns.compactMap { run in
                run.milliseconds(metric).map { (run: run.index, ms: $0) }
            }
            let row = DistributionRow(
                label: "runs", points: points, outliers: Set(statistics.outlierRuns), summary: statistics.summary,
                highlighted: medianRun(of: report, metric: metric)?.index)
            // A report pooled from several machines: a row, and a colour, per machine.
            let machines = report.machineKeys
            let rows =
                machines.count > 1
                ? DistributionRow.perMachine(report, metric: metric, machines: machines, highlighted: row.highlighted)
                : [row]
            body += section(
                "Distribution of \(metric.rawValue)", id: "distribution",
                content:
                    "<p class=\"caption\">each successful run's \(metric.rawValue) against the budget"
                    + (machines.count > 1 ? ", a row per machine (\(machines.count)), outliers judged within each" : "")
                    + "; the line is the median, "
                    + "the band its confidence interval, outlier runs (modified z-score &gt; 3.5) are ringed"
                    + (row.highlighted.map {
                        "; the point outlined in bold is run \($0), " + medianRunPhrase(report, metric: metric)
                    } ?? "")
                    + ".</p>"
                    + distributionFigure(rows, metric: metric.rawValue, budgetMs: budget))
        }

        if !profile.phases.isEmpty {
            body += section("Phases", id: "phases", content: phaseTable(profile, warmup: report.configuration.warmup))
            if let instructions = profile.instructions {
                let items =
                    [InstructionText.headline(instructions)] + (InstructionText.phases(instructions).map { [$0] } ?? [])
                    + (InstructionText.cost(report).map { [$0] } ?? [])
                    + InstructionText.functions(instructions, limit: 10)
                body += section(
                    "Instructions", id: "instructions",
                    content: "<ul>" + items.map { "<li>" + HTMLEscaping.text($0) + "</li>" }.joined() + "</ul>\n")
            }
        }
        let machineLines = FleetText.machineLines(report)
        if !machineLines.isEmpty {
            body += section(
                FleetText.machineHeading(report).capitalizedFirst, id: "machines",
                content:
                    "<ul class=\"plain\">" + machineLines.map { "<li>" + HTMLEscaping.text($0) + "</li>" }.joined()
                    + "</ul>\n")
        }
        if profile.findings.count > topFindings || profile.findings.isEmpty {
            body += section(
                profile.findings.isEmpty ? "Findings" : "All findings", id: "findings",
                content: findingsList(
                    profile, side: "m", limit: .max,
                    // "≈" is explained once: here only when the list above showed none.
                    explainEstimate: !profile.findings.isEmpty
                        && !topFindingsShown(profile).contains { !$0.estimateMark.isEmpty }))
        }
        body += failedRuns(report)
        return page(title: "launchprof measure — " + report.name, body: body, reportID: report.reportID)
    }

    /// The findings "What to fix" lists: those with a call site first, at most ``topFindings``.
    static func topFindingsShown(_ profile: LaunchProfile) -> [Finding] {
        Array(
            (profile.findings.filter { $0.file != nil } + profile.findings.filter { $0.file == nil }).prefix(
                topFindings))
    }

    /// `5/5 runs ok`, `1 warm-up`, `warm`, `ready: first-frame`, `budget: …`.
    static func measurementFacts(_ report: MeasurementReport) -> [String] {
        let profile = report.profile
        let configuration = report.configuration
        var facts = ["<b>\(profile.successfulRuns)/\(profile.runCount)</b> runs ok"]
        if configuration.warmup > 0 { facts.append("\(configuration.warmup) warm-up") }
        facts.append("mode <b>\(configuration.mode.rawValue)</b>")
        facts.append("ready: <b>" + HTMLEscaping.text(report.readyLabel) + "</b>")
        let budget = profile.verdict.checks.map { "\($0.subject) \(ms($0.budgetMs))" }
        if budget.isEmpty {
            facts.append("budget: <b>none</b>, nothing checked")
        } else {
            facts.append(
                "budget: <b>" + HTMLEscaping.text(budget.joined(separator: ", ")) + "</b> ("
                    + HTMLEscaping.text(configuration.budgetSource.description) + ")")
        }
        return facts
    }

    /// The command, the machine, when and by which version.
    static func provenance(_ report: MeasurementReport) -> [String] {
        let environment = report.environment
        return [
            "<code>" + HTMLEscaping.text(CommandLineText.quoted(report.configuration.command)) + "</code>",
            HTMLEscaping.text(
                "\(environment.hostname), \(environment.cpuCount) × \(environment.cpuModel), "
                    + "\(environment.operatingSystem), clock \(environment.clockSource), machine \(environment.machine)"
                    + (report.machineKeys.count > 1
                        ? " (and \(report.machineKeys.count - 1) more machine(s): pooled)" : "")),
            HTMLEscaping.text(report.createdAt), "launchprof " + HTMLEscaping.text(report.toolVersion),
        ]
    }

    /// The successful counted run whose `metric` is the median (the lower
    /// middle one for an even count), which the timeline draws.
    static func medianRun(of report: MeasurementReport, metric: Phase) -> RunRecord? {
        let measured = report.successfulRuns.compactMap { run in run.milliseconds(metric).map { (run, $0) } }
            .sorted { ($0.1, $0.0.index) < ($1.1, $1.0.index) }
        guard !measured.isEmpty else { return nil }
        return measured[(measured.count - 1) / 2].0
    }

    /// Which run the timeline draws and why: `drawn: the median of the 5
    /// successful runs`; for an even count, the lower of the two middle runs,
    /// with both and the median (their mean, which no run has and which the
    /// budget judges), so the drawing never seems to contradict the verdict.
    static func medianRunPhrase(_ report: MeasurementReport, metric: Phase) -> String {
        let values = report.successfulRuns.compactMap { $0.milliseconds(metric) }.sorted()
        let count = values.count
        guard count > 0 else { return "drawn: the median run" }
        if count % 2 == 1 { return "drawn: the median of the \(count) successful run(s)" }
        let lower = values[count / 2 - 1]
        let upper = values[count / 2]
        return "drawn: the lower of the two middle runs of \(count) (\(ms(lower)) and \(ms(upper))); "
            + "the median, \(ms(Summary.median(values))), is their mean, which no single run has, and it is what the budget judges"
    }

    /// The runs that failed, with their problem.
    static func failedRuns(_ report: MeasurementReport) -> String {
        let failed = report.failedRuns
        guard !failed.isEmpty else { return "" }
        var items = ""
        for run in failed {
            items +=
                "<li>run \(run.index): " + HTMLEscaping.text(run.problemText)
                + (run.stderrPath.map { " — its output: <code>" + HTMLEscaping.text($0) + "</code>" } ?? "") + "</li>"
        }
        return section("\(failed.count) failed run(s)", id: "failed", content: "<ul class=\"plain\">" + items + "</ul>")
    }

    // MARK: - Comparison

    /// A comparison: verdict, metric table, why it changed, both sides' distributions and timelines.
    static func render(_ report: ComparisonReport) -> String {
        var body = verdict(report.outcome)
        let launches = HTMLEscaping.text(ComparisonText.launches(report))
        let stages = report.source == .interleaved ? " · stage \(report.stagesRun) of \(report.stages.count)" : ""
        body += "<header><h1>" + HTMLEscaping.text(report.name) + "</h1>"
        body +=
            "<p class=\"meta\">\(report.source.rawValue) · \(launches)\(stages) · α \(report.settings.alpha) · minimum effect "
            + "\(Milliseconds.oneDecimal(report.settings.minimumEffectPercent))% / \(ms(report.settings.minimumEffectMs))</p>"
        body +=
            "<p class=\"meta sub\">base: <code>"
            + HTMLEscaping.text(CommandLineText.quoted(report.base.configuration.command))
            + "</code><br>head: <code>" + HTMLEscaping.text(CommandLineText.quoted(report.head.configuration.command))
            + "</code></p></header>\n"
        if let problem = report.problem { body += "<p class=\"note bad\">" + HTMLEscaping.text(problem) + "</p>\n" }
        // What to fix, and where, right under the verdict, as on a measurement's page.
        body += whatToFix(report)
        if !report.warnings.isEmpty {
            body +=
                "<ul class=\"warnings\">" + report.warnings.map { "<li>" + HTMLEscaping.text($0) + "</li>" }.joined()
                + "</ul>\n"
        }
        if let decided = InstructionText.decidedBy(report) {
            body += "<p class=\"note\">" + HTMLEscaping.text(decided) + "</p>\n"
        }
        if !report.metrics.isEmpty {
            body += section("Metrics", id: "metrics", content: metricTable(report))
        }
        if let counted = InstructionText.comparisonLines(report) {
            var content =
                "<p class=\"caption\">" + HTMLEscaping.text(InstructionText.ruleNote(report))
                + ".</p><ul class=\"plain\">"
                + counted.summary.map { "<li>" + HTMLEscaping.text($0) + "</li>" }.joined() + "</ul>\n"
            for (heading, names) in [
                ("Functions whose inclusive instructions grew most", counted.grew),
                ("Functions whose inclusive instructions shrank most", counted.shrank),
            ] where !names.isEmpty {
                content +=
                    "<h3>\(heading)</h3><ul class=\"plain\">"
                    + names.map { "<li><code>" + HTMLEscaping.text($0) + "</code></li>" }.joined() + "</ul>\n"
            }
            body += section("Instructions", id: "instructions", content: content)
        }
        if let fleet = report.fleet {
            body += section(
                "Machines", id: "machines",
                content:
                    "<p class=\"caption\">\(HTMLEscaping.text(report.primaryMetric)): "
                    + HTMLEscaping.text(FleetText.method(fleet)) + ".</p>"
                    + "<ul class=\"plain\">"
                    + fleet.machines.map { "<li>" + HTMLEscaping.text(FleetText.shiftLine($0)) + "</li>" }.joined()
                    + fleet.leftOut.map {
                        "<li class=\"warn\">" + HTMLEscaping.text(FleetText.leftOutLine($0)) + "</li>"
                    }.joined() + "</ul>\n")
        }
        body += changesSection(report)

        let metric = report.primaryTotal
        if let metric {
            var rows: [DistributionRow] = []
            for (label, side) in report.sides.map({ ($0.side.rawValue, $0.report) }) {
                guard let statistics = side.profile.statistics(metric) else { continue }
                let points = side.successfulRuns.compactMap { run in
                    run.milliseconds(metric).map { (run: run.index, ms: $0) }
                }
                rows.append(
                    DistributionRow(
                        label: label, points: points, outliers: Set(statistics.outlierRuns),
                        summary: statistics.summary,
                        highlighted: medianRun(of: side, metric: metric)?.index))
            }
            // Across machines: each machine's base row above its head row, coloured by machine.
            let machines = fleetMachines(report)
            if machines.count > 1 {
                let base = DistributionRow.perMachine(
                    report.base, metric: metric, prefix: "base · ", machines: machines, highlighted: nil)
                let head = DistributionRow.perMachine(
                    report.head, metric: metric, prefix: "head · ", machines: machines, highlighted: nil)
                rows = machines.flatMap { key in (base + head).filter { $0.machine?.key == key } }
            }
            let budget = report.head.profile.verdict.check(.phase(metric))?.budgetMs
            if !rows.isEmpty {
                body += section(
                    "Distribution of \(metric.rawValue)", id: "distribution",
                    content:
                        "<p class=\"caption\">each launch of either side; the line is the side's median, the band its confidence "
                        + "interval, outlier runs are ringed.</p>"
                        + distributionFigure(rows, metric: metric.rawValue, budgetMs: budget))
            }

            // Both timelines on one time scale, so their lengths compare at a glance.
            var sides:
                [(
                    label: String, report: MeasurementReport, run: RunRecord, timeline: LaunchTimeline,
                    layout: TimelineLayout
                )] = []
            for (label, side) in report.sides.map({ ($0.side.rawValue, $0.report) }) {
                guard let run = medianRun(of: side, metric: metric), let timeline = run.timeline else { continue }
                sides.append((label, side, run, timeline, TimelineLayout(timeline: timeline, limit: .max)))
            }
            if !sides.isEmpty {
                let budgets = sides.compactMap { $0.report.profile.verdict.check(.phase(metric))?.budgetMs }
                let end = axisEnd(sides.map(\.layout), budgetMs: budgets.max())
                let judged = judgedRange(
                    sides.map { ($0.timeline, $0.layout) }, metric: metric, budgetMs: budgets.max())
                var content =
                    "<p class=\"caption\">each side's median run, on one time scale. Click a span for its details.</p>"
                for side in sides {
                    let value = side.run.milliseconds(metric).map(ms) ?? "—"
                    content +=
                        "<h3>\(side.label): run \(side.run.index), \(metric.rawValue) \(value)</h3>"
                        + "<p class=\"caption\">" + medianRunPhrase(side.report, metric: metric) + ".</p>"
                    content += timelineFigure(
                        side.layout, timeline: side.timeline, findings: side.report.profile.findings,
                        side: String(side.label.prefix(1)),
                        budgetMs: side.report.profile.verdict.check(.phase(metric))?.budgetMs, axisEndMs: end,
                        judgedMs: judged)
                }
                body += section("Timelines of the median runs", id: "timeline", content: content)
            }
        }
        return page(title: "launchprof compare — " + report.name, body: body, reportID: report.reportID)
    }

    /// The machines of a comparison across machines (a fleet comparison, or a side
    /// pooled from several machines), those that took part first; empty otherwise.
    static func fleetMachines(_ report: ComparisonReport) -> [String] {
        let pooled = report.base.machineKeys.count > 1 || report.head.machineKeys.count > 1
        guard report.fleet != nil || pooled else { return [] }
        var keys = report.fleet?.machineKeys ?? []
        for key in report.base.machineKeys + report.head.machineKeys where !keys.contains(key) { keys.append(key) }
        return keys
    }

    // MARK: - Page

    /// The outcome: its word in its tone's colour, and its reason.
    /// With `nothingChecked` (a pass with no budget check), the word is `MEASURED`, in no tone's colour.
    static func verdict(_ outcome: ReportOutcome, nothingChecked: Bool = false) -> String {
        let tone = nothingChecked ? "plain" : toneClass(outcome.tone)
        let word = nothingChecked ? NothingChecked.word : outcome.word
        return "<div class=\"verdict \(tone)\" role=\"status\"><span class=\"word\">\(word)</span>"
            + "<span class=\"reason\">" + HTMLEscaping.text(outcome.headline) + "</span>"
            + "<span class=\"exit\">\(outcome.status.rawValue) · exit \(outcome.exitCode.rawValue)</span></div>\n"
    }

    /// The style class of a tone: `good`, `warn`, `bad`.
    static func toneClass(_ tone: ReportOutcome.Tone) -> String {
        switch tone {
        case .good: return "good"
        case .warning: return "warn"
        case .bad: return "bad"
        }
    }

    /// A titled section of the page.
    static func section(_ title: String, id: String, content: String) -> String {
        "<section id=\"\(id)\"><h2>" + HTMLEscaping.text(title) + "</h2>\n" + content + "</section>\n"
    }

    /// The whole page around `body`: head (with the written report's id, when
    /// it has one, as `<meta name="launchprof-report-id">`), inline style, inline script.
    static func page(title: String, body: String, reportID: String? = nil) -> String {
        var html = "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n"
        // Nothing may be fetched: no script, style, font or image from anywhere but this file.
        html +=
            "<meta http-equiv=\"Content-Security-Policy\" content=\"default-src 'none'; "
            + "style-src 'unsafe-inline'; script-src 'unsafe-inline'\">\n"
        html += "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n"
        html += "<meta name=\"color-scheme\" content=\"light dark\">\n"
        html += "<meta name=\"generator\" content=\"launchprof\">\n"
        if let reportID {
            html +=
                "<meta name=\"launchprof-report-id\" content=\"" + String(reportID.filter(\.isHexDigit).prefix(64))
                + "\">\n"
        }
        html +=
            "<title>" + HTMLEscaping.text(title) + "</title>\n<style>\n" + stylesheet
            + "</style>\n</head>\n<body>\n<main>\n"
        html += body
        html += "<footer>written by launchprof; this page is self-contained and fetches nothing.</footer>\n"
        html += "</main>\n<script>\n" + script + "</script>\n</body>\n</html>\n"
        return html
    }

    /// `value` milliseconds with at most three decimals, for the times the script zooms by: `12`, `12.345`.
    static func coordinate3(_ value: Double) -> String {
        guard value.isFinite else { return "0" }
        let rounded = (value * 1000).rounded() / 1000
        if rounded == rounded.rounded(), abs(rounded) < 1e15 { return String(Int(rounded)) }
        return String(rounded)
    }

    /// `value` with at most one decimal, for SVG coordinates: `12`, `12.3`.
    static func coordinate(_ value: Double) -> String {
        guard value.isFinite else { return "0" }
        let rounded = (value * 10).rounded() / 10
        if rounded == rounded.rounded(), abs(rounded) < 1e15 { return String(Int(rounded)) }
        return String(rounded)
    }
}
