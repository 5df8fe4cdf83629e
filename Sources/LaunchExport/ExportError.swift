/// Why an export failed: each case carries the values to name in one line.
public enum ExportError: Error, Equatable, CustomStringConvertible {
    /// An endpoint that is not `http://host[:port][/path]`.
    case invalidEndpoint(String, reason: String)
    /// A header that is not `KEY=VALUE` with a valid HTTP field name and value.
    case invalidHeader(String)
    /// A header the HTTP client sets itself (``OTLPExportSettings/clientOwnedHeaders``), given by the user.
    case clientOwnedHeader(String)
    /// A timeout that is not a positive number.
    case invalidTimeout(String)
    /// The connection could not be made or broke (refused, unreachable, reset, unknown host), after every attempt.
    case connectionFailed(url: String, reason: String, attempts: Int)
    /// The collector answered with an error status, after every attempt.
    case rejected(url: String, status: Int, body: String, attempts: Int)
    /// No answer within the time allowed.
    case timedOut(url: String, seconds: Double, attempts: Int)
    /// The OTLP/JSON file could not be written.
    case unwritableFile(path: String, reason: String)

    /// One lowercase line, naming the value at fault.
    public var description: String {
        switch self {
        case .invalidEndpoint(let text, let reason):
            return "invalid OTLP endpoint '\(text)': \(reason)"
        case .invalidHeader(let text):
            return "invalid OTLP header '\(text)': expected KEY=VALUE with a header name of letters, digits and -"
        case .clientOwnedHeader(let name):
            return "OTLP header '\(name)' is set by launchprof's HTTP client and cannot be given "
                + "(nor can \(OTLPExportSettings.clientOwnedHeaders.filter { $0 != name }.joined(separator: ", ")))"
        case .invalidTimeout(let text):
            return
                "invalid OTLP timeout '\(text)': expected a plain decimal from 0.001 to 3600 seconds (one hour) for --otlp-timeout, "
                + "from 1 to 3600000 milliseconds for OTEL_EXPORTER_OTLP_TIMEOUT"
        case .connectionFailed(let url, let reason, let attempts):
            return "could not send the spans to \(url): \(reason)\(Self.tries(attempts))"
        case .rejected(let url, let status, let body, let attempts):
            let detail =
                body.isEmpty ? "" : ": " + body.prefix(200).split(whereSeparator: \.isNewline).joined(separator: " ")
            return "\(url) refused the spans with HTTP \(status)\(detail)\(Self.tries(attempts))"
        case .timedOut(let url, let seconds, let attempts):
            return "no answer from \(url) within \(Self.seconds(seconds)) s\(Self.tries(attempts))"
        case .unwritableFile(let path, let reason):
            return "cannot write '\(path)': \(reason)"
        }
    }

    private static func tries(_ attempts: Int) -> String { attempts > 1 ? " (\(attempts) attempts)" : "" }

    static func seconds(_ value: Double) -> String {
        value == value.rounded() && abs(value) < 1e9 ? String(Int(value)) : String(value)
    }
}
