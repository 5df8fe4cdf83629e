import LaunchTracing

// The comparison's metrics and sides as typed values, for renderers that decide
// by them: the spelt names stay in the JSON and in labels.
extension ComparisonReport {
    /// The metric that decides (``primaryMetric`` read as an id); nil when nothing was compared.
    ///
    /// ```swift
    /// if case .total(let phase)? = report.primaryID { … }  // .timeToFirstFrame
    /// ```
    public var primaryID: MetricID? { MetricID(parsing: primaryMetric) }

    /// True when `metric` is the one that decides.
    public func isPrimary(_ metric: MetricComparison) -> Bool {
        guard let id = metric.id else { return false }
        return id == primaryID
    }

    /// The phase the deciding total measures to (`timeToFirstFrame`); nil when CPU time decides or nothing was compared.
    public var primaryTotal: Phase? {
        if case .total(let phase)? = primaryID { return phase }
        return nil
    }

    /// Both sides, base first, each with its report: what renderers label with the side's name.
    public var sides: [(side: ComparisonSide, report: MeasurementReport)] { [(.base, base), (.head, head)] }
}
