import LaunchAnalysis

/// A report format `launchprof` writes, named as `--format` takes it.
///
/// Each format has one renderer, registered in ``render(_:options:)``; the
/// JSON report is the record every other format can be rendered again from.
///
/// ```swift
/// let formats = try ReportFormat.list("terminal,json")   // [.terminal, .json]
/// ```
public enum ReportFormat: String, Sendable, Hashable, CaseIterable {
    /// The summary a person reads in ten seconds, on standard output.
    case terminal
    /// The complete, lossless report (`<name>.json`).
    case json
    /// GitHub-flavoured Markdown for a pull-request comment or a job summary (`<name>.md`).
    case markdown
    /// One self-contained page with the median run's timeline (`<name>.html`).
    case html
    /// Chrome trace event JSON for Perfetto or `chrome://tracing`: each run a process (`<name>.trace.json`).
    case chromeTrace = "chrome-trace"
    /// JUnit XML for CI test reports: one test case per budget check (`<name>.junit.xml`).
    case junit
    /// hyperfine's `--export-json` format, in seconds (`<name>.hyperfine.json`).
    case hyperfine

    /// The extension of the file it is written to, or nil for a format shown on the terminal.
    public var fileExtension: String? {
        switch self {
        case .terminal: return nil
        case .json: return "json"
        case .markdown: return "md"
        case .html: return "html"
        case .chromeTrace: return "trace.json"
        case .junit: return "junit.xml"
        case .hyperfine: return "hyperfine.json"
        }
    }

    /// Parses a comma-separated `--format` list (spaces around names allowed).
    ///
    /// - Throws: ``ReportError/badFormat(_:problem:)`` naming the value, with
    ///   the formats this version writes.
    public static func list(_ text: String) throws(ReportError) -> [ReportFormat] {
        let names = text.split(separator: ",", omittingEmptySubsequences: false).map {
            String($0).trimmingCharacters(in: .whitespaces)
        }
        let known = allCases.map(\.rawValue).joined(separator: ", ")
        guard !names.isEmpty, !names.contains("") else {
            throw .badFormat(text, problem: "expected a comma-separated list of \(known)")
        }
        var formats: [ReportFormat] = []
        for name in names {
            guard let format = ReportFormat(rawValue: name) else {
                throw .badFormat(name, problem: "unknown format (this version writes: \(known))")
            }
            if !formats.contains(format) { formats.append(format) }
        }
        return formats
    }

    /// Renders `document` in this format.
    public func render(_ document: ReportDocument, options: RenderOptions = RenderOptions()) throws(ReportError)
        -> [UInt8]
    {
        // Every format but JSON (which keeps every byte) draws long strings capped.
        let document = self == .json ? document : document.cappedForDisplay()
        switch self {
        case .terminal: return Array(TerminalReport.render(document, options: options).utf8)
        case .json: return try JSONReport.render(document)
        case .markdown: return Array(MarkdownReport.render(document).utf8)
        case .html: return Array(HTMLReport.render(document).utf8)
        case .chromeTrace: return ChromeTraceReport.render(document)
        case .junit: return Array(JUnitReport.render(document, inconclusiveIsPass: options.inconclusiveIsPass).utf8)
        case .hyperfine: return try HyperfineReport.render(document)
        }
    }
}

/// How a renderer should draw: choices of presentation, never of substance.
public struct RenderOptions: Sendable, Equatable {
    /// ANSI colours (terminal).
    public var color: Bool
    /// How many findings the terminal report lists before "… N more".
    public var findingsLimit: Int

    /// JUnit: an inconclusive comparison is a skipped test rather than a
    /// failure, for a team whose CI treats exit 3 as a pass.
    public var inconclusiveIsPass: Bool

    /// Makes options; by default no colour, five findings, and an inconclusive comparison a JUnit failure.
    public init(color: Bool = false, findingsLimit: Int = 5, inconclusiveIsPass: Bool = false) {
        self.color = color
        self.findingsLimit = findingsLimit
        self.inconclusiveIsPass = inconclusiveIsPass
    }
}
