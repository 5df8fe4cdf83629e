import Foundation
import LaunchExport
import Testing

/// The OTLP/JSON spelling of values: ids as hex, 64-bit integers as strings,
/// doubles JSON cannot hold as the protobuf mapping spells them, text escaped.
@Suite("OTLP/JSON encoding")
struct OTLPEncodingTests {
    func encoded(_ attributes: [OTLPAttribute], parent: OTLPSpanID? = nil) throws -> [String: Any] {
        let span = OTLPSpan(
            traceID: OTLPTraceID(high: 0x0102_0304_0506_0708, low: 0x090a_0b0c_0d0e_0f10), spanID: OTLPSpanID(0xab),
            parentSpanID: parent, name: "a \"quoted\"\nname", startUnixNanoseconds: 1_795_000_000_000_000_001,
            endUnixNanoseconds: UInt64.max, attributes: attributes,
            events: [OTLPEvent(name: "e", unixNanoseconds: 5, attributes: [])],
            status: OTLPStatus(code: .error, message: "m"))
        let request = OTLPTraceRequest(resourceAttributes: [], scopeName: "s", scopeVersion: "1", spans: [span])
        let root = try #require(try JSONSerialization.jsonObject(with: Data(request.json())) as? [String: Any])
        let resourceSpans = try #require((root["resourceSpans"] as? [[String: Any]])?.first)
        let scopeSpans = try #require((resourceSpans["scopeSpans"] as? [[String: Any]])?.first)
        return try #require((scopeSpans["spans"] as? [[String: Any]])?.first)
    }

    @Test func idsAreLowercaseHexOfSixteenAndEightBytes() throws {
        let span = try encoded([], parent: OTLPSpanID(0xdead_beef_0000_0001))
        #expect(span["traceId"] as? String == "0102030405060708090a0b0c0d0e0f10")
        #expect(span["spanId"] as? String == "00000000000000ab")
        #expect(span["parentSpanId"] as? String == "deadbeef00000001")
        #expect(try encoded([])["parentSpanId"] == nil)
        #expect(OTLPTraceID(high: 1, low: 2).description == "00000000000000010000000000000002")
    }

    @Test func timesAndIntegersAreDecimalStrings() throws {
        let span = try encoded([OTLPAttribute("n", .int(-42)), OTLPAttribute("m", .int(.min))])
        #expect(span["startTimeUnixNano"] as? String == "1795000000000000001")
        #expect(span["endTimeUnixNano"] as? String == "18446744073709551615")
        let values = (span["attributes"] as? [[String: Any]])?.compactMap {
            ($0["value"] as? [String: Any])?["intValue"] as? String
        }
        #expect(values == ["-42", "-9223372036854775808"])
        #expect(span["kind"] as? Int == 1)
        #expect((span["status"] as? [String: Any])?["code"] as? Int == 2)
    }

    @Test func valuesOfEveryKind() throws {
        let span = try encoded([
            OTLPAttribute("d", .double(1.25)), OTLPAttribute("nan", .double(.nan)),
            OTLPAttribute("inf", .double(-.infinity)),
            OTLPAttribute("b", .bool(false)), OTLPAttribute("s", .string("tab\there \u{1}")),
            OTLPAttribute("a", .strings(["x", "y"])),
        ])
        #expect(span["name"] as? String == "a \"quoted\"\nname")
        let values = try #require(span["attributes"] as? [[String: Any]]).map { $0["value"] as? [String: Any] ?? [:] }
        #expect(values[0]["doubleValue"] as? Double == 1.25)
        #expect(values[1]["doubleValue"] as? String == "NaN")
        #expect(values[2]["doubleValue"] as? String == "-Infinity")
        #expect(values[3]["boolValue"] as? Bool == false)
        #expect(values[4]["stringValue"] as? String == "tab\there \u{1}")
        let array = (values[5]["arrayValue"] as? [String: Any])?["values"] as? [[String: Any]]
        #expect(array?.compactMap { $0["stringValue"] as? String } == ["x", "y"])
    }
}
