/// Where OTLP/HTTP traces are posted: a plain `http://` URL's host, port and path.
///
/// HTTPS is not spoken here: send to an OpenTelemetry Collector on the same
/// machine or network, which forwards over TLS.
public struct OTLPEndpoint: Sendable, Equatable, CustomStringConvertible {
    /// The host name or address (an IPv6 address without its brackets).
    public var host: String
    /// The TCP port (80 when the URL gives none).
    public var port: UInt16
    /// The request path, such as `/v1/traces`.
    public var path: String

    /// The path OTLP/HTTP puts traces at, under a base URL.
    public static let tracesPath = "/v1/traces"

    /// Parses `http://host[:port][/path]`; the path is kept as it is.
    ///
    /// A query (`?q=1`) or fragment (`#f`) is refused: the traces path is
    /// appended to the URL's path, and a collector takes no query.
    ///
    /// - Throws: ``ExportError/invalidEndpoint(_:reason:)`` for another scheme, no host, a bad port,
    ///   a query or a fragment.
    public init(url text: String) throws(ExportError) {
        guard text.hasPrefix("http://") else {
            let reason =
                text.hasPrefix("https://")
                ? "https is not supported; send to a local OpenTelemetry Collector over http, which forwards over TLS"
                : "expected http://host[:port][/path]"
            throw .invalidEndpoint(text, reason: reason)
        }
        let rest = text.dropFirst("http://".count)
        let authority = rest.prefix { $0 != "/" && $0 != "?" && $0 != "#" }
        let path = String(rest.dropFirst(authority.count))
        // A query or fragment has no sure place once /v1/traces is appended: refused, never misplaced.
        guard !path.contains("?"), !path.contains("#") else {
            throw .invalidEndpoint(
                text, reason: "a query (?...) or fragment (#...) is not supported; expected http://host[:port][/path]")
        }
        guard
            !path.unicodeScalars.contains(where: {
                $0 == " " || $0.value < 0x20 || $0.value == 0x7f || $0.properties.isWhitespace
            })
        else {
            throw .invalidEndpoint(text, reason: "the path has a space, a line break or a control character")
        }
        var host = Substring(authority)
        var portText: Substring?
        if host.hasPrefix("[") {
            guard let close = host.firstIndex(of: "]") else {
                throw .invalidEndpoint(text, reason: "unclosed [ in the host")
            }
            let after = host[host.index(after: close)...]
            if after.hasPrefix(":") {
                portText = after.dropFirst()
            } else if !after.isEmpty {
                throw .invalidEndpoint(text, reason: "expected :port after the address")
            }
            host = host[host.index(after: host.startIndex)..<close]
        } else if let colon = host.lastIndex(of: ":") {
            portText = host[host.index(after: colon)...]
            host = host[..<colon]
        }
        guard !host.isEmpty, !host.contains("@") else { throw .invalidEndpoint(text, reason: "no host") }
        var port: UInt16 = 80
        if let portText {
            guard let number = UInt16(portText), number > 0 else {
                throw .invalidEndpoint(text, reason: "bad port '\(portText)'")
            }
            port = number
        }
        self.host = String(host)
        self.port = port
        self.path = path.isEmpty ? "/" : path
    }

    /// The endpoint for a base URL (`OTEL_EXPORTER_OTLP_ENDPOINT`, `--otlp-endpoint`):
    /// `/v1/traces` appended to its path, unless the path already ends with it.
    public init(baseURL text: String) throws(ExportError) {
        try self.init(url: text)
        if !path.hasSuffix(Self.tracesPath) {
            path = (path.hasSuffix("/") ? String(path.dropLast()) : path) + Self.tracesPath
        }
    }

    /// `http://host:port/path`.
    public var description: String {
        let shownHost = host.contains(":") ? "[\(host)]" : host
        return "http://\(shownHost):\(port)\(path)"
    }
}
