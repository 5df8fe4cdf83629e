/// Descriptive statistics of one measured quantity over runs, in milliseconds.
///
/// Percentiles use linear interpolation between order statistics (Hyndman and
/// Fan's type 7, the default of R, NumPy and Excel's `PERCENTILE.INC`). The
/// standard deviation is the sample one (n − 1). The MAD is the raw median
/// absolute deviation (not scaled by 1.4826). The confidence interval of the
/// median is distribution-free: it is the pair of order statistics that a
/// binomial(n, ½) argument puts around the median (see ``medianConfidenceInterval``).
///
/// ```swift
/// let summary = Summary.of([102.1, 101.7, 103.4, 101.9])!
/// print(summary.median, summary.p90)
/// ```
public struct Summary: Sendable, Codable, Equatable {
    /// An interval of values, both ends included; in JSON, `[lowerBound, upperBound]`.
    public struct Interval: Sendable, Codable, Equatable {
        /// The lower end, included.
        public var lowerBound: Double
        /// The upper end, included.
        public var upperBound: Double

        /// Makes the interval `[lowerBound, upperBound]`.
        public init(lowerBound: Double, upperBound: Double) {
            self.lowerBound = lowerBound
            self.upperBound = upperBound
        }

        /// Reads an interval from a two-element array, `[lowerBound, upperBound]`.
        public init(from decoder: any Decoder) throws {
            var container = try decoder.unkeyedContainer()
            lowerBound = try container.decode(Double.self)
            upperBound = try container.decode(Double.self)
        }

        /// Writes the interval as a two-element array, `[lowerBound, upperBound]`.
        public func encode(to encoder: any Encoder) throws {
            var container = encoder.unkeyedContainer()
            try container.encode(lowerBound)
            try container.encode(upperBound)
        }
    }

    /// How many values were summarised (NaNs excluded); `n` in JSON.
    public var count: Int
    /// The smallest value, milliseconds.
    public var min: Double
    /// The largest value, milliseconds.
    public var max: Double
    /// The arithmetic mean, milliseconds.
    public var mean: Double
    /// The median (the 0.5 quantile, type 7), milliseconds.
    public var median: Double
    /// Sample standard deviation (n − 1); 0 for one value.
    public var standardDeviation: Double
    /// Median absolute deviation from the median (unscaled).
    public var medianAbsoluteDeviation: Double
    /// The 90th percentile (type 7), milliseconds.
    public var p90: Double
    /// The 95th percentile (type 7), milliseconds.
    public var p95: Double
    /// A distribution-free 95% confidence interval of the median.
    public var medianConfidenceInterval: Interval
    /// The coverage the interval's order statistics reach: at least 0.95 when
    /// n ≥ 6; with fewer values no pair reaches 95%, the interval is the whole
    /// range, and this says what it does reach.
    public var medianConfidenceLevel: Double

    enum CodingKeys: String, CodingKey {
        case count = "n", min, max, mean, median, standardDeviation, medianAbsoluteDeviation = "mad", p90, p95
        case medianConfidenceInterval, medianConfidenceLevel
    }

    /// The summary of `values`, or nil when there are none (NaNs are ignored).
    public static func of(_ values: [Double]) -> Summary? {
        let sorted = values.filter { !$0.isNaN }.sorted()
        guard let first = sorted.first, let last = sorted.last else { return nil }
        let n = sorted.count
        let mean = sorted.reduce(0, +) / Double(n)
        let variance = n > 1 ? sorted.reduce(0) { $0 + ($1 - mean) * ($1 - mean) } / Double(n - 1) : 0
        let median = quantile(sorted: sorted, 0.5)
        let deviations = sorted.map { abs($0 - median) }.sorted()
        let interval = medianInterval(sorted: sorted, level: 0.95)
        return Summary(
            count: n, min: first, max: last, mean: mean, median: median, standardDeviation: variance.squareRoot(),
            medianAbsoluteDeviation: quantile(sorted: deviations, 0.5),
            p90: quantile(sorted: sorted, 0.90), p95: quantile(sorted: sorted, 0.95),
            medianConfidenceInterval: interval.interval, medianConfidenceLevel: interval.confidence)
    }

    /// The median of `values` in any order; NaN when there are none.
    ///
    /// ```swift
    /// Summary.median([3, 1, 2])   // 2
    /// ```
    public static func median(_ values: [Double]) -> Double {
        values.isEmpty ? .nan : quantile(sorted: values.sorted(), 0.5)
    }

    /// The `q` quantile (0…1) of ascending `sorted` values, type 7.
    public static func quantile(sorted: [Double], _ q: Double) -> Double {
        precondition(!sorted.isEmpty, "quantile of no values")
        let position = (q.isNaN ? q : Swift.min(Swift.max(q, 0), 1)) * Double(sorted.count - 1)
        let lower = Swift.min(Swift.max(0, Int(saturating: position.rounded(.down))), sorted.count - 1)
        let upper = Swift.min(lower + 1, sorted.count - 1)
        let fraction = position - Double(lower)
        return sorted[lower] + (sorted[upper] - sorted[lower]) * fraction
    }

    /// The distribution-free confidence interval of the median.
    ///
    /// The number of values below the true median is binomial(n, ½), so the
    /// interval between the k-th smallest and the k-th largest value covers it
    /// with probability 1 − 2·P(B ≤ k − 1). The largest k reaching `level` is
    /// used (Conover, *Practical Nonparametric Statistics*, 3rd ed., §3.2).
    public static func medianInterval(sorted: [Double], level: Double) -> (interval: Interval, confidence: Double) {
        let n = sorted.count
        // P(B ≤ j) accumulated term by term: one pass, O(n), in log space for large n.
        let logHalfN = Double(n) * Platform.naturalLogarithm(0.5)
        var cdf = Platform.exponential(logHalfN)  // P(B ≤ 0)
        var k = 1
        var coverage = 1 - 2 * cdf
        guard coverage >= level else {
            return (Interval(lowerBound: sorted[0], upperBound: sorted[n - 1]), Swift.max(0, coverage))
        }
        while k + 1 <= (n + 1) / 2 {
            cdf += Platform.exponential(logChoose(n, k) + logHalfN)  // now P(B ≤ k)
            let next = 1 - 2 * cdf
            guard next >= level else { break }
            k += 1
            coverage = next
        }
        return (Interval(lowerBound: sorted[k - 1], upperBound: sorted[n - k]), coverage)
    }

    static func logChoose(_ n: Int, _ k: Int) -> Double {
        Platform.logGamma(Double(n) + 1) - Platform.logGamma(Double(k) + 1) - Platform.logGamma(Double(n - k) + 1)
    }
}
