/// One look at two sides at one stage: every metric's comparison, the
/// primary metric, the overall verdict, and whether launching may stop.
///
/// ```swift
/// let look = try plan.look(0, base: base, head: head)
/// if look.stop { print(look.verdict) }
/// ```
public struct ComparisonLook: Sendable, Equatable {
    /// Every metric both sides have, the gated ones first.
    public var metrics: [MetricComparison]
    /// The name of the primary metric.
    public var primary: String
    /// The overall verdict at this look.
    public var verdict: MetricVerdict
    /// True when this look has a verdict (or is the last stage): launching stops.
    public var stop: Bool

    /// A look made of its parts.
    public init(metrics: [MetricComparison], primary: String, verdict: MetricVerdict, stop: Bool) {
        self.metrics = metrics
        self.primary = primary
        self.verdict = verdict
        self.stop = stop
    }
}
