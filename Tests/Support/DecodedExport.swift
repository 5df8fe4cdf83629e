import Foundation

/// An OTLP/JSON export read back with `JSONSerialization`, independently of
/// the encoder: what the tests check spans, parents and attributes against.
public struct DecodedExport {
    /// A document that is not the OTLP/JSON expected.
    public struct Malformed: Error, CustomStringConvertible {
        public var description: String
    }

    public struct Span {
        public var traceID: String
        public var spanID: String
        public var parentSpanID: String?
        public var name: String
        public var start: UInt64
        public var end: UInt64
        /// Attribute values as their JSON objects (`["intValue": "7"]`).
        public var attributes: [String: [String: Any]]
        public var events: [(name: String, time: UInt64, attributes: [String: [String: Any]])]

        public func string(_ key: String) -> String? { attributes[key]?["stringValue"] as? String }
        public func int(_ key: String) -> Int64? { (attributes[key]?["intValue"] as? String).flatMap { Int64($0) } }
        public func bool(_ key: String) -> Bool? { attributes[key]?["boolValue"] as? Bool }
    }

    public var resource: [String: [String: Any]]
    public var scope: [String: Any]
    public var spans: [Span]

    public init(_ data: Data) throws {
        let root = try Self.require(try JSONSerialization.jsonObject(with: data) as? [String: Any], "not a JSON object")
        let resourceSpans = try Self.require((root["resourceSpans"] as? [[String: Any]])?.first, "no resourceSpans")
        resource = Self.attributes(
            try Self.require(
                (resourceSpans["resource"] as? [String: Any])?["attributes"] as? [[String: Any]],
                "no resource attributes"))
        let scopeSpans = try Self.require((resourceSpans["scopeSpans"] as? [[String: Any]])?.first, "no scopeSpans")
        scope = try Self.require(scopeSpans["scope"] as? [String: Any], "no scope")
        spans = try (scopeSpans["spans"] as? [[String: Any]] ?? []).map { span in
            Span(
                traceID: try Self.field(span, "traceId"), spanID: try Self.field(span, "spanId"),
                parentSpanID: span["parentSpanId"] as? String, name: try Self.field(span, "name"),
                start: try Self.nanoseconds(span, "startTimeUnixNano"),
                end: try Self.nanoseconds(span, "endTimeUnixNano"),
                attributes: Self.attributes(span["attributes"] as? [[String: Any]] ?? []),
                events: try (span["events"] as? [[String: Any]] ?? []).map { event in
                    (
                        try Self.field(event, "name"), try Self.nanoseconds(event, "timeUnixNano"),
                        Self.attributes(event["attributes"] as? [[String: Any]] ?? [])
                    )
                })
        }
    }

    private static func field<Value>(_ object: [String: Any], _ key: String) throws -> Value {
        try require(object[key] as? Value, "\(key) missing or of the wrong type")
    }

    /// A time: a decimal string, as the protobuf JSON mapping writes 64-bit integers.
    private static func nanoseconds(_ object: [String: Any], _ key: String) throws -> UInt64 {
        let text: String = try field(object, key)
        return try require(UInt64(text), "\(key) is not a decimal string")
    }

    private static func require<Value>(_ value: Value?, _ problem: String) throws -> Value {
        guard let value else { throw Malformed(description: problem) }
        return value
    }

    public func resourceString(_ key: String) -> String? { resource[key]?["stringValue"] as? String }

    /// The spans of each trace, in the order they came.
    public var traces: [String: [Span]] { Dictionary(grouping: spans, by: \.traceID) }

    private static func attributes(_ list: [[String: Any]]) -> [String: [String: Any]] {
        var result: [String: [String: Any]] = [:]
        for item in list {
            if let key = item["key"] as? String, let value = item["value"] as? [String: Any] { result[key] = value }
        }
        return result
    }
}
