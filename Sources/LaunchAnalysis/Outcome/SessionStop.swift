/// Why a session ended before its last launch, as a value with its data: what
/// kind of stop, which launch, which side of a comparison, and the words of what
/// failed. Its sentence is made in one place (``text``) and kept as the report's
/// `stopReason`; the value is kept beside it (JSON `stop`).
///
/// ```swift
/// SessionStop(.couldNotStart, launch: .run(2, of: 10), detail: "cannot start '/app': permission denied").text
/// // "run 2 of 10 could not be started: cannot start '/app': permission denied"
/// ```
public struct SessionStop: Sendable, Equatable, Codable {
    /// What stopped the session.
    public enum Kind: String, Sendable, Codable, CaseIterable {
        /// A launch could not be started after others were measured (``detail``: the error).
        case couldNotStart
        /// A warm-up failed (``detail``: its run's problem): every run would fail the same way.
        case warmupFailed
        /// `--prepare` failed before a launch (``detail``: the failure).
        case prepareFailed
        /// `--cleanup` failed at the end, every launch made (``detail``: the failure).
        case cleanupFailed
        /// The program could not be made ready to count under valgrind (``detail``: the error).
        case cannotCount
    }

    /// Which launch of a session.
    public enum Launch: Sendable, Equatable, CustomStringConvertible {
        /// A warm-up, counted from 1.
        case warmup(Int)
        /// A counted run, from 1, of the session's `of`.
        case run(Int, of: Int)
        /// The one process of hot mode.
        case hot
        /// A launch counted under valgrind, from 1 (`--metric instructions`).
        case counted(Int)

        /// "warm-up 1", "run 2 of 10", "the hot launch", "counted launch 3".
        public var description: String {
            switch self {
            case .warmup(let number): return "warm-up \(number)"
            case .run(let number, let total): return "run \(number) of \(total)"
            case .hot: return "the hot launch"
            case .counted(let number): return "counted launch \(number)"
            }
        }
    }

    /// What stopped the session.
    public var kind: Kind
    /// The launch it stopped at (before, for a failed prepare); nil for a cleanup or a program that cannot be counted.
    public var launch: Launch?
    /// The side of a comparison that stopped, when the report is the other side's; nil otherwise.
    public var side: ComparisonSide?
    /// What failed, in its own words: the error, or the failed warm-up's problem.
    public var detail: String

    /// Makes a stop.
    public init(_ kind: Kind, launch: Launch? = nil, detail: String, side: ComparisonSide? = nil) {
        self.kind = kind
        self.launch = launch
        self.detail = detail
        self.side = side
    }

    /// The sentence the report's `stopReason` holds, naming the side that stopped when it is set.
    public var text: String {
        let said: String
        switch (kind, launch) {
        case (.couldNotStart, let launch?): said = "\(launch) could not be started: \(detail)"
        case (.warmupFailed, .warmup(let number)?):
            said =
                "warm-up \(number) failed (\(detail)); no counted run was made (--ignore-failures goes on regardless)"
        case (.prepareFailed, let launch?): said = "\(detail) (before \(launch))"
        case (.cannotCount, _): said = "instructions could not be counted: \(detail)"
        default: said = detail
        }
        return side.map { "\($0.rawValue) " + said } ?? said
    }

    /// This stop with `transform` applied to its ``detail`` (paths moved or redacted as the prose is).
    public func mappingText(_ transform: (String) -> String) -> SessionStop {
        var stop = self
        stop.detail = transform(detail)
        return stop
    }
}

extension SessionStop.Launch: Codable {
    private enum CodingKeys: String, CodingKey { case kind, number, of }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        switch try container.decode(String.self, forKey: .kind) {
        case "warmup": self = .warmup(try container.decode(Int.self, forKey: .number))
        case "run":
            self = .run(
                try container.decode(Int.self, forKey: .number), of: try container.decode(Int.self, forKey: .of))
        case "hot": self = .hot
        case "counted": self = .counted(try container.decode(Int.self, forKey: .number))
        case let other:
            throw DecodingError.dataCorruptedError(
                forKey: .kind, in: container, debugDescription: "no launch of kind '\(other)'")
        }
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        switch self {
        case .warmup(let number):
            try container.encode("warmup", forKey: .kind)
            try container.encode(number, forKey: .number)
        case .run(let number, let total):
            try container.encode("run", forKey: .kind)
            try container.encode(number, forKey: .number)
            try container.encode(total, forKey: .of)
        case .hot:
            try container.encode("hot", forKey: .kind)
        case .counted(let number):
            try container.encode("counted", forKey: .kind)
            try container.encode(number, forKey: .number)
        }
    }
}
