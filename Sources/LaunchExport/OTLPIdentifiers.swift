/// A trace id: 16 bytes, written as 32 lowercase hexadecimal digits in OTLP/JSON.
public struct OTLPTraceID: Sendable, Hashable, CustomStringConvertible {
    /// The first 8 bytes, most significant first.
    public var high: UInt64
    /// The last 8 bytes.
    public var low: UInt64

    /// Makes an id from its two halves.
    public init(high: UInt64, low: UInt64) {
        self.high = high
        self.low = low
    }

    /// 32 lowercase hexadecimal digits, as OTLP/JSON writes a trace id.
    public var description: String { OTLPHex.text(high) + OTLPHex.text(low) }
}

/// A span id: 8 bytes, written as 16 lowercase hexadecimal digits in OTLP/JSON.
public struct OTLPSpanID: Sendable, Hashable, CustomStringConvertible {
    /// The 8 bytes, most significant first.
    public var value: UInt64

    /// Makes an id.
    public init(_ value: UInt64) { self.value = value }

    /// 16 lowercase hexadecimal digits, as OTLP/JSON writes a span id.
    public var description: String { OTLPHex.text(value) }
}

/// Makes the random trace and span ids of an export.
///
/// The ids come from a random number generator: the kernel's (`/dev/urandom`,
/// read 4 KiB at a time) by default, so ids from different runs and machines do not collide;
/// a test passes a seeded generator to get the same ids every time. An id is
/// never all zeros (OTLP's "no id").
///
/// ```swift
/// var ids = OTLPIdentifiers()
/// let trace = ids.traceID()   // 5b8efff798038103d269b633813fc60c
/// ```
public struct OTLPIdentifiers {
    private var source: any RandomNumberGenerator

    /// Ids from the kernel's random numbers.
    public init() { source = Platform.SystemRandom() }

    /// Ids from `source`: the same source state gives the same ids.
    public init(source: some RandomNumberGenerator) { self.source = source }

    /// A new random trace id.
    public mutating func traceID() -> OTLPTraceID {
        while true {
            let id = OTLPTraceID(high: source.next(), low: source.next())
            if id.high != 0 || id.low != 0 { return id }
        }
    }

    /// A new random span id.
    public mutating func spanID() -> OTLPSpanID {
        while true {
            let value = source.next()
            if value != 0 { return OTLPSpanID(value) }
        }
    }
}

/// Lowercase hexadecimal digits of ids.
enum OTLPHex {
    static let digits = Array("0123456789abcdef".utf8)

    /// 16 digits for `value`, most significant first.
    static func text(_ value: UInt64) -> String {
        String(decoding: (0..<16).map { digits[Int((value >> (60 - 4 * UInt64($0))) & 0xf)] }, as: UTF8.self)
    }
}
