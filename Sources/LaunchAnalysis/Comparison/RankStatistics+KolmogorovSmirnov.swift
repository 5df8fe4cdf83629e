// The two-sample Kolmogorov–Smirnov test: does the head's distribution differ
// from the base's in shape, not only in location?

extension RankStatistics {
    /// The result of a two-sided two-sample Kolmogorov–Smirnov test.
    ///
    /// ```swift
    /// let ks = RankStatistics.kolmogorovSmirnov(head: head, base: base)
    /// if ks.pValue < 0.01 { print("the distributions differ (D = \(ks.statistic))") }
    /// ```
    public struct KolmogorovSmirnov: Sendable, Equatable {
        /// D = max |F_head(x) − F_base(x)| over the values, the empirical distribution functions.
        public var statistic: Double
        /// P(D ≥ d) under the null that both sides come from one continuous distribution.
        public var pValue: Double
        /// How `pValue` was computed.
        public var method: Method
    }

    /// The largest n·m for which ``kolmogorovSmirnov(head:base:)`` counts the exact
    /// distribution (an O(n·m) walk): 4,000,000, e.g. 2,000 launches a side.
    public static let kolmogorovSmirnovExactLimit = 4_000_000

    /// The two-sided two-sample Kolmogorov–Smirnov test of `head` against `base`.
    ///
    /// As `scipy.stats.ks_2samp(head, base, method="exact")` (SciPy's `auto` is exact
    /// up to 10,000 values a side): D is evaluated after each group of equal values,
    /// and the p-value is the share of the C(n+m, n) orderings whose path strays
    /// at least as far, counted on integers (|i·m − j·n| against n·m·D) with each
    /// path weighted by 1/C(n+m, n) as it goes, so nothing overflows. Ties are
    /// treated as in SciPy (the null distribution is the continuous one). Beyond
    /// ``kolmogorovSmirnovExactLimit`` pairs, the Kolmogorov limit
    /// Q(λ) = 2 Σ (−1)^(k−1) e^(−2k²λ²) with λ = √(nm/(n+m))·D ("asymptotic"). With an
    /// empty side D is 0 and the p-value 1. Values must not be NaN.
    ///
    /// ```swift
    /// RankStatistics.kolmogorovSmirnov(head: [5, 6, 7], base: [1, 2, 3]).pValue  // 0.1 (every head value above every base value)
    /// ```
    public static func kolmogorovSmirnov(head: [Double], base: [Double]) -> KolmogorovSmirnov {
        let n = head.count
        let m = base.count
        guard n > 0, m > 0 else { return KolmogorovSmirnov(statistic: 0, pValue: 1, method: .exact) }
        let a = head.sorted()
        let b = base.sorted()
        // Walk both sorted samples; the largest |i·m − j·n| after each group of equal values.
        var i = 0
        var j = 0
        var largest = 0
        while i < n || j < m {
            let value = j == m ? a[i] : i == n ? b[j] : min(a[i], b[j])
            while i < n, a[i] == value { i += 1 }
            while j < m, b[j] == value { j += 1 }
            largest = max(largest, abs(i * m - j * n))
        }
        let statistic = Double(largest) / Double(n * m)
        guard n * m <= kolmogorovSmirnovExactLimit else {
            let lambda = (Double(n * m) / Double(n + m)).squareRoot() * statistic
            return KolmogorovSmirnov(statistic: statistic, pValue: kolmogorovLimit(lambda), method: .asymptotic)
        }
        // v[j] after row i: the probability that a uniformly random path reaches (i, j)
        // without straying |i·m − j·n| ≥ largest; each step from (i−1, j) or (i, j−1)
        // is taken with weight i/(i+j) or j/(i+j).
        var row = [Double](repeating: 0, count: m + 1)
        row[0] = 1
        for column in 1...m {
            row[column] = column * n < largest ? row[column - 1] : 0
        }
        for r in 1...n {
            row[0] = r * m < largest ? row[0] : 0
            for column in 1...m {
                guard abs(r * m - column * n) < largest else {
                    row[column] = 0
                    continue
                }
                let total = Double(r + column)
                row[column] = row[column] * Double(r) / total + row[column - 1] * Double(column) / total
            }
        }
        return KolmogorovSmirnov(statistic: statistic, pValue: min(max(1 - row[m], 0), 1), method: .exact)
    }

    /// Kolmogorov's limiting survival function Q(λ) = 2 Σₖ (−1)^(k−1) e^(−2k²λ²).
    static func kolmogorovLimit(_ lambda: Double) -> Double {
        guard lambda > 0.2 else { return 1 }
        var sum = 0.0
        var sign = 1.0
        for k in 1...100 {
            let term = Platform.exponential(-2 * Double(k * k) * lambda * lambda)
            sum += sign * term
            if term < 1e-17 { break }
            sign = -sign
        }
        return min(max(2 * sum, 0), 1)
    }
}
