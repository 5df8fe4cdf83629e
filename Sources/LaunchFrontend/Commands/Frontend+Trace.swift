import Foundation
import LaunchAnalysis
import LaunchReports
import LaunchTracing

extension Frontend {
    /// `launchprof trace`: what one trace file holds, as text, JSON or a Chrome trace.
    @Sendable
    public static func trace(_ arguments: [String], options: [OptionSpec]) throws -> ExitCode {
        let parsed = try Arguments(
            arguments, options: options, positionals: 1, positionalHint: "trace takes one trace file")
        guard let path = parsed.positionals.first else {
            throw UsageError("trace needs a trace file: launchprof trace FILE.\(TraceFormat.fileExtension)")
        }
        let format = try parsed[StoredReportOptions.traceFormat]
        let output = try parsed[StoredReportOptions.traceOutput]
        let trace: Trace
        do { trace = try Trace.read(from: path) } catch { throw UsageError(error.description) }

        let bytes: [UInt8]
        switch format {
        case .chromeTrace: bytes = ChromeTraceReport.render(launches: LaunchTimeline.build(from: trace), name: path)
        case .json: bytes = TraceListing.json(trace, outline: TraceOutline(trace))
        default: bytes = Array(TraceListing.text(trace, outline: TraceOutline(trace)).utf8)
        }
        guard let output, output != LaunchCommandOptions.standardOutput else {
            Terminal.standardOutputDocument(bytes, syntax: format.workflowCommandSyntax)
            return .success
        }
        do { try AtomicFile.write(bytes, to: output) } catch { throw UsageError("cannot write '\(output)': \(error)") }
        Terminal.print("wrote \(output)")
        return .success
    }
}
