import LaunchFrontend

/// `launchprof export`: its options and help; the Frontend does the rest.
enum ExportCommand {
    static let subcommand = Subcommand(name: "export", help: help) { try Frontend.export($0, options: options) }

    static let options = StoredReportOptions.exportTable + OTLPOptions.table

    static let help = """
        USAGE: launchprof export REPORT.json [--otlp FILE] [--otlp-endpoint URL] [options]

        Sends a saved measurement to a tracing backend as OpenTelemetry spans: one
        trace per launch, with its phases, hooks and the app's own spans. Writes an
        OTLP/JSON file, posts over OTLP/HTTP, or both.

        OPTIONS:
        \(HelpText.options(options))

        ENVIRONMENT: OTEL_EXPORTER_OTLP_ENDPOINT, OTEL_EXPORTER_OTLP_TRACES_ENDPOINT,
          OTEL_EXPORTER_OTLP_HEADERS, OTEL_EXPORTER_OTLP_TIMEOUT, OTEL_SERVICE_NAME

        EXIT CODES: 0 written and sent, 2 error (a missing, malformed or newer report,
                    an unwritable file, or a post that failed after its retries)

        EXAMPLES:
          launchprof export Reports/sample-naive.json --otlp launches.otlp.json
          launchprof export Reports/sample-naive.json --otlp-endpoint http://localhost:4318
        """
}
