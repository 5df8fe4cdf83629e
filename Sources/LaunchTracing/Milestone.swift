/// A named moment of the launch sequence, with a stable id.
///
/// The ids are stable; every report uses them:
/// `spawn`, `runtimeInit`, `main`, `willFinishLaunching.begin`,
/// `willFinishLaunching.end`, `didFinishLaunching.begin`, `didFinishLaunching.end`,
/// `didBecomeActive`, `firstFrame` and `fullyDrawn`.
///
/// ```swift
/// LaunchTracer.mark(.firstFrame)
/// ```
public struct Milestone: RawRepresentable, Hashable, Sendable, CustomStringConvertible {
    public let rawValue: UInt8

    @inlinable
    public init(rawValue: UInt8) { self.rawValue = rawValue }

    /// The parent's clock just before it made the process (from `LAUNCHPROF_SPAWN_NS`),
    /// or the OS's record of the process start.
    public static let spawn = Milestone(rawValue: 0)
    /// The earliest moment user code ran (a C constructor in the tracer).
    public static let runtimeInit = Milestone(rawValue: 1)
    /// `main` (or `LaunchApplication.main`) started.
    public static let main = Milestone(rawValue: 2)
    public static let willFinishLaunchingBegin = Milestone(rawValue: 3)
    public static let willFinishLaunchingEnd = Milestone(rawValue: 4)
    public static let didFinishLaunchingBegin = Milestone(rawValue: 5)
    public static let didFinishLaunchingEnd = Milestone(rawValue: 6)
    /// The first frame was drawn: the user sees the app.
    public static let firstFrame = Milestone(rawValue: 7)
    /// Extended launch ended: the app is fully usable.
    public static let fullyDrawn = Milestone(rawValue: 8)
    /// The app became active (after the launch hooks returned).
    public static let didBecomeActive = Milestone(rawValue: 9)

    static let ids = [
        "spawn", "runtimeInit", "main",
        "willFinishLaunching.begin", "willFinishLaunching.end",
        "didFinishLaunching.begin", "didFinishLaunching.end",
        "firstFrame", "fullyDrawn", "didBecomeActive",
    ]

    /// Every milestone this version knows, in raw-value order.
    public static let all: [Milestone] = (0..<UInt8(ids.count)).map(Milestone.init(rawValue:))

    /// The stable id, such as `didFinishLaunching.end`.
    public var id: String {
        Int(rawValue) < Self.ids.count ? Self.ids[Int(rawValue)] : "milestone\(rawValue)"
    }

    public var description: String { id }

    /// The milestone with the given stable id, or `milestone<N>` as ``id``
    /// writes one this version does not know.
    public init?(id: String) {
        if let index = Self.ids.firstIndex(of: id) {
            self.init(rawValue: UInt8(index))
        } else if id.hasPrefix("milestone"), let raw = UInt8(id.dropFirst("milestone".count)) {
            self.init(rawValue: raw)
        } else {
            return nil
        }
    }
}

extension Milestone: Codable, CodingKeyRepresentable {
    /// Decodes a stable id (`didFinishLaunching.end`), or `milestone<N>` for a
    /// milestone a newer version knows.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        let text = try container.decode(String.self)
        guard let milestone = Milestone(id: text) else {
            throw DecodingError.dataCorruptedError(in: container, debugDescription: "unknown milestone '\(text)'")
        }
        self = milestone
    }

    /// Encodes the stable id.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(id)
    }

    /// The stable id, as a dictionary key.
    public var codingKey: any CodingKey { MilestoneKey(stringValue: id) }

    /// The milestone a dictionary key names.
    public init?<T: CodingKey>(codingKey: T) {
        self.init(id: codingKey.stringValue)
    }
}

private struct MilestoneKey: CodingKey {
    var stringValue: String
    var intValue: Int? { nil }
    init(stringValue: String) { self.stringValue = stringValue }
    init?(intValue: Int) { nil }
}
