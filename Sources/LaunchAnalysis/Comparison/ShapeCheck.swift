/// The shape check beside the location test: whether the head's launch times
/// differ from the base's in distribution (two-sample Kolmogorov–Smirnov on log
/// time, reported) and whether the head splits into two modes (warned about).
///
/// A head where some launches are much slower (a lock, a cold cache) moves the
/// median little, so the location test may call it inconclusive; the shape check
/// names the two modes instead. In JSON, the property names as written.
///
/// ```swift
/// if let modes = metric.shape?.bimodal {
///     print("\(modes.lowerCount) launches near \(modes.lowerMs) ms, \(modes.upperCount) near \(modes.upperMs) ms")
/// }
/// ```
public struct ShapeCheck: Sendable, Equatable, Codable {
    /// Two modes of the head's launch times.
    public struct Modes: Sendable, Equatable, Codable {
        /// The median of the faster group, milliseconds.
        public var lowerMs: Double
        /// How many launches are in it.
        public var lowerCount: Int
        /// The median of the slower group, milliseconds.
        public var upperMs: Double
        /// How many launches are in it.
        public var upperCount: Int
        /// How far apart the groups are: |mean difference| of log times over the
        /// within-group standard deviation (Ashman's D / √2).
        public var separation: Double
    }

    /// Kolmogorov–Smirnov D of log(head) against log(base).
    public var statistic: Double
    /// Its two-sided p-value (``RankStatistics/kolmogorovSmirnov(head:base:)``).
    public var pValue: Double
    /// The head's two modes, when its best split is significant (at least
    /// ``criticalSeparation(launches:)`` apart) and its slower mode is above the
    /// base (its median above the base's ``baseQuantile``); nil otherwise.
    public var bimodal: Modes?

    /// The least separation of two modes at any size: 4 within-group standard
    /// deviations. Past 21 launches the test's own critical value is below it
    /// (about 3.9 at 25, tending to 2.7); half the launches 40 % slower at a 5 %
    /// spread are about 7 apart.
    public static let minimumSeparation = 4.0

    /// The level of the test that a split is two modes: 2.5 %, the level
    /// ``criticalSeparation(launches:)``'s values were drawn at. A normal head —
    /// shifted or not — splits that far in 2.5 % of comparisons (2.2–2.6 % measured
    /// on log-normal launches at 10 and 20); at 10 launches, half of them 40 % slower
    /// at a 5 % spread are still named in about 86 % (`ShapeCheckSimulationTests`).
    public static let splitLevel = 0.025

    /// The separation the best split of `n` launches must reach to be two modes:
    /// the critical value of the split test at ``splitLevel``, and at least
    /// ``minimumSeparation``.
    ///
    /// The test: under the null, the log times are one normal sample; its best
    /// two-group split (the one ``init(baseMs:headMs:)`` makes) then reaches a
    /// separation of c(n) or more with probability ``splitLevel``. c(n) is the
    /// 97.5 % quantile of that separation over 400,000 samples of n standard
    /// normals per n (NumPy's `default_rng(20261129)`, issue 31), for n = 5 to 21:
    /// 8.60 at 5, 5.30 at 10, 4.09 at 20; from 22 on it is below 4 and
    /// ``minimumSeparation`` applies. Without it (a fixed 4) a unimodal head of 10
    /// was called bimodal in 16 % of comparisons.
    ///
    /// ```swift
    /// ShapeCheck.criticalSeparation(launches: 10)   // 5.299
    /// ShapeCheck.criticalSeparation(launches: 40)   // 4.0
    /// ```
    public static func criticalSeparation(launches n: Int) -> Double {
        let index = n - 5
        guard criticalValues.indices.contains(index) else { return n < 5 ? .infinity : minimumSeparation }
        return max(criticalValues[index], minimumSeparation)
    }

    /// The share of base launches the head's slower mode must be above to be named:
    /// 95 %. Modes the base has too are the program's, not the change's (a base with
    /// the same slow launches reaches them); one slow base launch in twenty does not
    /// silence the warning.
    public static let baseQuantile = 0.95

    /// c(n) for n = 5…21 (see ``criticalSeparation(launches:)``).
    static let criticalValues: [Double] = [
        8.600, 7.267, 6.476, 5.961, 5.571, 5.299, 4.925, 4.788, 4.669, 4.565, 4.479, 4.311, 4.257, 4.193, 4.143, 4.094,
        4.014,
    ]

