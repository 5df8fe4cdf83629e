/// How the gate judged a metric with no base to take a ratio of: a span or phase
/// new in the head, or one whose base median is 0 (below 1 µs).
///
/// A relative minimum effect means nothing against 0 (ε would be infinite, and any
/// change would pass), so such a metric is judged on its absolute value against the
/// floor F = `--min-effect-ms` × the metric's share of the launch
/// (``GateSettings/absoluteFloorMs(floorShare:)``; for a metric with a budget, its
/// budget over the primary metric's): a one-sided sign test of the head's launches
/// against F. A regression when the head is above F at the metric's level (its Holm
/// step), a pass when it is below F at the look's level, otherwise inconclusive. The
/// interval shown is that of the head's median from the same test (order statistics
/// of the head), in milliseconds; the shift is the head's median.
///
/// ```swift
/// // base 0 ms in every launch, head 99 ms, a hook budget of 50 ms of a 400 ms launch:
/// // F = 5 ms × 50/400 = 0.625 ms; 10 head launches all above it: p = 2⁻¹⁰, a regression.
/// ```
public struct AbsoluteChange: Sendable, Equatable, Codable {
    /// The floor F the head was tested against, milliseconds.
    public var floorMs: Double
    /// Head launches above the floor.
    public var above: Int
    /// Head launches below the floor.
    public var below: Int
    /// The test: always `"sign"` (the one-sided sign test, exact).
    public var test = "sign"

    /// A judgement against `floorMs` with `above` and `below` head launches on either side of it.
    public init(floorMs: Double, above: Int, below: Int) {
        self.floorMs = floorMs
        self.above = above
        self.below = below
    }
}

extension GateDecision.Statistics {
    /// Replaces the ratio tests by the sign test of `headMs` (finite) against `floorMs` (``AbsoluteChange``).
    mutating func useAbsoluteTest(headMs: [Double], floorMs: Double) {
        let sorted = headMs.sorted()
        let above = sorted.filter { $0 > floorMs }.count
        let below = sorted.filter { $0 < floorMs }.count
        let positive = sorted.filter { $0 > 0 }.count
        let nonZero = sorted.filter { $0 != 0 }.count
        absolute = AbsoluteChange(floorMs: floorMs, above: above, below: below)
        shift = Summary.quantile(sorted: sorted, 0.5)
        pRegression = Binomial.upperTail(above, of: above + below)
        pPass = Binomial.upperTail(below, of: above + below)
        pImprovement = 1
        pGreater = Binomial.upperTail(positive, of: nonZero)
        methods = (.exact, .exact, .exact)
        interval = { level in
            // The sign test's interval of the median: x₍ᵣ₎ … x₍ₙ₊₁₋ᵣ₎ with r the largest whose tail is below `level`.
            let n = sorted.count
            var r = 0
            while r < n, Binomial.upperTail(n - r, of: n) < level { r += 1 }
            guard r >= 1 else { return (-.infinity, .infinity) }
            return (sorted[r - 1], sorted[n - r])
        }
    }
}

/// The binomial distribution with p = 1/2: the sign test's null distribution.
///
/// ```swift
/// Binomial.upperTail(10, of: 10)  // 2⁻¹⁰ ≈ 0.000977
/// ```
public enum Binomial {
    /// P(X ≥ `k`) for X ~ Binomial(`n`, 1/2): 1 for k ≤ 0, 0 for k > n. As
    /// `scipy.stats.binom.sf(k - 1, n, 0.5)`.
    public static func upperTail(_ k: Int, of n: Int) -> Double {
        guard k > 0 else { return 1 }
        guard k <= n else { return 0 }
        // P(X ≥ k) = I_½(k, n − k + 1).
        return min(max(StudentT.regularizedBeta(0.5, Double(k), Double(n - k + 1)), 0), 1)
    }
}
