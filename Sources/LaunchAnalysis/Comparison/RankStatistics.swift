/// Rank statistics for comparing two sets of launch times: the Mann–Whitney U
/// test, the Hodges–Lehmann shift with its Moses confidence interval, and Holm's
/// adjustment across several tests.
///
/// `head` is the candidate (the pull request's build), `base` the reference.
/// Every function is pure and thread-safe. Values must not be NaN (sort them out
/// first; ``GateDecision`` does). The p-values match
/// `scipy.stats.mannwhitneyu(head, base, alternative=…, method=…,
/// use_continuity=True)`; the tests check them against values SciPy computed
/// (`Tests/LaunchAnalysisTests/Fixtures/make-rank-statistics.py`).
///
/// Cost: U and the test are O((n + m) log(n + m)), plus O(min(n, m)·nm) for the
/// exact null distribution when the test is exact (``exactIsCheap(_:_:)``); the shift and the
/// interval select order statistics of the n·m differences without storing them,
/// expected O(n log m · log nm) time and O(n + m) memory.
///
/// ```swift
/// let base = [401.0, 398.5, 405.2, 399.9, 402.3]
/// let head = [431.0, 428.4, 436.1, 429.7, 433.0]
/// let test = RankStatistics.mannWhitney(head: head, base: base, alternative: .greater)
/// print(test.u, test.pValue)  // 25.0 0.003968…
/// ```
public enum RankStatistics {
    /// The direction a one-sided test looks in.
    ///
    /// `.greater` asks whether `head` tends to be larger than `base` (slower, for
    /// times); `.less` whether it tends to be smaller.
    ///
    /// ```swift
    /// RankStatistics.mannWhitney(head: head, base: base, alternative: .less)
    /// ```
    public enum Alternative: Sendable {
        /// `head` is stochastically greater than `base`.
        case greater
        /// `head` is stochastically less than `base`.
        case less
    }

    /// How a Mann–Whitney p-value was computed.
    ///
    /// `exact` counts the null distribution of U (no ties, and n + m ≤ 40 or
    /// min(n, m) ≤ 8: ``RankStatistics/exactIsCheap(_:_:)``);
    /// `asymptotic` uses the normal approximation with tie and continuity
    /// corrections. In JSON, `"exact"` or `"asymptotic"`.
    ///
    /// ```swift
    /// if test.method == .asymptotic { print("normal approximation") }
    /// ```
    public enum Method: String, Sendable, Codable {
        /// The exact null distribution of U.
        case exact
        /// The normal approximation, tie-corrected, with continuity correction.
        case asymptotic
        /// Student's t on session medians: sides from different sessions (``SessionComparison``).
        case studentT = "student-t"
    }

    /// The result of a one-sided Mann–Whitney U test.
    ///
    /// `u` is always U of `head` against `base` (whatever the alternative), the
    /// number of (head, base) pairs with head > base, ties counting half;
    /// `pValue` is the one-sided p-value in the direction asked for.
    ///
    /// ```swift
    /// let test = RankStatistics.mannWhitney(head: head, base: base, alternative: .greater)
    /// if test.pValue < 0.01 { print("head is slower (U = \(test.u))") }
    /// ```
    public struct MannWhitney: Sendable, Equatable {
        /// U of `head` against `base`, as `scipy.stats.mannwhitneyu(head, base).statistic`.
        public var u: Double
        /// The one-sided p-value, in [0, 1].
        public var pValue: Double
        /// How `pValue` was computed.
        public var method: Method

        /// A test result with the given values.
        ///
        /// ```swift
        /// let result = RankStatistics.MannWhitney(u: 25, pValue: 0.004, method: .exact)
        /// ```
        public init(u: Double, pValue: Double, method: Method) {
            self.u = u
            self.pValue = pValue
            self.method = method
        }
    }

