/// One metric's comparison of head against base, as the comparison report's JSON
/// holds it.
///
/// The statistics are computed on log(time) (see ``GateDecision``), so the shift
/// is a ratio; it is reported back in milliseconds at the base median and in
/// percent: a log shift s is `baseMedian · (eˢ − 1)` ms and `100 · (eˢ − 1)` %.
/// The interval is the one the decision used (``level``: each bound one-sided at
/// it, the Moses interval or, across machines, van Elteren's test inverted),
/// transformed the same way, in JSON a two-element array `[low, high]`; a bound no
/// data of this size can reach at that level is −∞ or +∞ (`"-inf"`, `"inf"` in JSON).
/// NaN only appears when a side has no finite value. Schema version 1 reports
/// (before issue 21) held a 95 % interval and p-values for "head slower at all";
/// they read with ``level`` 0.025 and ``minimumEffectPercent`` NaN.
///
/// ```swift
/// let metric = GateDecision.compare(
///     [(name: "timeToFirstFrame", gated: true, baseMs: base, headMs: head)],
///     settings: GateSettings(), alpha: 0.01)[0]
/// print("\(metric.name): \(metric.shiftPercent) % [\(metric.intervalPercent.lower), \(metric.intervalPercent.upper)] → \(metric.verdict)")
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
    /// The interval of the shift at the decision's ``level``, milliseconds at the base median, `[low, high]`.
    public var intervalMs: Interval
    /// The interval of the shift at the decision's ``level``, percent, `[low, high]`.
    public var intervalPercent: Interval
    /// U of head against base on the log values (the statistic of the "greater" test).
    public var mannWhitneyU: Double
    /// The one-sided p-value for "head is slower by more than the minimum effect"
    /// (the regression test; schema version 1: slower at all).
    public var pValue: Double
    /// `pValue` after Holm's adjustment across the gated metrics; equal to `pValue`
    /// for a metric that is not gated. A regression is this below α of the look.
    public var adjustedPValue: Double
    /// The minimum effect ε this metric was judged against, percent of its base median.
    public var minimumEffectPercent: Double
    /// The one-sided level this metric was decided at (α of the look, divided as
    /// Holm's step tests it); the interval's bounds are each one-sided at it, so the
    /// interval's confidence is 1 − 2·level.
    public var level: Double
    /// The one-sided p-value for "head is slower by less than the minimum effect":
    /// the metric passes when it is below ``level``. NaN in schema version 1.
    public var passPValue: Double
    /// The one-sided p-value for "head is slower at all" (no minimum effect), shown for information.
    public var slowerPValue: Double
    /// The shape check beside the location test (Kolmogorov–Smirnov, two modes), on
    /// one machine with 5 or more launches a side; nil otherwise and in schema version 1.
    public var shape: ShapeCheck?
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
    /// For a metric with no base (new in the head, or a base median of 0): the
    /// absolute test it was judged by (``AbsoluteChange``); its shift and interval are
    /// then the head's median and that median's interval, milliseconds. Nil otherwise.
    public var absolute: AbsoluteChange? = nil
    /// For sides from different sessions: the session-level test and what it rests on
    /// (``SessionComparison``); its shift and interval are then the sessions'. Nil when
    /// the sides share one session (an interleaved comparison).
    public var sessions: SessionComparison? = nil

    /// A comparison with the given values (``GateDecision/compare(_:settings:alpha:machines:floorShares:)`` makes them).
    ///
    /// ```swift
    /// let metric = MetricComparison(
    ///     name: "timeToFirstFrame", gated: true, baseMs: [400, 402], headMs: [401, 399],
    ///     shiftMs: -1, shiftPercent: -0.25, intervalMs: [-3, 2], intervalPercent: [-0.75, 0.5],
    ///     mannWhitneyU: 1, pValue: 0.83, adjustedPValue: 0.83, verdict: .inconclusive, method: .exact)
    /// ```
    public init(
        name: String, gated: Bool, baseMs: [Double], headMs: [Double], shiftMs: Double, shiftPercent: Double,
        intervalMs: Interval, intervalPercent: Interval, mannWhitneyU: Double, pValue: Double, adjustedPValue: Double,
        verdict: MetricVerdict, method: RankStatistics.Method, fleet: FleetComparison? = nil,
        minimumEffectPercent: Double = .nan, level: Double = 0.025, passPValue: Double = .nan,
        slowerPValue: Double? = nil,
        shape: ShapeCheck? = nil
    ) {
        self.shape = shape
        self.minimumEffectPercent = minimumEffectPercent
        self.level = level
        self.passPValue = passPValue
        self.slowerPValue = slowerPValue ?? pValue
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

    /// The interval's two-sided confidence, 1 − 2·``level``: 0.95 in schema version 1.
    public var confidence: Double { 1 - 2 * level }

    /// Reads a metric of any schema version (see the type's summary for version 1).
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        name = try container.decode(String.self, forKey: .name)
        gated = try container.decode(Bool.self, forKey: .gated)
        baseMs = try container.decode([Double].self, forKey: .baseMs)
        headMs = try container.decode([Double].self, forKey: .headMs)
        shiftMs = try container.decode(Double.self, forKey: .shiftMs)
        shiftPercent = try container.decode(Double.self, forKey: .shiftPercent)
        intervalMs = try container.decode(Interval.self, forKey: .intervalMs)
        intervalPercent = try container.decode(Interval.self, forKey: .intervalPercent)
        mannWhitneyU = try container.decode(Double.self, forKey: .mannWhitneyU)
        pValue = try container.decode(Double.self, forKey: .pValue)
        adjustedPValue = try container.decode(Double.self, forKey: .adjustedPValue)
        verdict = try container.decode(MetricVerdict.self, forKey: .verdict)
        method = try container.decode(RankStatistics.Method.self, forKey: .method)
        fleet = try container.decodeIfPresent(FleetComparison.self, forKey: .fleet)
        minimumEffectPercent = try container.decodeIfPresent(Double.self, forKey: .minimumEffectPercent) ?? .nan
        level = try container.decodeIfPresent(Double.self, forKey: .level) ?? 0.025
        passPValue = try container.decodeIfPresent(Double.self, forKey: .passPValue) ?? .nan
        slowerPValue = try container.decodeIfPresent(Double.self, forKey: .slowerPValue) ?? pValue
        shape = try container.decodeIfPresent(ShapeCheck.self, forKey: .shape)
        improvementPValue = try container.decodeIfPresent(Double.self, forKey: .improvementPValue)
        absolute = try container.decodeIfPresent(AbsoluteChange.self, forKey: .absolute)
        sessions = try container.decodeIfPresent(SessionComparison.self, forKey: .sessions)
    }
}
