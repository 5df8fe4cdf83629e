import LaunchReports
import LaunchTracing

extension OTLPTraceRequest {
    /// The request in OTLP/JSON: the protobuf JSON mapping of
    /// `ExportTraceServiceRequest`, with OTLP's exceptions (trace and span ids
    /// as lowercase hex, not base64; enums as integers).
    ///
    /// 64-bit integers (times, `intValue`) are decimal strings, as the mapping
    /// writes them. Each span is on a line of its own, so a diff of two exports
    /// reads span by span. UTF-8; about 1.1 KB a span with CPU accounting.
    public func json() -> [UInt8] {
        // Room for the longest spans: pages of the buffer never written cost nothing,
        // and a buffer too small would mean writing everything again.
        let capacity = spans.reduce(4_096 + Self.size(resourceAttributes)) {
            $0 + 512 + 2 * $1.name.utf8.count + Self.size($1.attributes)
                + $1.events.reduce(0) { $0 + 256 + Self.size($1.attributes) }
        }
        return JSONBytes.bytes(capacity: capacity) { json in
            json.raw(#"{"resourceSpans":[{"resource":{"attributes":"#)
            Self.write(resourceAttributes, into: &json)
            json.raw(#"},"scopeSpans":[{"scope":{"name":"#)
            json.string(scopeName)
            json.raw(#","version":"#)
            json.string(scopeVersion)
            json.raw(#"},"spans":["#)
            for (index, span) in spans.enumerated() {
                json.raw(index == 0 ? "\n" : ",\n")
                Self.write(span, into: &json)
            }
            json.raw("\n]}]}]}\n")
        }
    }

    /// About the most bytes `attributes` take in JSON (a string escaped at most doubles, but for control characters).
    private static func size(_ attributes: [OTLPAttribute]) -> Int {
        attributes.reduce(2) { total, attribute in
            let value: Int
            switch attribute.value {
            case .string(let text): value = 2 * text.utf8.count
            case .strings(let texts): value = texts.reduce(32) { $0 + 24 + 2 * $1.utf8.count }
            case .int, .double, .bool: value = 24
            }
            return total + 48 + 2 * attribute.key.utf8.count + value
        }
    }

    private static func write(_ span: OTLPSpan, into json: inout JSONBytes) {
        json.raw(#"{"traceId":""#)
        hex(span.traceID.high, into: &json)
        hex(span.traceID.low, into: &json)
        json.raw(#"","spanId":""#)
        hex(span.spanID.value, into: &json)
        if let parent = span.parentSpanID {
            json.raw(#"","parentSpanId":""#)
            hex(parent.value, into: &json)
        }
        json.raw(#"","name":"#)
        json.string(span.name)
        json.raw(#","kind":"#)
        json.integer(span.kind.rawValue)
        json.raw(#","startTimeUnixNano":""#)
        json.integer(span.startUnixNanoseconds)
        json.raw(#"","endTimeUnixNano":""#)
        json.integer(span.endUnixNanoseconds)
        json.raw(#"","attributes":"#)
        write(span.attributes, into: &json)
        if !span.events.isEmpty {
            json.raw(#","events":["#)
            for (index, event) in span.events.enumerated() {
                if index > 0 { json.byte(UInt8(ascii: ",")) }
                json.raw(#"{"timeUnixNano":""#)
                json.integer(event.unixNanoseconds)
                json.raw(#"","name":"#)
                json.string(event.name)
                json.raw(#","attributes":"#)
                write(event.attributes, into: &json)
                json.byte(UInt8(ascii: "}"))
            }
            json.byte(UInt8(ascii: "]"))
        }
        if let status = span.status {
            json.raw(#","status":{"code":"#)
            json.integer(status.code.rawValue)
            if !status.message.isEmpty {
                json.raw(#","message":"#)
                json.string(status.message)
            }
            json.byte(UInt8(ascii: "}"))
        }
        json.byte(UInt8(ascii: "}"))
    }

    private static func write(_ attributes: [OTLPAttribute], into json: inout JSONBytes) {
        json.byte(UInt8(ascii: "["))
        for (index, attribute) in attributes.enumerated() {
            if index > 0 { json.byte(UInt8(ascii: ",")) }
            json.raw(#"{"key":"#)
            json.string(attribute.key)
            json.raw(#","value":"#)
            write(attribute.value, into: &json)
            json.byte(UInt8(ascii: "}"))
        }
        json.byte(UInt8(ascii: "]"))
    }

    private static func write(_ value: OTLPValue, into json: inout JSONBytes) {
        switch value {
        case .string(let text):
            json.raw(#"{"stringValue":"#)
            json.string(text)
        case .int(let number):
            json.raw(#"{"intValue":""#)
            if number < 0 { json.byte(UInt8(ascii: "-")) }
            json.integer(number.magnitude)
            json.byte(UInt8(ascii: "\""))
        case .double(let number):
            json.raw(#"{"doubleValue":"#)
            // The protobuf JSON mapping spells the values JSON has no number for.
            if number.isNaN {
                json.raw(#""NaN""#)
            } else if number.isInfinite {
                json.raw(number < 0 ? #""-Infinity""# : #""Infinity""#)
            } else {
                json.double(number)
            }
        case .bool(let flag):
            json.raw(#"{"boolValue":"#)
            json.raw(flag ? "true" : "false")
        case .strings(let texts):
            json.raw(#"{"arrayValue":{"values":["#)
            for (index, text) in texts.enumerated() {
                if index > 0 { json.byte(UInt8(ascii: ",")) }
                json.raw(#"{"stringValue":"#)
                json.string(text)
                json.byte(UInt8(ascii: "}"))
            }
            json.raw("]}")
        }
        json.byte(UInt8(ascii: "}"))
    }

    /// 16 lowercase hex digits of `value`.
    private static func hex(_ value: UInt64, into json: inout JSONBytes) {
        var shift: UInt64 = 60
        while true {
            json.byte(OTLPHex.digits[Int((value >> shift) & 0xf)])
            if shift == 0 { break }
            shift -= 4
        }
    }
}

extension OTLPTraceRequest {
    /// Writes ``json()`` to `path` atomically (a reader never sees half a file).
    ///
    /// - Throws: ``ExportError/unwritableFile(path:reason:)``.
    public func write(to path: String) throws(ExportError) {
        do { try AtomicFile.write(json(), to: path) } catch {
            throw .unwritableFile(path: path, reason: error.description)
        }
    }

    /// Posts ``json()`` to the settings' endpoint (see ``OTLPHTTPClient``).
    public func post(_ settings: OTLPExportSettings) throws(ExportError) -> OTLPDelivery {
        try OTLPHTTPClient.post(json(), settings: settings)
    }
}
