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
    /// The widest interval bound shown, milliseconds either way (an hour, as reports are read back);
    /// past it a bound is ±∞, none reached.
    static let largestIntervalMs = 3_600_000.0

    /// The smallest time a metric's median can be told from nothing, milliseconds
    /// (10 µs: below it a phase is the hooks' own marks, not work). A metric whose
    /// medians are both under it is never an improvement, however small its p.
    public static let resolutionMs = 0.01

    /// Compares each metric on log(time) and decides its verdict.
    ///
    /// With ε the metric's minimum effect (``GateSettings/minimumEffectRatio(baseMedianMs:floorShare:)``,
    /// at the base median of the raw values and the metric's `floorShare`, 1 when
    /// not given) and e = ln(1 + ε), every claim is a one-sided Mann–Whitney test
    /// (``RankStatistics/mannWhitney(head:base:alternative:shift:)``) of the shift of
    /// log(head) against log(base), at the level `alpha` of this look (the caller
    /// spends `settings.alpha` across looks, as ``StagedGate`` does):
    ///  - regression: "shift > e", Holm-adjusted across the gated metrics, p < `alpha`;
    ///  - improvement: "shift < −e", Holm-adjusted likewise, p < `alpha`;
    ///  - pass (non-inferiority): "shift < e" at the metric's own level, p < level;
    ///  - inconclusive: anything else (including a side with no finite value).
    ///
    /// A metric's level is the one Holm's step tests it at: `alpha / (k − r + 1)` for
    /// the gated metric of rank r (1 = smallest regression p-value) among k gated
    /// metrics, `alpha` for an ungated one. Its interval is the Moses interval
    /// with each bound at that level (``RankStatistics/mosesInterval(head:base:alpha:)``):
    /// a regression's lower bound is above e and a pass's upper bound below e,
    /// so the interval shown agrees with the verdict (exactly when the test is
    /// exact). A pass over several gated metrics holds at `alpha` for all of them
    /// together (an intersection–union test needs no adjustment), and a level no
    /// interval can reach gives the bounds −∞ and +∞.
    ///
    /// With `machines` (one per metric, parallel to `metrics`, each naming the
    /// machine of every one of that metric's values), the comparison is
    /// stratified by machine — a fleet comparison: launches are compared within
    /// each machine only, the tests are van Elteren's, the shift is the median
    /// of the within-machine differences and the interval van Elteren's test
    /// inverted at the same level (see ``Machines``); the rules above then decide
    /// as they are. Each metric's ``MetricComparison/fleet`` says which machines took part.
    ///
    /// Beside the location test each metric on one machine gets its
    /// ``ShapeCheck`` (Kolmogorov–Smirnov, and the head's two modes when it
    /// has them); it warns, it does not change the verdict.
    ///
    /// The results are in the input's order. Cost: O(nm log nm) per metric.
    ///
    /// ```swift
    /// let result = GateDecision.compare(
    ///     [(name: "timeToFirstFrame", gated: true, baseMs: base, headMs: head)],
    ///     settings: GateSettings(), alpha: 0.01)
    /// print(result[0].verdict, result[0].shiftPercent)
    /// ```
    public static func compare(
        _ metrics: [(name: String, gated: Bool, baseMs: [Double], headMs: [Double])],
        settings: GateSettings, alpha: Double, machines: [Machines]? = nil, floorShares: [Double]? = nil,
        sessions: [Sessions]? = nil, evidence: SessionEvidence = SessionEvidence()
    ) -> [MetricComparison] {
        let statistics = metrics.indices.map { index in
            let metric = metrics[index]
            let share = floorShares.flatMap { $0.indices.contains(index) ? $0[index] : nil } ?? 1
            var stats: Statistics
            if let machines, machines.indices.contains(index) {
                stats = Statistics(
                    baseMs: metric.baseMs, headMs: metric.headMs, machines: machines[index], settings: settings,
                    floorShare: share)
            } else {
                stats = Statistics(baseMs: metric.baseMs, headMs: metric.headMs, settings: settings, floorShare: share)
            }
            // A metric with no base (new work, or a base median of 0) is judged on its absolute change;
            // sides from different sessions on the session-level test.
            if stats.absolute == nil, let sessions, sessions.indices.contains(index) {
                let machinesOfMetric = machines.flatMap { $0.indices.contains(index) ? $0[index] : nil }
                stats.testSessions(
                    metric: metric.name, baseMs: metric.baseMs, headMs: metric.headMs, sessions: sessions[index],
                    machines: machinesOfMetric, evidence: evidence)
            }
            return stats
        }
        let gated = metrics.indices.filter { metrics[$0].gated }
        var adjustedRegression = statistics.map(\.pRegression)
        var adjustedImprovement = statistics.map(\.pImprovement)
        var levels = [Double](repeating: alpha, count: metrics.count)
        for (index, adjusted) in zip(gated, RankStatistics.holm(gated.map { statistics[$0].pRegression })) {
            adjustedRegression[index] = adjusted
        }
        for (index, adjusted) in zip(gated, RankStatistics.holm(gated.map { statistics[$0].pImprovement })) {
            adjustedImprovement[index] = adjusted
        }
        // Holm's order (as RankStatistics.holm sorts): the r-th smallest p is tested at alpha / (k − r + 1).
        let order = gated.sorted { (statistics[$0].pRegression, $0) < (statistics[$1].pRegression, $1) }
        for (rank, index) in order.enumerated() {
            levels[index] = alpha / Double(gated.count - rank)
        }
        return metrics.indices.map { index in
            let metric = metrics[index]
            let stats = statistics[index]
            var verdict: MetricVerdict
            if adjustedRegression[index] < alpha {
                verdict = .regression
            } else if adjustedImprovement[index] < alpha, !Self.isUnderResolution(metric.baseMs, metric.headMs) {
                verdict = .improvement
            } else if stats.pPass < alpha {
                // A pass over several gated metrics is an intersection–union test: each at the look's level.
                verdict = .pass
            } else {
                verdict = .inconclusive
            }
            // Sides from different sessions with no estimate of the sessions' variance decide nothing.
            if stats.sessions?.source == SessionComparison.Source.none { verdict = .inconclusive }
            // The interval at the level the decision used: a pass at the look's level, anything else at Holm's step.
            let level = verdict == .pass ? alpha : levels[index]
            var (lower, upper) = stats.interval(level)
            // A bound past an hour of difference (a t interval on a few sessions can be that wide) is no bound at all.
            if lower.isFinite, !(abs(stats.milliseconds(lower)) <= Self.largestIntervalMs) { lower = -.infinity }
            if upper.isFinite, !(abs(stats.milliseconds(upper)) <= Self.largestIntervalMs) { upper = .infinity }
            var comparison = MetricComparison(
                name: metric.name, gated: metric.gated, baseMs: metric.baseMs, headMs: metric.headMs,
                shiftMs: stats.milliseconds(stats.shift), shiftPercent: stats.percent(stats.shift),
                intervalMs: Interval(lower: stats.milliseconds(lower), upper: stats.milliseconds(upper)),
                intervalPercent: Interval(lower: stats.percent(lower), upper: stats.percent(upper)),
                mannWhitneyU: stats.u, pValue: stats.pRegression, adjustedPValue: adjustedRegression[index],
                verdict: verdict, method: stats.method(of: verdict), fleet: stats.fleet,
                minimumEffectPercent: 100 * stats.effect, level: level, passPValue: stats.pPass,
                slowerPValue: stats.pGreater,
                shape: stats.fleet == nil ? ShapeCheck(baseMs: metric.baseMs, headMs: metric.headMs) : nil)
            comparison.improvementPValue = adjustedImprovement[index]
            comparison.absolute = stats.absolute
            comparison.sessions = stats.sessions
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
        /// ε, as a ratio.
        var effect: Double
        var shift: Double
        var u: Double
        /// "Head slower at all" (shift > 0), one-sided.
        var pGreater: Double
        /// "Shift > e", "shift < −e", "shift < e", one-sided.
        var pRegression: Double
        var pImprovement: Double
        var pPass: Double
        /// How each of the three tests was computed (the regression, improvement and pass tests).
        var methods:
            (regression: RankStatistics.Method, improvement: RankStatistics.Method, pass: RankStatistics.Method)
        /// The interval whose bounds are each one-sided at the level given.
        var interval: (Double) -> (lower: Double, upper: Double)
        /// The machines' part, in a comparison stratified by machine.
        var fleet: FleetComparison?
        /// For a metric with no base: its absolute test (``AbsoluteChange``); shifts are then milliseconds, not logs.
        var absolute: AbsoluteChange?
        /// For sides from different sessions: the session-level test (``SessionComparison``).
        var sessions: SessionComparison?

        init(baseMs: [Double], headMs: [Double], settings: GateSettings, floorShare: Double) {
            let finiteBase = baseMs.filter(\.isFinite)
            let finiteHead = headMs.filter(\.isFinite)
            let base = finiteBase.map(GateDecision.logarithm)
            let head = finiteHead.map(GateDecision.logarithm)
            let samples = RankStatistics.TwoSamples(head: head, base: base)
            baseMedianMs = finiteBase.isEmpty ? .nan : Summary.quantile(sorted: finiteBase.sorted(), 0.5)
            effect = settings.minimumEffectRatio(baseMedianMs: baseMedianMs, floorShare: floorShare)
            let e = GateDecision.logEffect(effect)
            let greater = samples.mannWhitney(.greater)
            shift = samples.differences.median
            u = greater.u
            pGreater = greater.pValue
            let regression = e.isFinite ? samples.mannWhitney(.greater, shift: e) : nil
            let improvement = e.isFinite ? samples.mannWhitney(.less, shift: -e) : nil
            pRegression = regression?.pValue ?? 1
            pImprovement = improvement?.pValue ?? 1
            let pass = e.isFinite ? samples.mannWhitney(.less, shift: e) : nil
            pPass = pass?.pValue ?? (head.isEmpty || base.isEmpty ? 1 : 0)
            methods = (
                regression?.method ?? greater.method, improvement?.method ?? greater.method,
                pass?.method ?? greater.method
            )
            interval = { samples.mosesInterval(alpha: $0) }
            if !finiteHead.isEmpty, finiteBase.isEmpty || !(baseMedianMs >= GateDecision.smallestMs) {
                useAbsoluteTest(headMs: finiteHead, floorMs: settings.absoluteFloorMs(floorShare: floorShare))
            }
        }

        /// The method of the test `verdict` rests on (the regression test's when inconclusive).
        func method(of verdict: MetricVerdict) -> RankStatistics.Method {
            switch verdict {
            case .regression, .inconclusive: return methods.regression
            case .improvement: return methods.improvement
            case .pass: return methods.pass
            }
        }

        /// A shift in milliseconds: at the base median for a log shift, itself for an absolute one.
        func milliseconds(_ shift: Double) -> Double {
            absolute != nil ? shift : baseMedianMs * (Platform.exponential(shift) - 1)
        }

        /// A shift in percent of the base: 100·(eˢ − 1); for an absolute one, of no base: +∞, or 0 below 1 µs.
        func percent(_ shift: Double) -> Double {
            guard absolute != nil else { return 100 * (Platform.exponential(shift) - 1) }
            return shift >= GateDecision.smallestMs ? .infinity : 0
        }
    }

    /// e = ln(1 + ε); +∞ for an infinite ε (no change can count), NaN ε as 0.
    static func logEffect(_ ratio: Double) -> Double {
        guard !ratio.isNaN else { return 0 }
        return ratio.isFinite ? Platform.naturalLogarithm(1 + ratio) : .infinity
    }

    /// ln of a time in milliseconds, taking anything below 1 µs as 1 µs.
    static func logarithm(_ milliseconds: Double) -> Double {
        Platform.naturalLogarithm(max(milliseconds, smallestMs))
    }

    /// True when both sides have finite launch times and both their medians are under ``resolutionMs``
    /// (the values the tests read: a failed run's non-finite time is not one).
    static func isUnderResolution(_ base: [Double], _ head: [Double]) -> Bool {
        let (base, head) = (base.filter(\.isFinite), head.filter(\.isFinite))
        guard !base.isEmpty, !head.isEmpty else { return false }
        return Summary.median(base) < resolutionMs && Summary.median(head) < resolutionMs
    }
}
