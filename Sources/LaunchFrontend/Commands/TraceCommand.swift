import Foundation
import LaunchAnalysis
import LaunchReports
import LaunchTracing

/// `launchprof trace`: prints what one trace file holds — its threads,
/// milestones and spans — as text, JSON or a Chrome trace.
enum TraceCommand {
    static let subcommand = Subcommand(name: "trace", help: help, run: run)

    /// The formats a trace is shown in: a subset of the report formats.
    static let formats: [ReportFormat] = [.terminal, .json, .chromeTrace]

    static let options: [OptionSpec] = [
        .value("--format", "FORMAT", formats.map(\.rawValue).joined(separator: ", ") + " (default terminal)"),
        .value("--output", "FILE", "write there instead of standard output ('-': standard output)"),
    ]

    static let help = """
        USAGE: launchprof trace FILE.\(TraceFormat.fileExtension) [options]

        Prints a trace file — the one a program writes to LAUNCHPROF_TRACE, or a run's
        trace.\(TraceFormat.fileExtension) in <name>.runs/ — as text: the process, its milestones, then each
        thread's spans, indented by nesting, with their start (ms after the spawn, or
        after the runtime started when the trace has no spawn), duration, category and
        call site, and its instants.

        OPTIONS:
        \(OptionSpec.helpSection(options))

        EXIT CODES: 0 printed, 2 error (a missing, unreadable or malformed trace, a bad option, an unwritable output)

        EXAMPLES:
          LAUNCHPROF_TRACE=launch.\(TraceFormat.fileExtension) .build/release/MyApp
          launchprof trace launch.\(TraceFormat.fileExtension)
          launchprof trace Reports/my-app.runs/run-1/trace.\(TraceFormat.fileExtension) --format chrome-trace --output run-1.trace.json
        """

    @Sendable
    static func run(_ arguments: [String]) throws -> ExitCode {
        let parsed = try Arguments(arguments, options: options, positionals: 1, positionalHint: "trace takes one trace file")
        guard let path = parsed.positionals.first else {
            throw UsageError("trace needs a trace file: launchprof trace FILE.\(TraceFormat.fileExtension)")
        }
        let name = parsed.value("--format") ?? ReportFormat.terminal.rawValue
        guard let format = ReportFormat(rawValue: name), formats.contains(format) else {
            throw UsageError("unknown trace format '\(name)': expected " + formats.map(\.rawValue).joined(separator: ", "))
        }
        let output = parsed.value("--output")
        if output == "" { throw UsageError("--output takes a file, or '-' for standard output, not ''") }
        let trace: Trace
        do { trace = try Trace.read(from: path) } catch { throw UsageError(error.description) }

        let bytes: [UInt8]
        switch format {
        case .chromeTrace: bytes = ChromeTraceReport.render(launches: LaunchTimeline.build(from: trace), name: path)
        case .json: bytes = TraceListing.json(trace, outline: TraceOutline(trace))
        default: bytes = Array(TraceListing.text(trace, outline: TraceOutline(trace)).utf8)
        }
        guard let output, output != MeasureOptions.standardOutput else {
            Terminal.standardOutput(bytes)
            return .success
        }
        do { try AtomicFile.write(bytes, to: output) } catch { throw UsageError("cannot write '\(output)': \(error)") }
        Terminal.print("wrote \(output)")
        return .success
    }
}
