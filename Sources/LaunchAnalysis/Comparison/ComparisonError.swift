/// Why measurements cannot be compared, or pooled into one fleet report.
public enum ComparisonError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The two sides share no metric; `reason` says why.
    case noMetricInCommon(String)
    /// The reports cannot be pooled into one (``MeasurementReport/init(merging:name:createdAt:)``); `reason` says why.
    case cannotPool(String)
    /// Too few launches for the test ever to decide (or, across machines, fewer than
    /// ``GateSettings/minimumLaunchesPerMachine`` on a machine): how many are needed.
    case tooFewLaunches(LaunchShortfall)
    /// A metric asked to gate on is not one the comparison has; `nearest` is the closest name it has.
    case unknownGateName(name: String, nearest: String?)
    /// One run is in two of the reports given (`first` and `second`, which may be
    /// one file given twice): it would be counted twice.
    case repeatedRun(first: String, second: String, run: String)

    /// One line naming the problem.
    public var description: String {
        switch self {
        case .noMetricInCommon(let reason): return "nothing to compare: \(reason)"
        case .cannotPool(let reason): return "cannot pool these reports: \(reason)"
        case .tooFewLaunches(let shortfall): return "too few launches: \(shortfall)"
        case .unknownGateName(let name, let nearest?):
            return "unknown gate metric '\(name)': did you mean '\(nearest)'?"
        case .unknownGateName(let name, nil): return "unknown gate metric '\(name)'"
        case .repeatedRun(let first, let second, let run):
            return "'\(first)' and '\(second)' hold the same \(run): one run cannot be counted twice"
        }
    }
}
