/// Why measurements cannot be compared, or pooled into one fleet report.
public enum ComparisonError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The two sides share no metric; `reason` says why.
    case noMetricInCommon(String)
    /// The reports cannot be pooled into one (``MeasurementReport/init(merging:name:createdAt:)``); `reason` says why.
    case cannotPool(String)
    /// One run is in two of the reports given (`first` and `second`, which may be
    /// one file given twice): it would be counted twice.
    case repeatedRun(first: String, second: String, run: String)

    /// One line naming the problem.
    public var description: String {
        switch self {
        case .noMetricInCommon(let reason): return "nothing to compare: \(reason)"
        case .cannotPool(let reason): return "cannot pool these reports: \(reason)"
        case .repeatedRun(let first, let second, let run):
            return "'\(first)' and '\(second)' hold the same \(run): one run cannot be counted twice"
        }
    }
}
