import LaunchAnalysis
import LaunchReports

/// The options of the commands that read stored files (`report`, `trace`, `export`,
/// `merge`), each declared once with its type, default and help (``Option``) and
/// read by that command's Frontend call.
public enum StoredReportOptions {
    // MARK: report

    static let reportFormats = DefaultedOption<[ReportFormat]>(
        option: .init(
            spec: .value("--format", "LIST", "comma-separated: " + HelpText.reportFormats, default: "html")
        ) { text throws(UsageError) in
            do throws(ReportError) { return try ReportFormat.list(text) } catch { throw UsageError("\(error)") }
        })

    static let reportOutput = Option<String>.folder(
        "--output", "DIR",
        "where the files go (default: the report's own folder); '-' writes one format to standard output",
        what: "a folder")

    static let annotations = Option<Bool>.annotations(
        "github: one workflow command per finding (default when GITHUB_ACTIONS=true), or none")

    static let all = Flag("--all", "list every finding in the terminal format, not only the top 5")

    static let noColor = Flag("--no-color", "no colours in the terminal format (NO_COLOR is honoured too)")

    /// `report`'s options, in help order.
    public static let reportTable: [OptionSpec] = [
        reportFormats.spec, reportOutput.spec, annotations.spec, all.spec, noColor.spec, OptionSpec.redactPaths,
        OptionSpec.junitInconclusivePass,
    ]

    // MARK: trace

    /// The formats a trace is shown in: a subset of the report formats.
    static let traceFormats: [ReportFormat] = [.terminal, .json, .chromeTrace]

    static let traceFormat = DefaultedOption<ReportFormat>(
        option: .init(spec: .value("--format", "FORMAT", HelpText.traceFormats, default: "terminal")) {
            text throws(UsageError) in
            guard let format = ReportFormat(rawValue: text), traceFormats.contains(format) else {
                throw UsageError(
                    "unknown trace format '\(text)': expected " + traceFormats.map(\.rawValue).joined(separator: ", "))
            }
            return format
        })

    static let traceOutput = Option<String>.folder(
        "--output", "FILE", "write there instead of standard output ('-': standard output)", what: "a file")

    /// `trace`'s options, in help order.
    public static let traceTable: [OptionSpec] = [traceFormat.spec, traceOutput.spec]

    // MARK: export

    static let otlpFile = Option<String>.text(
        "--otlp", "FILE", "write the spans as an OTLP/JSON ExportTraceServiceRequest to FILE ('-': standard output)")

    /// `export`'s options before the `--otlp-*` ones, in help order.
    public static let exportTable: [OptionSpec] = [otlpFile.spec, OptionSpec.redactPaths]

    // MARK: merge

    static let mergeOutput = Option<String>.text(
        "-o", "FILE", "the pooled report to write (required; also --output); '-' writes it to standard output")

    static let mergeOutputLong = Option<String>.text("--output", "FILE", "the same as -o")

    static let mergeName = Option<String>(
        spec: .value(
            "--name", "NAME", "the pooled report's name (default: the output file's name without .json; fleet for -o -)"
        )
    ) { text throws(UsageError) in
        guard !text.isEmpty else { throw UsageError("--name takes a report name, not ''") }
        return text
    }

    static let pool = Flag(
        "--pool",
        "pool reports of different programs, budgets or metrics (refused by default: the first one's budget "
            + "would judge them all)")

    /// `merge`'s options, in help order.
    public static let mergeTable: [OptionSpec] = [mergeOutput.spec, mergeOutputLong.spec, mergeName.spec, pool.spec]
}

extension Option where Value == String {
    /// Where output goes: `what` (a folder, a file), or `-` for standard output; never empty. A
    /// `defaultValue` is not repeated in the help, which says it in its own words.
    static func folder(
        _ name: String, _ placeholder: String, _ help: String, what: String, default defaultValue: String? = nil
    ) -> Self {
        Self(spec: .value(name, placeholder, help, default: defaultValue, showsDefault: false)) {
            text throws(UsageError) in
            guard !text.isEmpty else { throw UsageError("\(name) takes \(what), or '-' for standard output, not ''") }
            return text
        }
    }
}

extension Option where Value == Bool {
    /// `--annotations github|none`: true for `github`.
    static func annotations(_ help: String) -> Self {
        Self(spec: .value("--annotations", "KIND", help, type: .annotations)) { text throws(UsageError) in
            guard text == "github" || text == "none" else {
                throw UsageError(
                    "--annotations takes github or none, not '\(text)'" + suggestion(text, among: ["github", "none"]))
            }
            return text == "github"
        }
    }
}
