/// Outlying runs by the modified z-score (Iglewicz and Hoaglin, 1993), the test
/// hyperfine uses: `0.6745 × (x − median) / MAD`, outlying beyond 3.5.
///
/// Outliers are reported, never dropped: a slow launch is a real launch.
///
/// ```swift
/// Outliers.detect([10, 10.2, 9.9, 10.1, 31]).indices  // [4]
/// ```
public struct Outliers: Sendable, Equatable {
    /// The threshold hyperfine and Iglewicz–Hoaglin use.
    public static let threshold = 3.5

    /// Positions in the input of the outlying values, ascending.
    public var indices: [Int]
    /// Each value's modified z-score, in input order (0 when the MAD is 0).
    public var scores: [Double]

    /// Finds the outliers in `values` (input order is kept).
    ///
    /// When the MAD is zero (more than half the values equal) the scores are
    /// undefined; no value is then called an outlier, as in hyperfine. A value
    /// closer to the median than `minimumDeviation` is never an outlier, however
    /// tight the others are (0.03 ms off a 0.6 ms median is not worth a flag).
    public static func detect(_ values: [Double], minimumDeviation: Double = 0) -> Outliers {
        guard values.count >= 3 else { return Outliers(indices: [], scores: values.map { _ in 0 }) }
        let sorted = values.sorted()
        let median = Summary.quantile(sorted: sorted, 0.5)
        let mad = Summary.median(values.map { abs($0 - median) })
        guard mad > 0 else { return Outliers(indices: [], scores: values.map { _ in 0 }) }
        let scores = values.map { 0.6745 * ($0 - median) / mad }
        return Outliers(
            indices: scores.indices.filter {
                abs(scores[$0]) > threshold && abs(values[$0] - median) >= minimumDeviation
            },
            scores: scores)
    }
}
