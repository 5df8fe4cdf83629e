import LaunchAnalysis

/// Where and how to post an export, from the command line and the standard
/// OpenTelemetry environment variables.
///
/// The endpoint is, first found: `--otlp-endpoint URL` (`/v1/traces` appended
/// unless the path ends with it), `OTEL_EXPORTER_OTLP_TRACES_ENDPOINT` (as it
/// is), `OTEL_EXPORTER_OTLP_ENDPOINT` (`/v1/traces` appended). The variables
/// are ignored when `OTEL_TRACES_EXPORTER` is `none`. Headers come from
/// `OTEL_EXPORTER_OTLP_HEADERS`, then `OTEL_EXPORTER_OTLP_TRACES_HEADERS`, then
/// `--otlp-header` (a later one replaces an earlier one of the same name); the
/// timeout from `--otlp-timeout` (seconds), else `OTEL_EXPORTER_OTLP_TRACES_TIMEOUT`
/// or `OTEL_EXPORTER_OTLP_TIMEOUT` (milliseconds), else 10 seconds.
///
/// ```swift
/// let settings = try OTLPExportSettings.resolve(
///     endpoint: "http://localhost:4318", headers: ["authorization=Bearer abc"], timeout: nil,
///     environment: ProcessEnvironment.all)
/// ```
public struct OTLPExportSettings: Sendable, Equatable {
    /// Where the request goes.
    public var endpoint: OTLPEndpoint
    /// Extra request headers (authentication), in order.
    public var headers: [(name: String, value: String)]
    /// The most the whole export may take, retries included, seconds.
    public var timeoutSeconds: Double
    /// `service.name` for the resource (`OTEL_SERVICE_NAME`); nil: the report's name.
    public var serviceName: String?

    /// The variables ``resolve(endpoint:headers:timeout:environment:)`` reads.
    public static let environmentVariables = [
        "OTEL_TRACES_EXPORTER", "OTEL_EXPORTER_OTLP_ENDPOINT", "OTEL_EXPORTER_OTLP_TRACES_ENDPOINT",
        "OTEL_EXPORTER_OTLP_HEADERS", "OTEL_EXPORTER_OTLP_TRACES_HEADERS", "OTEL_EXPORTER_OTLP_TIMEOUT",
        "OTEL_EXPORTER_OTLP_TRACES_TIMEOUT", "OTEL_SERVICE_NAME",
    ]

    /// The timeout when none is given.
    public static let defaultTimeoutSeconds = 10.0

    /// The longest export timeout: one hour (`--otlp-timeout 3600`,
    /// `OTEL_EXPORTER_OTLP_TIMEOUT=3600000`); a longer one is refused.
    public static let maximumTimeoutSeconds = 3_600.0

    /// The shortest timeout a post takes: one millisecond.
    public static let minimumTimeoutSeconds = 0.001

    /// Makes settings from resolved values.
    public init(
        endpoint: OTLPEndpoint, headers: [(name: String, value: String)] = [],
        timeoutSeconds: Double = defaultTimeoutSeconds, serviceName: String? = nil
    ) {
        self.endpoint = endpoint
        self.headers = headers
        self.timeoutSeconds = timeoutSeconds
        self.serviceName = serviceName
    }

    public static func == (lhs: Self, rhs: Self) -> Bool {
        lhs.endpoint == rhs.endpoint && lhs.headers.map(\.name) == rhs.headers.map(\.name)
            && lhs.headers.map(\.value) == rhs.headers.map(\.value) && lhs.timeoutSeconds == rhs.timeoutSeconds
            && lhs.serviceName == rhs.serviceName
    }

