/// Why two measurements cannot be compared.
public enum ComparisonError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The two sides share no metric; `reason` says why.
    case noMetricInCommon(String)

    /// One line naming the problem.
    public var description: String {
        switch self {
        case .noMetricInCommon(let reason): return "nothing to compare: \(reason)"
        }
    }
}
