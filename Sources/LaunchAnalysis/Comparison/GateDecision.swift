/// The regression gate's decision at one look: per-metric verdicts, and the
/// verdict of the whole comparison.
///
/// Every metric is compared on log(time), so a shift is a ratio and launch-time
/// noise, which grows with the time, is evened out. Values below 1 µs (zero,
/// negative) count as 0.001 ms before the logarithm; values that are not finite
/// are left out of the statistics (they stay in `baseMs`/`headMs`).
///
/// ```swift
/// let metrics = GateDecision.compare(
///     [(name: "timeToFirstFrame", gated: true, baseMs: base, headMs: head),
///      (name: "span:DecodeCatalog", gated: false, baseMs: baseDecode, headMs: headDecode)],
///     settings: GateSettings(), alpha: 0.01)
/// let verdict = GateDecision.overall(metrics, primary: "timeToFirstFrame")
/// ```
public enum GateDecision {
    /// The smallest value taken to the logarithm, milliseconds (1 µs).
    static let smallestMs = 0.001

    /// Compares each metric on log(time) and decides its verdict.
    ///
    /// Per metric: the Hodges–Lehmann shift and Moses 95 % interval of
    /// log(head) − log(base), and the one-sided Mann–Whitney tests in both
    /// directions (``RankStatistics``). Holm's adjustment runs across the gated
    /// metrics, separately for each direction (one family of "slower" tests, one of
    /// "faster" tests); an ungated metric's p-values are used as they are. `alpha` is
    /// the level of this look (the caller spends `settings.alpha` across looks, as
    /// ``StagedGate`` does). With ε = `settings.minimumEffectRatio(baseMedianMs:)`
    /// (base median of the raw values) and e = ln(1 + ε):
    ///  - regression: adjusted one-sided p (head greater) < alpha and Moses lower bound > e;
    ///  - improvement: adjusted one-sided p (head less) < alpha and Moses upper bound < −e;
    ///  - pass: Moses upper bound < e;
    ///  - inconclusive: anything else (including a side with no finite value).
    ///
    /// With `machines` (one per metric, parallel to `metrics`, each naming the
    /// machine of every one of that metric's values), the comparison is
    /// stratified by machine — a fleet comparison: launches are compared within
    /// each machine only, the p-values are van Elteren's, the shift is the median
    /// of the within-machine differences and the interval its bootstrap interval
    /// (see ``Machines``); the rules above then decide as they are. Each metric's
    /// ``MetricComparison/fleet`` says which machines took part.
    ///
    /// The results are in the input's order. Cost: O(nm log nm) per metric (a
    /// fleet comparison: O(2,000 · Σ nₛmₛ) for the bootstrap).
    ///
    /// ```swift
    /// let result = GateDecision.compare(
    ///     [(name: "timeToFirstFrame", gated: true, baseMs: base, headMs: head)],
    ///     settings: GateSettings(), alpha: 0.01)
    /// print(result[0].verdict, result[0].shiftPercent)
    /// ```
    public static func compare(
        _ metrics: [(name: String, gated: Bool, baseMs: [Double], headMs: [Double])],
        settings: GateSettings, alpha: Double, machines: [Machines]? = nil
    ) -> [MetricComparison] {
        let statistics = metrics.indices.map { index in
            let metric = metrics[index]
            guard let machines, machines.indices.contains(index) else { return Statistics(baseMs: metric.baseMs, headMs: metric.headMs) }
            return Statistics(baseMs: metric.baseMs, headMs: metric.headMs, machines: machines[index])
        }
        let gated = metrics.indices.filter { metrics[$0].gated }
        var adjustedGreater = statistics.map(\.pGreater)
        var adjustedLess = statistics.map(\.pLess)
        for (index, adjusted) in zip(gated, RankStatistics.holm(gated.map { statistics[$0].pGreater })) {
            adjustedGreater[index] = adjusted
        }
        for (index, adjusted) in zip(gated, RankStatistics.holm(gated.map { statistics[$0].pLess })) {
            adjustedLess[index] = adjusted
        }
        return metrics.indices.map { index in
            let metric = metrics[index], stats = statistics[index]
            let ratio = settings.minimumEffectRatio(baseMedianMs: stats.baseMedianMs)
            let e = Platform.naturalLogarithm(1 + ratio)
            let verdict: MetricVerdict
            if adjustedGreater[index] < alpha && stats.lower > e {
                verdict = .regression
            } else if adjustedLess[index] < alpha && stats.upper < -e {
                verdict = .improvement
            } else if stats.upper < e {
                verdict = .pass
            } else {
                verdict = .inconclusive
            }
            let percent = { (logShift: Double) in 100 * (Platform.exponential(logShift) - 1) }
            let milliseconds = { (logShift: Double) in stats.baseMedianMs * (Platform.exponential(logShift) - 1) }
            var comparison = MetricComparison(
                name: metric.name, gated: metric.gated, baseMs: metric.baseMs, headMs: metric.headMs,
                shiftMs: milliseconds(stats.shift), shiftPercent: percent(stats.shift),
                intervalMs: [milliseconds(stats.lower), milliseconds(stats.upper)],
                intervalPercent: [percent(stats.lower), percent(stats.upper)],
                mannWhitneyU: stats.u, pValue: stats.pGreater, adjustedPValue: adjustedGreater[index],
                verdict: verdict, method: stats.method, fleet: stats.fleet)
            comparison.improvementPValue = adjustedLess[index]
            return comparison
        }
    }

