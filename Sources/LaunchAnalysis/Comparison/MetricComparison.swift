/// One metric's comparison of head against base, as the comparison report's JSON
/// holds it.
///
/// The statistics are computed on log(time) (see ``GateDecision``), so the shift
/// is a ratio; it is reported back in milliseconds at the base median and in
/// percent: a log shift s is `baseMedian · (eˢ − 1)` ms and `100 · (eˢ − 1)` %.
/// The interval is the Moses 95 % interval, transformed the same way, in JSON a
/// two-element array `[low, high]`. NaN (which JSON cannot hold) only appears
/// when a side has no finite value.
///
/// ```swift
/// let metric = GateDecision.compare(
///     [(name: "timeToFirstFrame", gated: true, baseMs: base, headMs: head)],
///     settings: GateSettings(), alpha: 0.01)[0]
/// print("\(metric.name): \(metric.shiftPercent) % [\(metric.intervalPercent[0]), \(metric.intervalPercent[1])] → \(metric.verdict)")
/// ```
public struct MetricComparison: Sendable, Equatable, Codable {
    /// The metric's name: `"timeToFirstFrame"`, `"phase:didFinishLaunching"`, `"span:DecodeCatalog"`.
    public var name: String
    /// Whether the metric takes part in the gate (and in Holm's adjustment).
    public var gated: Bool
    /// Every base launch's value, milliseconds, in run order.
    public var baseMs: [Double]
    /// Every head launch's value, milliseconds, in run order.
    public var headMs: [Double]
    /// The Hodges–Lehmann shift at the base median, milliseconds: baseMedian · (eˢ − 1).
    public var shiftMs: Double
    /// The Hodges–Lehmann shift in percent of the base: 100 · (eˢ − 1).
    public var shiftPercent: Double
    /// The Moses 95 % interval of the shift, milliseconds at the base median, `[low, high]`.
    public var intervalMs: [Double]
    /// The Moses 95 % interval of the shift, percent, `[low, high]`.
    public var intervalPercent: [Double]
    /// U of head against base on the log values (the statistic of the "greater" test).
    public var mannWhitneyU: Double
    /// The one-sided p-value for "head is slower" (alternative greater).
    public var pValue: Double
    /// `pValue` after Holm's adjustment across the gated metrics; equal to `pValue`
    /// for a metric that is not gated.
    public var adjustedPValue: Double
    /// The p-value of the one-sided test the other way, "head is faster"
    /// (alternative less), after Holm's adjustment across the gated metrics for
    /// a gated metric: what an improvement rests on. Nil in reports written
    /// before it was recorded.
    public var improvementPValue: Double? = nil
    /// What the comparison concluded for this metric.
    public var verdict: MetricVerdict
    /// How the p-values were computed.
    public var method: RankStatistics.Method
    /// In a comparison stratified by machine (a fleet comparison): the test that
    /// combined the machines, the machines that took part with each one's own
    /// shift, and those left out; nil on one machine. There, ``mannWhitneyU`` is
    /// the sum of the machines' own U, ``pValue`` van Elteren's, and the interval
    /// the bootstrap's.
    public var fleet: FleetComparison?

    /// A comparison with the given values (``GateDecision/compare(_:settings:alpha:machines:)`` makes them).
    ///
    /// ```swift
    /// let metric = MetricComparison(
    ///     name: "timeToFirstFrame", gated: true, baseMs: [400, 402], headMs: [401, 399],
    ///     shiftMs: -1, shiftPercent: -0.25, intervalMs: [-3, 2], intervalPercent: [-0.75, 0.5],
    ///     mannWhitneyU: 1, pValue: 0.83, adjustedPValue: 0.83, verdict: .inconclusive, method: .exact)
    /// ```
    public init(
        name: String, gated: Bool, baseMs: [Double], headMs: [Double], shiftMs: Double, shiftPercent: Double,
        intervalMs: [Double], intervalPercent: [Double], mannWhitneyU: Double, pValue: Double, adjustedPValue: Double,
        verdict: MetricVerdict, method: RankStatistics.Method, fleet: FleetComparison? = nil
    ) {
        self.name = name
        self.gated = gated
        self.baseMs = baseMs
        self.headMs = headMs
        self.shiftMs = shiftMs
        self.shiftPercent = shiftPercent
        self.intervalMs = intervalMs
        self.intervalPercent = intervalPercent
        self.mannWhitneyU = mannWhitneyU
        self.pValue = pValue
        self.adjustedPValue = adjustedPValue
        self.verdict = verdict
        self.method = method
        self.fleet = fleet
    }
}