    /// U of `head` against `base`: the number of (head, base) pairs with head > base,
    /// ties counting half.
    ///
    /// This is `scipy.stats.mannwhitneyu(head, base).statistic`;
    /// `mannWhitneyU(head: a, base: b) + mannWhitneyU(head: b, base: a)` is
    /// `a.count · b.count`. 0 when either side is empty. O((n + m) log(n + m)).
    ///
    /// ```swift
    /// RankStatistics.mannWhitneyU(head: [3, 5], base: [1, 3, 4])  // 4.5
    /// ```
    public static func mannWhitneyU(head: [Double], base: [Double]) -> Double {
        RankedSample(headAscending: head.sorted(), baseDescending: base.sorted(by: >)).u
    }

    /// Whether the exact null distribution of U is used for n against m values
    /// (when the combined sample has no ties): n + m ≤ 40, or min(n, m) ≤ 8.
    ///
    /// The second is SciPy's `method="auto"` rule (`scipy.stats.mannwhitneyu`,
    /// SciPy 1.17: exact unless both sides exceed 8, or there are ties); the first
    /// keeps the exact test for balanced samples up to 20 a side, where it is still
    /// cheap (C(40, 20) arrangements counted in O(min(n, m)·nm)). Elsewhere the
    /// normal approximation is accurate: with both sides above 8 and n + m > 40.
    /// At 59 against 1 the exact one-sided p of the most extreme U is 1/60 ≈ 0.0167,
    /// where the normal approximation says 0.047.
    ///
    /// ```swift
    /// RankStatistics.exactIsCheap(59, 1)   // true
    /// RankStatistics.exactIsCheap(21, 20)  // false: both above 8, 41 values
    /// ```
    public static func exactIsCheap(_ n: Int, _ m: Int) -> Bool {
        n + m <= 40 || min(n, m) <= 8
    }

    /// The one-sided Mann–Whitney U test of `head` − `shift` against `base`.
    ///
    /// As `scipy.stats.mannwhitneyu(head - shift, base, alternative="greater"/"less",
    /// method=…, use_continuity=True)`, with the method chosen here: exact when
    /// no value occurs twice in the combined sample (a tie within one side
    /// counts, as in SciPy) and ``exactIsCheap(_:_:)``; otherwise the
    /// normal approximation with SciPy's tie correction and continuity
    /// correction ("asymptotic"). The exact p-value of `.greater` is P(U ≥ u)
    /// under the null distribution of U; of `.less`, P(U ≤ u). When every value is
    /// equal the approximation's variance is 0 and the p-value is 1. With an empty
    /// side, U is 0 and the p-value 1. With a `shift` s, `.greater` tests "head
    /// exceeds base by more than s" (the null: by s or less), `.less` "by less than s".
    ///
    /// ```swift
    /// let test = RankStatistics.mannWhitney(head: [5, 6, 7], base: [1, 2, 3, 4], alternative: .greater)
    /// // u 12, pValue 1/35 ≈ 0.02857, method .exact
    /// ```
    public static func mannWhitney(head: [Double], base: [Double], alternative: Alternative, shift: Double = 0)
        -> MannWhitney
    {
        TwoSamples(head: head, base: base).mannWhitney(alternative, shift: shift)
    }

    /// The Hodges–Lehmann shift: the median of the n·m differences head_i − base_j.
    ///
    /// The median of an even number of differences is the mean of the middle two
    /// (as `numpy.median`). An estimate of how much `head` is above `base`, robust to
    /// outliers. NaN when either side is empty. The differences are never stored:
    /// the order statistics are selected from the sorted samples, expected
    /// O(n log m · log nm) time, O(n + m) memory.
    ///
    /// ```swift
    /// RankStatistics.hodgesLehmannShift(head: [11, 12, 13], base: [1, 2, 3])  // 10
    /// ```
    public static func hodgesLehmannShift(head: [Double], base: [Double]) -> Double {
        TwoSamples(head: head, base: base).differences.median
    }

