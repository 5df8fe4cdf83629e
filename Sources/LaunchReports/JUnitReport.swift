import LaunchAnalysis

/// JUnit XML, the test-report format CI systems read (GitHub, GitLab, Jenkins,
/// Buildkite…), so a budget or a regression shows up as a failed test.
///
/// A measurement is one `<testsuite>`: a `<testcase classname="launchprof.budget">`
/// per budget check, named by its subject, with a `<failure type="over-budget">`
/// when its median is over the limit, and `time` the measured median in
/// seconds; then a `<testcase classname="launchprof.runs" name="runs">`, always
/// there so that CI tracks it from build to build, with an `<error>` (typed by
/// the outcome's status) when the outcome is no answer (``ReportOutcome/noAnswer``):
/// runs failed, none completed, or the measurement was stopped (by a signal too).
/// Then no case is green: a check that passed on the runs made so far is
/// `<skipped type="interrupted">` (or `type="error"`), not judged.
///
/// A budget span no run recorded (a misspelt name, most likely) is a
/// `<skipped type="not-recorded">` case carrying the warning the terminal
/// prints. The suite's `time` is the launch's median total (the budget cases'
/// times nest: only a total's case carries one).
///
/// A comparison is one `<testsuite>` with a `<testcase classname="launchprof.compare">`
/// per gated metric: a `<failure type="regression">` for a regression, a
/// `<failure type="inconclusive">` when inconclusive (exit 3 fails a CI step;
/// `<skipped>` with `inconclusiveIsPass`); a `head budget` case when the
/// comparison also gates on the head's budget; and the `runs` case. A comparison
/// that was stopped, refused or found nothing to compare has an `<error>` `runs`
/// case and its metrics are `<skipped>`, not judged: never a green case.
///
/// Every value is XML-escaped; characters XML 1.0 cannot hold become U+FFFD.
///
/// ```swift
/// let xml = JUnitReport.render(.measurement(report))
/// ```
public enum JUnitReport {
    /// Renders `document` as JUnit XML.
    ///
    /// An inconclusive comparison exits 3, which fails a CI step: its gated
    /// metrics are failures (`type="inconclusive"`) so the test report agrees.
    /// A team whose CI treats exit 3 as a pass sets `inconclusiveIsPass`, and
    /// they are `<skipped>` instead.
    public static func render(_ document: ReportDocument, inconclusiveIsPass: Bool = false) -> String {
        let suite: Suite
        switch document {
        case .measurement(let report): suite = measurement(report)
        case .comparison(let report): suite = comparison(report, inconclusiveIsPass: inconclusiveIsPass)
        }
        let failures = suite.cases.filter { $0.result?.element == "failure" }.count
        let errors = suite.cases.filter { $0.result?.element == "error" }.count
        let skipped = suite.cases.filter { $0.result?.element == "skipped" }.count
        let counts =
            "tests=\"\(suite.cases.count)\" failures=\"\(failures)\" errors=\"\(errors)\" skipped=\"\(skipped)\""
        // The suite's duration is said outright: the launch's total, not the sum of
        // checks that nest in one another (a hook's time is part of the total's).
        let duration = suite.seconds.map { #" time="\#(decimalSeconds($0))""# } ?? ""
        var lines = [
            #"<?xml version="1.0" encoding="UTF-8"?>"#,
            #"<testsuites name="launchprof" \#(counts)\#(duration)>"#,
            #"  <testsuite name="\#(escaped(suite.name))" \#(counts)\#(duration) timestamp="\#(escaped(suite.timestamp))">"#,
            "    <properties>",
        ]
        let id = document.reportID.map { [("launchprof.reportID", $0)] } ?? []
        for (name, value) in suite.properties + id {
            lines.append(#"      <property name="\#(escaped(name))" value="\#(escaped(value))"/>"#)
        }
        lines.append("    </properties>")
        for test in suite.cases {
            let time = test.seconds.map { #" time="\#(decimalSeconds($0))""# } ?? ""
            let open = #"    <testcase classname="\#(escaped(test.classname))" name="\#(escaped(test.name))"\#(time)"#
            guard test.result != nil || test.output != nil else {
                lines.append(open + "/>")
                continue
            }
            lines.append(open + ">")
            if let result = test.result {
                let attributes = #"message="\#(escaped(result.message))" type="\#(escaped(result.type))""#
                if let body = result.body {
                    lines.append(
                        "      <\(result.element) \(attributes)>\(escaped(body, inAttribute: false))</\(result.element)>"
                    )
                } else {
                    lines.append("      <\(result.element) \(attributes)/>")
                }
            }
            if let output = test.output {
                lines.append("      <system-out>\(escaped(output, inAttribute: false))</system-out>")
            }
            lines.append("    </testcase>")
        }
        lines += ["  </testsuite>", "</testsuites>"]
        return lines.joined(separator: "\n") + "\n"
    }

    private struct Suite {
        var name: String
        var timestamp: String
        var properties: [(String, String)]
        var cases: [TestCase]
        /// The suite's duration: the launch's median total, seconds.
        var seconds: Double? = nil
    }

    private struct TestCase {
        var classname: String
        var name: String
        var seconds: Double?
        var result: Result?
        var output: String?
    }

    private struct Result {
        /// `failure`, `error` or `skipped`.
        var element: String
        var message: String
        var type: String
        var body: String?
    }

    private static func measurement(_ report: MeasurementReport) -> Suite {
        var cases: [TestCase] = []
        let warnings = report.profile.warnings ?? []
        let unrecorded = report.unrecordedBudgetSpans
        for check in report.profile.verdict.checks {
            // Only a total carries a time: the other checks' times are parts of it.
            let total: Bool
            if case .phase(let phase) = check.subject { total = phase.isTotal } else { total = false }
            var test = TestCase(
                classname: "launchprof.budget", name: check.subject.description,
                seconds: total ? check.medianMs / 1000 : nil)
            let runs = check.runsMeasured > 0 ? "; over it in \(check.runsOver) of \(check.runsMeasured) runs" : ""
            if case .span(let name) = check.subject, unrecorded.contains(name) {
                // A budget span no run recorded (a misspelt name?): not a pass, and not a failure the exit code has.
                let prefix = LaunchProfile.unrecordedWarningPrefix(key: "spans", name: name)
                let warning = warnings.first { $0.hasPrefix(prefix) } ?? prefix + ", which no run recorded"
                test.result = Result(element: "skipped", message: warning, type: "not-recorded")
                test.seconds = nil
            } else if !check.passed {
                test.result = Result(
                    element: "failure",
                    message: "\(check.subject) \(Milliseconds.comparison(check.medianMs, check.budgetMs)) (median)"
                        + Self.topFinding(report.profile.findings),
                    type: ReportOutcome.Status.overBudget.rawValue,
                    body:
                        "median \(Milliseconds.text(check.medianMs)), budget \(Milliseconds.text(check.budgetMs))\(runs)"
                )
            } else if let missing = report.outcome.noAnswer {
                test.result = notJudged(
                    missing,
                    "median \(Milliseconds.text(check.medianMs)) within budget \(Milliseconds.text(check.budgetMs))\(runs)"
                )
            } else {
                test.output =
                    "median \(Milliseconds.text(check.medianMs)) within budget \(Milliseconds.text(check.budgetMs))\(runs)"
            }
            cases.append(test)
        }
        // Budget names no run recorded that no check covers (a hook or phase key) still show, with their warning.
        for warning in warnings
        where warning.hasPrefix("the budget's ") && !cases.contains(where: { $0.result?.message == warning }) {
            cases.append(
                TestCase(
                    classname: "launchprof.budget", name: "budget warning",
                    result: Result(element: "skipped", message: warning, type: "not-recorded")))
        }
        cases.append(runsCase(report.outcome, sides: [(nil, report)]))
        let primary = report.profile.primaryPhase.flatMap { report.profile.statistics($0)?.summary.median }
        return Suite(
            name: "launchprof measure — \(report.name)", timestamp: report.createdAt,
            properties: properties(report.outcome) + [
                ("command", CommandLineText.quoted(report.configuration.command)), ("ready", report.readyLabel),
                ("runs", "\(report.profile.successfulRuns)/\(report.profile.runCount) ok"),
                ("launchprof", report.toolVersion),
            ],
            cases: cases, seconds: primary.map { $0 / 1000 })
    }

    private static func comparison(_ report: ComparisonReport, inconclusiveIsPass: Bool) -> Suite {
        var cases: [TestCase] = []
        for metric in report.metrics where metric.gated {
            var test = TestCase(classname: "launchprof.compare", name: metric.name)
            if let note = ComparisonText.Row(metric).presenceNote, metric.presence == .neither {
                test.result = Result(element: "skipped", message: note, type: "not-recorded")
                cases.append(test)
                continue
            }
            if let missing = report.outcome.noAnswer {
                test.result = notJudged(missing, metric.summary)
                cases.append(test)
                continue
            }
            switch metric.verdict {
            case .regression:
                test.result = Result(
                    element: "failure", message: metric.summary + Self.topChange(report.changes),
                    type: MetricVerdict.regression.rawValue,
                    body: "base median \(Milliseconds.text(Summary.median(metric.baseMs))), head median "
                        + "\(Milliseconds.text(Summary.median(metric.headMs)))")
            case .inconclusive:
                test.result = Result(
                    element: inconclusiveIsPass ? "skipped" : "failure", message: "inconclusive: " + metric.summary,
                    type: MetricVerdict.inconclusive.rawValue)
            case .pass, .improvement:
                test.output = "\(metric.verdict.rawValue): \(metric.summary)"
            }
            cases.append(test)
        }
        if report.failOverBudget {
            var test = TestCase(classname: "launchprof.budget", name: "head budget")
            if report.outcome.status == .overBudget {
                test.result = Result(
                    element: "failure", message: report.outcome.reason, type: ReportOutcome.Status.overBudget.rawValue)
            } else if let missing = report.outcome.noAnswer {
                test.result = notJudged(missing, report.head.profile.verdict.summary)
            } else {
                test.output = report.head.profile.verdict.summary
            }
            cases.append(test)
        }
        cases.append(
            runsCase(
                report.outcome, sides: report.sides.map { (label: $0.side.rawValue as String?, report: $0.report) }))
        return Suite(
            name: "launchprof compare — \(report.name)", timestamp: report.createdAt,
            properties: properties(report.outcome)
                + report.sides.map { ($0.side.rawValue, CommandLineText.quoted($0.report.configuration.command)) }
                + [("source", report.source.rawValue), ("launchprof", report.toolVersion)],
            cases: cases)
    }

    private static func properties(_ outcome: ReportOutcome) -> [(String, String)] {
        [
            ("outcome", outcome.status.rawValue), ("exitCode", String(outcome.exitCode.rawValue)),
            ("reason", outcome.reason),
        ]
    }

    /// A case that has no verdict because the whole has none: skipped, typed
    /// `interrupted` or `error`, its message saying so before what it measured.
    private static func notJudged(_ missing: ReportOutcome.NoAnswer, _ what: String) -> Result {
        Result(element: "skipped", message: missing.notJudged + ": " + what, type: missing.rawValue)
    }

    /// The `runs` case: an error when the outcome is one (exit 2) or is no answer
    /// (stopped by a signal too), with the failed runs listed; failed runs the
    /// outcome ignores are listed as output.
    private static func runsCase(_ outcome: ReportOutcome, sides: [(label: String?, report: MeasurementReport)])
        -> TestCase
    {
        let failed = sides.flatMap { side in
            side.report.failedRuns.map {
                (side.label.map { $0 + " " } ?? "") + "run \($0.index): \($0.problemText)"
            }
        }
        var test = TestCase(classname: "launchprof.runs", name: "runs")
        if outcome.isError || outcome.noAnswer != nil {
            test.result = Result(
                element: "error", message: outcome.reason, type: outcome.status.rawValue,
                body: failed.isEmpty ? nil : failed.joined(separator: "\n"))
        } else if !failed.isEmpty {
            test.output = "failed runs, not counted against the gate:\n" + failed.joined(separator: "\n")
        }
        return test
    }

    /// `seconds` as an `xs:decimal` with six decimals (never `1e-05`).
    static func decimalSeconds(_ seconds: Double) -> String {
        guard seconds.isFinite, seconds >= 0 else { return "0" }
        let micros = Int(saturating: (seconds * 1_000_000).rounded())
        let fraction = String(micros % 1_000_000)
        return "\(micros / 1_000_000)." + String(repeating: "0", count: 6 - fraction.count) + fraction
    }

    /// `text` escaped for XML 1.0 (``MarkupEscaping``): in an attribute, line
    /// breaks and tabs too (an XML reader would turn them into spaces).
    /// Characters XML 1.0 cannot hold at all (most controls) become U+FFFD.
    static func escaped(_ text: String, inAttribute: Bool = true) -> String {
        MarkupEscaping.escaped(text, for: inAttribute ? .xmlAttribute : .xmlText)
    }

    /// `; top finding: deferrable-cpu-work BuildSearchIndex at App/Search.swift:42, 120 ms CPU`: the costliest
    /// finding with a call site (the first finding when none has one); nothing without findings.
    static func topFinding(_ findings: [Finding]) -> String {
        guard let top = findings.first(where: { $0.file != nil }) ?? findings.first else { return "" }
        let place = top.file.map { " at " + SourceSite.text(file: $0, line: top.line ?? 0) } ?? ""
        return "; top finding: \(top.rule.id) \(top.span)\(place), \(top.estimateMark)\(ms(top.medianMs)) "
            + FindingText.costKind(top.rule)
    }

    /// `; top change: new deferrable-cpu-work BuildSearchIndex at App/Search.swift:42` (a new finding first,
    /// else the slower span the interval is surest of); nothing when the head added neither.
    static func topChange(_ changes: FindingsDiff) -> String {
        if let finding = changes.newFindingsToFix.first {
            let place = finding.file.map { " at " + SourceSite.text(file: $0, line: finding.line ?? 0) } ?? ""
            return "; top change: new \(finding.rule.id) \(finding.span)\(place)"
        }
        if let span = changes.slowerSpans.first {
            return "; top change: slower \(span.name) at \(SourceSite.text(file: span.file, line: span.line)) "
                + "(\(ComparisonText.spanChange(span, level: changes.spanInterval?.confidence)))"
        }
        return ""
    }
}
