/// A confidence interval, `[lower, upper]`: of a shift in milliseconds or in percent.
///
/// Encoded as the two-element array reports have always stored (`[-3, 2]`), and
/// written as one in code:
///
/// ```swift
/// let interval: Interval = [-0.75, 0.5]
/// interval.contains(0)   // true
/// ```
public struct Interval: Sendable, Equatable, ExpressibleByArrayLiteral {
    /// The lower bound (−∞ for an open one).
    public var lower: Double
    /// The upper bound (+∞ for an open one).
    public var upper: Double

    /// Makes `[lower, upper]`.
    public init(lower: Double, upper: Double) {
        self.lower = lower
        self.upper = upper
    }

    /// `[lower, upper]`; a literal of another length is a programming error.
    public init(arrayLiteral bounds: Double...) {
        precondition(bounds.count == 2, "an interval is [lower, upper]")
        self.init(lower: bounds[0], upper: bounds[1])
    }

    /// Both bounds, lower first: for checks that treat each alike.
    public var bounds: [Double] { [lower, upper] }

    /// True when `value` lies within the bounds (inclusive).
    public func contains(_ value: Double) -> Bool { lower <= value && value <= upper }
}

extension Interval: Codable {
    /// Reads `[lower, upper]`; an array of another length is refused.
    public init(from decoder: any Decoder) throws {
        var container = try decoder.unkeyedContainer()
        let lower = try container.decode(Double.self)
        let upper = try container.decode(Double.self)
        guard container.isAtEnd else {
            throw DecodingError.dataCorruptedError(
                in: container, debugDescription: "an interval is two numbers, [lower, upper]")
        }
        self.init(lower: lower, upper: upper)
    }

    /// Writes `[lower, upper]`.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.unkeyedContainer()
        try container.encode(lower)
        try container.encode(upper)
    }
}
