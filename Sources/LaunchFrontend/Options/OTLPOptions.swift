import LaunchAnalysis
import LaunchExport
import LaunchTracing

/// The `--otlp-*` options of `measure` and `export`: where the launches go as
/// OpenTelemetry spans, and what a failed post does to the exit code.
public struct OTLPOptions {
    /// The rows for the option table and help.
    public static let table: [OptionSpec] = [endpoint.spec, header.spec, timeout.spec, bestEffortFlag.spec]

    static let endpoint = Option<String>.text(
        "--otlp-endpoint", "URL",
        "post every launch as OpenTelemetry spans (OTLP/HTTP, JSON) to "
            + "URL/v1/traces (http only; OTEL_EXPORTER_OTLP_ENDPOINT and OTEL_EXPORTER_OTLP_TRACES_ENDPOINT are read too)"
    )

    static let header = RepeatedOption(
        "--otlp-header", "K=V",
        "a request header for the collector, such as authorization "
            + "(repeatable; OTEL_EXPORTER_OTLP_HEADERS is read too)")

    /// Its text is read with the variables' (``OTLPExportSettings/resolve(endpoint:headers:timeout:environment:)``).
    static let timeout = Option<String>.text(
        "--otlp-timeout", "SECONDS",
        "the most the post may take, retries included (default \(DecimalText.plain(OTLPExportSettings.defaultTimeoutSeconds)); "
            + "OTEL_EXPORTER_OTLP_TIMEOUT, in milliseconds, is read too)")

    static let bestEffortFlag = Flag(
        "--otlp-best-effort",
        "a failed post is a warning and the exit code is the measurement's "
            + "(default: exit 2, the report still written)")

    /// Where to post; nil when neither an option nor a variable names an endpoint.
    var settings: OTLPExportSettings?
    var bestEffort: Bool

    /// Reads the options and the OpenTelemetry variables, rejecting bad values before any work.
    init(_ parsed: Arguments) throws {
        var environment: [String: String] = [:]
        for name in OTLPExportSettings.environmentVariables { environment[name] = ProcessEnvironment.value(name) }
        let (endpoint, timeout) = (try parsed[Self.endpoint], try parsed[Self.timeout])
        do {
            settings = try OTLPExportSettings.resolve(
                endpoint: endpoint, headers: parsed[Self.header], timeout: timeout, environment: environment)
        } catch {
            throw UsageError(error.description)
        }
        bestEffort = parsed[Self.bestEffortFlag]
        if settings == nil, timeout != nil || !parsed[Self.header].isEmpty || bestEffort {
            throw UsageError(
                "--otlp-header, --otlp-timeout and --otlp-best-effort need an endpoint: --otlp-endpoint URL or OTEL_EXPORTER_OTLP_ENDPOINT"
            )
        }
    }

    /// Posts `request` when an endpoint is set, and returns the exit code: `code`
    /// when the post succeeded or is best effort, 2 when it failed.
    func post(_ request: OTLPTraceRequest, launches: Int, after code: ExitCode, quiet: Bool) -> ExitCode {
        guard let settings else { return code }
        do {
            _ = try request.post(settings)
            if !quiet {
                Terminal.print("sent \(request.spans.count) spans of \(launches) launches to \(settings.endpoint)")
            }
            return code
        } catch {
            Terminal.standardError("launchprof: \(bestEffort ? "warning: " : "")\(error)")
            return bestEffort ? code : .error
        }
    }

    /// The request for `report`, with fresh random ids.
    func request(for report: MeasurementReport) -> OTLPTraceRequest {
        var identifiers = OTLPIdentifiers()
        return OTLPTraceRequest(
            report: report, serviceName: settings?.serviceName ?? ProcessEnvironment.value("OTEL_SERVICE_NAME"),
            identifiers: &identifiers)
    }
}