    /// The distribution-free (Moses) confidence interval of the Hodges–Lehmann
    /// shift, each bound at one-sided level `alpha` (two-sided confidence
    /// 1 − 2·`alpha`; 95 % by default).
    ///
    /// The bounds are the k-th smallest and the k-th largest of the n·m differences
    /// head − base, with k the lower critical value of U at one-sided `alpha`: the
    /// interval is exactly the set of shifts s that the one-sided tests of
    /// head − s (``mannWhitney(head:base:alternative:shift:)``) do not reject at `alpha`.
    /// - when the test is exact (as in ``mannWhitney(head:base:alternative:shift:)``),
    ///   k = 1 + the largest c with P(U ≤ c) ≤ `alpha` under the exact null distribution
    ///   of U (at 2.5 % compared exactly on the counts: 40 · #{U ≤ c} ≤ C(n+m, n)).
    ///   The interval covers the true shift with probability 1 − 2·P(U ≤ k−1) ≥ 1 − 2·`alpha`;
    /// - otherwise k = ⌊nm/2 − z·√(nm(n+m+1)/12)⌋ with z = Φ⁻¹(1 − `alpha`)
    ///   (``normalQuantile(_:)``; no tie correction).
    ///
    /// When no k qualifies — even P(U ≤ 0) = 1/C(n+m, n) exceeds `alpha`, as with 1 to 3
    /// launches a side at 95 % — no interval reaches the level and the bounds are
    /// −∞ and +∞ (nothing is excluded), never a narrower interval of lower coverage.
    /// For 20 launches a side at 95 %, k = 128. Both bounds are NaN when either side
    /// is empty. Expected O(n log m · log nm) time, O(n + m) memory (plus O(nm) for
    /// the exact null distribution).
    ///
    /// ```swift
    /// let (lower, upper) = RankStatistics.mosesInterval(head: head, base: base, alpha: 0.005)  // 99 %
    /// if lower > 0 { print("head is slower by at least \(lower)") }
    /// ```
    public static func mosesInterval(head: [Double], base: [Double], alpha: Double = 0.025) -> (
        lower: Double, upper: Double
    ) {
        TwoSamples(head: head, base: base).mosesInterval(alpha: alpha)
    }

    /// Holm's step-down adjusted p-values, in the input's order, each at most 1.
    ///
    /// With the p-values sorted ascending, the i-th smallest (0-based) is multiplied
    /// by (count − i), a running maximum keeps the order, and the results are capped
    /// at 1 (as `statsmodels.stats.multitest.multipletests(p, method="holm")`).
    /// Rejecting where the adjusted value is below α controls the family-wise error
    /// rate at α. Empty in, empty out.
    ///
    /// ```swift
    /// RankStatistics.holm([0.01, 0.04, 0.03, 0.005])  // [0.03, 0.06, 0.06, 0.02]
    /// ```
    public static func holm(_ pValues: [Double]) -> [Double] {
        let order = pValues.indices.sorted { (pValues[$0], $0) < (pValues[$1], $1) }
        var adjusted = [Double](repeating: 0, count: pValues.count)
        var running = 0.0
        for (rank, index) in order.enumerated() {
            running = max(running, Double(pValues.count - rank) * pValues[index])
            adjusted[index] = min(running, 1)
        }
        return adjusted
    }
}

// MARK: - Shared pieces (internal)

extension RankStatistics {
    /// The standard normal CDF, computed as SciPy's `special.ndtr` (Cephes): from
    /// erf near 0, from erfc in the tails so small probabilities keep their digits.
    static func normalCDF(_ a: Double) -> Double {
        guard !a.isNaN else { return .nan }
        let halfSquareRootTwo = 0.707_106_781_186_547_524_40
        let x = a * halfSquareRootTwo
        let z = abs(x)
        if z < halfSquareRootTwo { return 0.5 + 0.5 * Platform.errorFunction(x) }
        let y = 0.5 * Platform.complementaryErrorFunction(z)
        return x > 0 ? 1 - y : y
    }
}
