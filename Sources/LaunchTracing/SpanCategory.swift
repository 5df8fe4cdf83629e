/// What kind of work a span does, as its author sees it.
///
/// The category is a hint for reports and grouping. The advisor never trusts it
/// to decide whether work blocked: that is measured.
///
/// ```swift
/// let span = LaunchTracer.begin("LoadSettings", category: .io)
/// ```
public struct SpanCategory: RawRepresentable, Hashable, Sendable, CustomStringConvertible {
    public let rawValue: UInt8

    @inlinable
    public init(rawValue: UInt8) { self.rawValue = rawValue }

    /// Work with no more specific category.
    public static let general = SpanCategory(rawValue: 0)
    /// File or disk I/O.
    public static let io = SpanCategory(rawValue: 1)
    /// Network requests.
    public static let network = SpanCategory(rawValue: 2)
    /// Computation: parsing, decoding, indexing.
    public static let compute = SpanCategory(rawValue: 3)
    /// Waiting on a lock, semaphore or another thread.
    public static let wait = SpanCategory(rawValue: 4)
    /// Building or drawing user interface.
    public static let ui = SpanCategory(rawValue: 5)
    /// Database access.
    public static let database = SpanCategory(rawValue: 6)
    /// Spans recorded by LaunchHarness itself (the launch hooks).
    public static let harness = SpanCategory(rawValue: 7)
    /// Work the app deferred until after the first frame (LaunchHarness).
    public static let deferred = SpanCategory(rawValue: 8)
    /// Work the app moved off the main queue (LaunchHarness).
    public static let background = SpanCategory(rawValue: 9)

    /// Stable lowercase names, indexed by raw value.
    static let names = [
        "general", "io", "network", "compute", "wait", "ui", "database", "harness", "deferred", "background",
    ]

    /// The category's stable name, such as `io`; `category<N>` for values this
    /// version does not know.
    public var description: String {
        Int(rawValue) < Self.names.count ? Self.names[Int(rawValue)] : "category\(rawValue)"
    }

    /// The category with the given stable name, or `category<N>` as ``description``
    /// writes one this version does not know.
    public init?(name: String) {
        if let index = Self.names.firstIndex(of: name) {
            self.init(rawValue: UInt8(index))
        } else if name.hasPrefix("category"), let raw = UInt8(name.dropFirst("category".count)) {
            self.init(rawValue: raw)
        } else {
            return nil
        }
    }
}

extension SpanCategory: Codable {
    /// Decodes a stable name (`io`), or `category<N>` for a category a newer version knows.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        let text = try container.decode(String.self)
        guard let category = SpanCategory(name: text) else {
            throw DecodingError.dataCorruptedError(in: container, debugDescription: "unknown span category '\(text)'")
        }
        self = category
    }

    /// Encodes the stable name.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(description)
    }
}