    /// The settings for these options and `environment`, or nil when no
    /// endpoint is given by either (nothing is to be posted).
    ///
    /// - Throws: ``ExportError`` naming a bad endpoint, header or timeout, from an option or a variable.
    public static func resolve(
        endpoint option: String?, headers headerOptions: [String], timeout timeoutOption: String?,
        environment: [String: String]
    ) throws(ExportError) -> OTLPExportSettings? {
        let useEnvironment = environment["OTEL_TRACES_EXPORTER"]?.lowercased() != "none"
        let endpoint: OTLPEndpoint
        if let option {
            endpoint = try OTLPEndpoint(baseURL: option)
        } else if useEnvironment, let url = nonEmpty(environment["OTEL_EXPORTER_OTLP_TRACES_ENDPOINT"]) {
            endpoint = try OTLPEndpoint(url: url)
        } else if useEnvironment, let url = nonEmpty(environment["OTEL_EXPORTER_OTLP_ENDPOINT"]) {
            endpoint = try OTLPEndpoint(baseURL: url)
        } else {
            return nil
        }
        var headers: [(name: String, value: String)] = []
        func add(_ header: (name: String, value: String)) {
            headers.removeAll { $0.name.lowercased() == header.name.lowercased() }
            headers.append(header)
        }
        for variable in ["OTEL_EXPORTER_OTLP_HEADERS", "OTEL_EXPORTER_OTLP_TRACES_HEADERS"] {
            for item in (environment[variable] ?? "").split(separator: ",") where !item.allSatisfy(\.isWhitespace) {
                add(try header(String(item), percentEncoded: true))
            }
        }
        for option in headerOptions { add(try header(option, percentEncoded: false)) }

        var timeout = defaultTimeoutSeconds
        if let timeoutOption {
            guard let seconds = DecimalNumber.parse(timeoutOption, in: minimumTimeoutSeconds...maximumTimeoutSeconds)
            else {
                throw .invalidTimeout(timeoutOption)
            }
            timeout = seconds
        } else if let text = nonEmpty(
            environment["OTEL_EXPORTER_OTLP_TRACES_TIMEOUT"] ?? environment["OTEL_EXPORTER_OTLP_TIMEOUT"])
        {
            guard
                let milliseconds = DecimalNumber.parse(
                    text, in: minimumTimeoutSeconds * 1000...maximumTimeoutSeconds * 1000)
            else {
                throw .invalidTimeout(text)
            }
            timeout = milliseconds / 1000
        }
        return OTLPExportSettings(
            endpoint: endpoint, headers: headers, timeoutSeconds: timeout,
            serviceName: nonEmpty(environment["OTEL_SERVICE_NAME"]))
    }

    /// `KEY=VALUE` (the variables' values are percent-encoded, the W3C baggage form).
    static func header(_ text: String, percentEncoded: Bool) throws(ExportError) -> (name: String, value: String) {
        guard let equals = text.firstIndex(of: "=") else { throw .invalidHeader(text) }
        let name = text[..<equals].trimmed(of: " \t")
        var value = String(text[text.index(after: equals)...]).trimmed(of: " \t")
        if percentEncoded { value = percentDecoded(value) ?? value }
        let token = Set("!#$%&'*+-.^_`|~0123456789abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ")
        guard !name.isEmpty, name.allSatisfy({ token.contains($0) }),
            !value.unicodeScalars.contains(where: { $0.value < 0x20 && $0 != "\t" || $0.value == 0x7f })
        else {
            throw .invalidHeader(text)
        }
        if let owned = clientOwnedHeaders.first(where: { $0.lowercased() == name.lowercased() }) {
            throw .clientOwnedHeader(owned)
        }
        return (name, value)
    }

    /// Headers the HTTP client writes itself and a user may not give (in any
    /// case): a second `Host` or `Content-Length` makes the request ambiguous
    /// to every server and proxy on the way.
    public static let clientOwnedHeaders = ["Host", "Content-Length", "Transfer-Encoding", "Connection"]

    static func percentDecoded(_ text: String) -> String? {
        var bytes: [UInt8] = []
        var utf8 = Array(text.utf8)[...]
        while let byte = utf8.popFirst() {
            if byte == UInt8(ascii: "%") {
                guard utf8.count >= 2, let value = UInt8(String(decoding: utf8.prefix(2), as: UTF8.self), radix: 16)
                else { return nil }
                bytes.append(value)
                utf8 = utf8.dropFirst(2)
            } else {
                bytes.append(byte)
            }
        }
        return String(validating: bytes, as: UTF8.self)
    }

    private static func nonEmpty(_ text: String?) -> String? {
        guard let text, !text.allSatisfy(\.isWhitespace) else { return nil }
        return text.trimmed(of: " \t")
    }
}

extension StringProtocol {
    /// The text without leading and trailing characters from `set`.
    func trimmed(of characters: String) -> String {
        String(drop { characters.contains($0) }.reversed().drop { characters.contains($0) }.reversed())
    }
}
