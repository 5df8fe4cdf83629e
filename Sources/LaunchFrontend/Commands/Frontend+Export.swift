import Foundation
import LaunchAnalysis
import LaunchExport
import LaunchReports

extension Frontend {
    /// `launchprof export`: a saved measurement as OpenTelemetry spans, to a file and/or a collector.
    @Sendable
    public static func export(_ arguments: [String], options: [OptionSpec]) throws -> ExitCode {
        let parsed = try Arguments(
            arguments, options: options, positionals: 1, positionalHint: "export takes one report file")
        guard let path = parsed.positionals.first else {
            throw UsageError("export needs a report file: launchprof export REPORT.json --otlp FILE")
        }
        let otlp = try OTLPOptions(parsed)
        let file = try parsed[StoredReportOptions.otlpFile]
        guard file != nil || otlp.settings != nil else {
            throw UsageError(
                "export needs somewhere to send the spans: --otlp FILE, --otlp-endpoint URL or OTEL_EXPORTER_OTLP_ENDPOINT"
            )
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
        let request = otlp.request(for: parsed[LaunchCommandOptions.redactPaths] ? report.redactingPaths() : report)
        if let file {
            if file == "-" {
                Terminal.standardOutputDocument(request.json(), syntax: .json)
            } else {
                try request.write(to: file)
                Terminal.print("wrote \(file)")
            }
        }
        return otlp.post(
            request, launches: report.runs.filter { $0.status != .interrupted }.count, after: .success,
            quiet: file == "-")
    }
}