    /// The shape check of `headMs` against `baseMs` (finite values, milliseconds);
    /// nil when a side has fewer than 5 values.
    ///
    /// The head's log times, sorted, are split at the point that minimises the
    /// within-group sum of squares (each group at least 20 % of the launches and 2 of
    /// them). The head is bimodal when its split is significant — its separation at
    /// least ``criticalSeparation(launches:)`` — and its slower mode's median is above
    /// the base's ``baseQuantile`` (a unimodal A/A, whose split is chance, rarely is).
    /// The Kolmogorov–Smirnov test is reported beside it; it does not guard the
    /// warning (at 10 launches a side and 5 % it rejects a head half of whose launches
    /// are 40 % slower in about 15 % of comparisons, by SciPy's `ks_2samp`).
    /// O(n log n + nm).
    ///
    /// ```swift
    /// let shape = ShapeCheck(baseMs: base, headMs: head)
    /// ```
    public init?(baseMs: [Double], headMs: [Double]) {
        let base = baseMs.filter(\.isFinite)
        let head = headMs.filter(\.isFinite)
        guard base.count >= 5, head.count >= 5 else { return nil }
        let logHead = head.map(GateDecision.logarithm).sorted()
        let logBase = base.map(GateDecision.logarithm).sorted()
        let test = RankStatistics.kolmogorovSmirnov(head: logHead, base: logBase)
        statistic = test.statistic
        pValue = test.pValue
        let baseTop = Platform.exponential(Summary.quantile(sorted: logBase, Self.baseQuantile))
        bimodal = Self.modes(logHead).flatMap { $0.upperMs > baseTop ? $0 : nil }
    }

    /// The best two-group split of ascending log times, if its groups are modes.
    static func modes(_ sorted: [Double]) -> Modes? {
        let n = sorted.count
        let least = max(2, Int((0.2 * Double(n)).rounded(.up)))
        guard n >= 2 * least else { return nil }
        var prefix = [0.0]
        var prefixSquares = [0.0]
        for value in sorted {
            prefix.append(prefix.last! + value)
            prefixSquares.append(prefixSquares.last! + value * value)
        }
        func squares(_ from: Int, _ to: Int) -> Double {  // Σ (x − mean)² over sorted[from..<to]
            let count = Double(to - from)
            let sum = prefix[to] - prefix[from]
            return max(prefixSquares[to] - prefixSquares[from] - sum * sum / count, 0)
        }
        var best = least
        var bestSquares = Double.infinity
        for split in least...(n - least) {
            let within = squares(0, split) + squares(split, n)
            if within < bestSquares { (best, bestSquares) = (split, within) }
        }
        let lowerMean = (prefix[best] - prefix[0]) / Double(best)
        let upperMean = (prefix[n] - prefix[best]) / Double(n - best)
        let deviation = (bestSquares / Double(n - 2)).squareRoot()
        let separation = deviation > 0 ? (upperMean - lowerMean) / deviation : .infinity
        guard separation >= criticalSeparation(launches: n) else { return nil }
        let exp = Platform.exponential
        return Modes(
            lowerMs: exp(Summary.quantile(sorted: Array(sorted[..<best]), 0.5)), lowerCount: best,
            upperMs: exp(Summary.quantile(sorted: Array(sorted[best...]), 0.5)), upperCount: n - best,
            separation: separation)
    }
}

extension ShapeCheck.Modes {
    /// One line naming the two modes: `the head is bimodal: 10 launches near 401 ms and 10 near 561 ms (+39.9%)`,
    /// after `on machine 'ci-a'` when the check is one machine's of a fleet.
    ///
    /// ```swift
    /// modes.summary(metric: "timeToReady", machine: "ci-a")
    /// // "timeToReady on machine 'ci-a': the head is bimodal: 5 launches near 401 ms and 5 near 561 ms (+39.9%) — …"
    /// ```
    public func summary(metric: String, machine: String? = nil) -> String {
        let place = machine.map { " on machine '\($0)'" } ?? ""
        return
            "\(metric)\(place): the head is bimodal: \(lowerCount) launches near \(Milliseconds.text(lowerMs)) and \(upperCount) near "
            + "\(Milliseconds.text(upperMs)) (\(Percent.text(100 * (upperMs / lowerMs - 1)))) — a regression in some launches only "
            + "(a lock, a cold cache) that the median hides"
    }
}
