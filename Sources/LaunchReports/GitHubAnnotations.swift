import LaunchAnalysis

/// GitHub Actions workflow commands, one per finding (`::error file=…,line=…::`),
/// so findings appear on a pull request's diff. Critical findings are errors,
/// warnings warnings, the rest notices; a comparison annotates the findings new
/// in its head and the spans that got slower in it (what its What to fix lists:
/// ``FindingsDiff/slowerSpans``), each at its file and line.
///
/// GitHub needs a path relative to the repository; a span's site is known by
/// its `#fileID` (`Module/File.swift`) and, in traces that recorded it, its
/// `#filePath` (where the file was when the app was built), so the caller
/// supplies `locate`, which finds the file in the checkout from the two (nil
/// leaves the annotation without a file).
public enum GitHubAnnotations {
    /// The annotation lines for `document`, each ending in a newline.
    ///
    /// - Parameter locate: The repository-relative path of a call site's file,
    ///   from its `#fileID` and its `#filePath` when known.
    public static func render(_ document: ReportDocument, locate: (_ fileID: String, _ filePath: String?) -> String?)
        -> String
    {
        var lines: [String] = []
        switch document {
        case .measurement(let report):
            for finding in report.profile.findings {
                let level =
                    finding.severity == .critical ? "error" : finding.severity == .warning ? "warning" : "notice"
                lines.append(
                    line(
                        level: level, file: finding.file.flatMap { locate($0, finding.filePath) }, line: finding.line,
                        title: "launchprof \(finding.rule.id)", message: finding.recommendation))
            }
            if report.outcome.status != .pass {
                lines.append(
                    line(
                        level: level(of: report.outcome), file: nil, line: nil,
                        title: "launchprof \(report.outcome.status.rawValue)", message: report.outcome.headline))
            }
        case .comparison(let report):
            for change in report.changes.new {
                lines.append(
                    line(
                        level: "warning", file: change.file.flatMap { locate($0, change.filePath) }, line: change.line,
                        title: "launchprof: new \(change.rule.id)", message: change.recommendation))
            }
            for span in report.changes.slowerSpans {
                lines.append(
                    line(
                        level: "warning", file: locate(span.file, span.filePath), line: span.line,
                        title: "launchprof: \(span.baseMs == nil ? "new span" : "slower span") \(span.name)",
                        message: slowerSpanMessage(span)))
            }
            lines.append(
                line(
                    level: level(of: report.outcome), file: nil, line: nil,
                    title: "launchprof compare: \(report.outcome.status.rawValue)",
                    message: report.outcome.headline))
        }
        return lines.map { $0 + "\n" }.joined()
    }

    /// `DecodeCatalog (App/Catalog.swift:42): 12.0 ms → 30.5 ms (+18.5 ms)`, or
    /// `…: 30.5 ms, not in the base` for a span the base did not run.
    static func slowerSpanMessage(_ span: FindingsDiff.SpanChange) -> String {
        let site = "\(span.name) (\(SourceSite.text(file: span.file, line: span.line)))"
        let head = span.headMs.map(Milliseconds.text) ?? "—"
        guard let base = span.baseMs else { return "\(site): \(head), not in the base" }
        return "\(site): \(Milliseconds.text(base)) → \(head) (\(Milliseconds.signed(span.deltaMs)))"
    }

    /// The annotation level of an outcome: an error when the command failed
    /// (exit 2), gave no answer (stopped or refused: ``ReportOutcome/noAnswer``)
    /// or the outcome's tone is bad (a gate failed), a warning for a warning
    /// tone, a notice for a pass.
    static func level(of outcome: ReportOutcome) -> String {
        if outcome.isError || outcome.noAnswer != nil { return "error" }
        switch outcome.tone {
        case .good: return "notice"
        case .warning: return "warning"
        case .bad: return "error"
        }
    }

    static func line(level: String, file: String?, line: Int?, title: String, message: String) -> String {
        var properties: [String] = []
        if let file { properties.append("file=" + property(file)) }
        if file != nil, let line { properties.append("line=\(line)") }
        properties.append("title=" + property(title))
        return "::\(level) \(properties.joined(separator: ","))::\(data(message))"
    }

    /// A command's message: `%`, CR and LF escaped, as GitHub's toolkit does, and
    /// every other control character written visibly (``ControlCharacters``).
    static func data(_ text: String) -> String {
        var out = ""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "%": out += "%25"
            case "\r": out += "%0D"
            case "\n": out += "%0A"
            case _ where ControlCharacters.isEscaped(scalar): out += ControlCharacters.escaped(String(scalar))
            default: out.unicodeScalars.append(scalar)
            }
        }
        return out
    }

    /// A command's property value: as ``data(_:)``, and `:` and `,` too.
    static func property(_ text: String) -> String {
        data(text).replacingOccurrences(of: ":", with: "%3A").replacingOccurrences(of: ",", with: "%2C")
    }
}
