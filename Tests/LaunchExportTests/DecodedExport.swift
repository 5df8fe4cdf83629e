import Foundation
import Testing

/// An OTLP/JSON export read back with `JSONSerialization`, independently of
/// the encoder: what the tests check spans, parents and attributes against.
struct DecodedExport {
    struct Span {
        var traceID: String
        var spanID: String
        var parentSpanID: String?
        var name: String
        var start: UInt64
        var end: UInt64
        /// Attribute values as their JSON objects (`["intValue": "7"]`).
        var attributes: [String: [String: Any]]
        var events: [(name: String, time: UInt64, attributes: [String: [String: Any]])]

        func string(_ key: String) -> String? { attributes[key]?["stringValue"] as? String }
        func int(_ key: String) -> Int64? { (attributes[key]?["intValue"] as? String).flatMap { Int64($0) } }
        func bool(_ key: String) -> Bool? { attributes[key]?["boolValue"] as? Bool }
    }

    var resource: [String: [String: Any]]
    var scope: [String: Any]
    var spans: [Span]

    init(_ data: Data) throws {
        let root = try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
        let resourceSpans = try #require((root["resourceSpans"] as? [[String: Any]])?.first)
        resource = Self.attributes(try #require((resourceSpans["resource"] as? [String: Any])?["attributes"] as? [[String: Any]]))
        let scopeSpans = try #require((resourceSpans["scopeSpans"] as? [[String: Any]])?.first)
        scope = try #require(scopeSpans["scope"] as? [String: Any])
        spans = try (scopeSpans["spans"] as? [[String: Any]] ?? []).map { span in
            Span(
                traceID: try Self.field(span, "traceId"), spanID: try Self.field(span, "spanId"),
                parentSpanID: span["parentSpanId"] as? String, name: try Self.field(span, "name"),
                start: try Self.nanoseconds(span, "startTimeUnixNano"), end: try Self.nanoseconds(span, "endTimeUnixNano"),
                attributes: Self.attributes(span["attributes"] as? [[String: Any]] ?? []),
                events: try (span["events"] as? [[String: Any]] ?? []).map { event in
                    (try Self.field(event, "name"), try Self.nanoseconds(event, "timeUnixNano"),
                     Self.attributes(event["attributes"] as? [[String: Any]] ?? []))
                })
        }
    }

    private static func field<Value>(_ object: [String: Any], _ key: String) throws -> Value {
        try #require(object[key] as? Value, "\(key) missing or of the wrong type")
    }

    /// A time: a decimal string, as the protobuf JSON mapping writes 64-bit integers.
    private static func nanoseconds(_ object: [String: Any], _ key: String) throws -> UInt64 {
        let text: String = try field(object, key)
        return try #require(UInt64(text), "\(key) is not a decimal string")
    }

    func resourceString(_ key: String) -> String? { resource[key]?["stringValue"] as? String }

    /// The spans of each trace, in the order they came.
    var traces: [String: [Span]] { Dictionary(grouping: spans, by: \.traceID) }

    private static func attributes(_ list: [[String: Any]]) -> [String: [String: Any]] {
        var result: [String: [String: Any]] = [:]
        for item in list {
            if let key = item["key"] as? String, let value = item["value"] as? [String: Any] { result[key] = value }
        }
        return result
    }
}
