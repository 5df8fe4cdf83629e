/// The shape check beside the location test: whether the head's launch times
/// differ from the base's in distribution (two-sample Kolmogorov–Smirnov on log
/// time) and whether the head splits into two modes.
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
    /// The head's two modes, when the shapes differ (p below ``level``) and the head
    /// splits into two groups at least ``minimumSeparation`` apart; nil otherwise.
    public var bimodal: Modes?

    /// The separation from which two groups count as two modes: 4 within-group
    /// standard deviations. Splitting any normal sample in two at its best point gives
    /// about 2.7, so a unimodal head is not called bimodal; half the launches 40 %
    /// slower at a 5 % spread give about 7.
    public static let minimumSeparation = 4.0

    /// The Kolmogorov–Smirnov level below which the shapes count as different for
    /// the warning: 5 %. It guards a warning, not a verdict, and the separation rule
    /// already keeps unimodal heads out; at 1 % a head of 20 launches half of them
    /// 40 % slower (D = 0.5, p ≈ 0.012) would go unnamed.
    public static let level = 0.05

    /// The shape check of `headMs` against `baseMs` (finite values, milliseconds) at
    /// `level`; nil when a side has fewer than 5 values.
    ///
    /// The head's log times, sorted, are split at the point that minimises the
    /// within-group sum of squares (each group at least 20 % of the launches and 2 of
    /// them); the groups are modes when their separation is at least
    /// ``minimumSeparation`` and the Kolmogorov–Smirnov test rejects at `level`.
    /// O(n log n + nm).
    ///
    /// ```swift
    /// let shape = ShapeCheck(baseMs: base, headMs: head)
    /// ```
    public init?(baseMs: [Double], headMs: [Double], level: Double = ShapeCheck.level) {
        let base = baseMs.filter(\.isFinite), head = headMs.filter(\.isFinite)
        guard base.count >= 5, head.count >= 5 else { return nil }
        let logHead = head.map(GateDecision.logarithm).sorted()
        let test = RankStatistics.kolmogorovSmirnov(head: logHead, base: base.map(GateDecision.logarithm))
        statistic = test.statistic
        pValue = test.pValue
        bimodal = test.pValue < level ? Self.modes(logHead) : nil
    }

    /// The best two-group split of ascending log times, if its groups are modes.
    static func modes(_ sorted: [Double]) -> Modes? {
        let n = sorted.count, least = max(2, Int((0.2 * Double(n)).rounded(.up)))
        guard n >= 2 * least else { return nil }
        var prefix = [0.0], prefixSquares = [0.0]
        for value in sorted {
            prefix.append(prefix.last! + value)
            prefixSquares.append(prefixSquares.last! + value * value)
        }
        func squares(_ from: Int, _ to: Int) -> Double {  // Σ (x − mean)² over sorted[from..<to]
            let count = Double(to - from), sum = prefix[to] - prefix[from]
            return max(prefixSquares[to] - prefixSquares[from] - sum * sum / count, 0)
        }
        var best = least, bestSquares = Double.infinity
        for split in least...(n - least) {
            let within = squares(0, split) + squares(split, n)
            if within < bestSquares { (best, bestSquares) = (split, within) }
        }
        let lowerMean = (prefix[best] - prefix[0]) / Double(best), upperMean = (prefix[n] - prefix[best]) / Double(n - best)
        let deviation = (bestSquares / Double(n - 2)).squareRoot()
        let separation = deviation > 0 ? (upperMean - lowerMean) / deviation : .infinity
        guard separation >= minimumSeparation else { return nil }
        let exp = Platform.exponential
        return Modes(
            lowerMs: exp(Summary.quantile(sorted: Array(sorted[..<best]), 0.5)), lowerCount: best,
            upperMs: exp(Summary.quantile(sorted: Array(sorted[best...]), 0.5)), upperCount: n - best, separation: separation)
    }
}

extension ShapeCheck.Modes {
    /// One line naming the two modes: `the head is bimodal: 10 launches near 401 ms and 10 near 561 ms (+39.9%)`.
    public func summary(metric: String) -> String {
        "\(metric): the head is bimodal: \(lowerCount) launches near \(Milliseconds.text(lowerMs)) and \(upperCount) near "
            + "\(Milliseconds.text(upperMs)) (\(Percent.text(100 * (upperMs / lowerMs - 1)))) — a regression in some launches only "
            + "(a lock, a cold cache) that the median hides"
    }
}
