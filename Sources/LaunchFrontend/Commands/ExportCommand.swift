import Foundation
import LaunchAnalysis
import LaunchExport
import LaunchReports

/// `launchprof export`: a saved measurement as OpenTelemetry spans, written
/// as an OTLP/JSON file and/or posted to a collector.
enum ExportCommand {
    static let subcommand = Subcommand(name: "export", help: help, run: run)

    static let options: [OptionSpec] = [
        .value("--otlp", "FILE", "write the spans as an OTLP/JSON ExportTraceServiceRequest to FILE ('-': standard output)"),
        .flag("--redact-paths", RedactPaths.help),
    ] + OTLPOptions.table

    static let help = """
        USAGE: launchprof export REPORT.json [--otlp FILE] [--otlp-endpoint URL] [options]

        Sends a saved measurement to a tracing backend as OpenTelemetry spans: one
        trace per launch, with its phases, hooks and the app's own spans. Writes an
        OTLP/JSON file, posts over OTLP/HTTP, or both.

        OPTIONS:
        \(OptionSpec.helpSection(options))

        ENVIRONMENT: OTEL_EXPORTER_OTLP_ENDPOINT, OTEL_EXPORTER_OTLP_TRACES_ENDPOINT,
          OTEL_EXPORTER_OTLP_HEADERS, OTEL_EXPORTER_OTLP_TIMEOUT, OTEL_SERVICE_NAME

        EXIT CODES: 0 written and sent, 2 error (a missing, malformed or newer report,
                    an unwritable file, or a post that failed after its retries)

        EXAMPLES:
          launchprof export Reports/sample-naive.json --otlp launches.otlp.json
          launchprof export Reports/sample-naive.json --otlp-endpoint http://localhost:4318
        """

    @Sendable
    static func run(_ arguments: [String]) throws -> ExitCode {
        let parsed = try Arguments(arguments, options: options, positionals: 1, positionalHint: "export takes one report file")
        guard let path = parsed.positionals.first else { throw UsageError("export needs a report file: launchprof export REPORT.json --otlp FILE") }
        let otlp = try OTLPOptions(parsed)
        let file = parsed.value("--otlp")
        guard file != nil || otlp.settings != nil else {
            throw UsageError("export needs somewhere to send the spans: --otlp FILE, --otlp-endpoint URL or OTEL_EXPORTER_OTLP_ENDPOINT")
        }
        let report: MeasurementReport
        do {
            guard case .measurement(let measurement) = try JSONReport.readDocument(from: path) else {
                throw UsageError("'\(path)' is a comparison; export takes a measurement report")
            }
            report = measurement
        } catch let error as ReportError {
            throw UsageError(error.description)
        }
        let request = otlp.request(for: parsed.has("--redact-paths") ? report.redactingPaths() : report)
        if let file {
            if file == "-" {
                Terminal.standardOutput(request.json())
            } else {
                do { try request.write(to: file) } catch { throw UsageError(error.description) }
                Terminal.print("wrote \(file)")
            }
        }
        return otlp.post(request, launches: report.runs.filter { $0.status != .interrupted }.count, after: .success, quiet: file == "-")
    }
}