    /// The overall verdict of a comparison.
    ///
    /// Regression if any gated metric is a regression; otherwise improvement if
    /// the `primary` metric is an improvement and every other gated metric is pass
    /// or improvement; pass if every gated metric is pass or improvement (so also
    /// when no metric is gated); otherwise inconclusive. Ungated metrics other than
    /// `primary` never change the result.
    ///
    /// ```swift
    /// let verdict = GateDecision.overall(metrics, primary: "timeToFirstFrame")
    /// if verdict == .regression { print("launch got slower") }
    /// ```
    public static func overall(_ metrics: [MetricComparison], primary: String) -> MetricVerdict {
        let gated = metrics.filter(\.gated)
        if gated.contains(where: { $0.verdict == .regression }) { return .regression }
        let allPass = gated.allSatisfy { $0.verdict == .pass || $0.verdict == .improvement }
        if allPass, metrics.contains(where: { $0.name == primary && $0.verdict == .improvement }) {
            return .improvement
        }
        return allPass ? .pass : .inconclusive
    }
}

extension GateDecision {
    /// One metric's rank statistics on log values, before Holm and the verdict.
    struct Statistics {
        var baseMedianMs: Double
        var shift: Double
        var lower: Double
        var upper: Double
        var u: Double
        var pGreater: Double
        var pLess: Double
        var method: RankStatistics.Method
        /// The machines' part, in a comparison stratified by machine.
        var fleet: FleetComparison?

        init(baseMs: [Double], headMs: [Double]) {
            let finiteBase = baseMs.filter(\.isFinite), finiteHead = headMs.filter(\.isFinite)
            let base = finiteBase.map(GateDecision.logarithm), head = finiteHead.map(GateDecision.logarithm)
            let samples = RankStatistics.TwoSamples(head: head, base: base)
            let greater = samples.mannWhitney(.greater)
            let less = samples.mannWhitney(.less)
            (lower, upper) = samples.mosesInterval()
            baseMedianMs = finiteBase.isEmpty ? .nan : Summary.quantile(sorted: finiteBase.sorted(), 0.5)
            shift = samples.differences.median
            u = greater.u
            pGreater = greater.pValue
            pLess = less.pValue
            method = greater.method
        }
    }

    /// ln of a time in milliseconds, taking anything below 1 µs as 1 µs.
    static func logarithm(_ milliseconds: Double) -> Double {
        Platform.naturalLogarithm(max(milliseconds, smallestMs))
    }
}
