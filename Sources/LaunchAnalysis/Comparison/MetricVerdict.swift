/// What the comparison of one metric (or of a whole comparison) concluded.
///
/// In JSON, the case name. The gate fails on `regression`; `pass` and
/// `improvement` pass it; `inconclusive` means more launches are needed.
///
/// ```swift
/// switch comparison.verdict {
/// case .regression: print("slower")
/// case .pass, .improvement: print("fine")
/// case .inconclusive: print("launch more")
/// case .error: print("not compared")
/// }
/// ```
public enum MetricVerdict: String, Sendable, Hashable, Codable, CaseIterable {
    /// Head is significantly slower, by more than the minimum effect.
    case regression
    /// Head is not slower by the minimum effect or more (the interval says so).
    case pass
    /// Head is significantly faster, by more than the minimum effect.
    case improvement
    /// The data cannot tell yet.
    case inconclusive
    /// The comparison could not be made (exit 2: too few launches, a metric missing on a
    /// side, failed runs); the outcome's reason says why. Only a whole comparison has it,
    /// so that its JSON `verdict` agrees with its exit code: never a metric.
    case error
}
