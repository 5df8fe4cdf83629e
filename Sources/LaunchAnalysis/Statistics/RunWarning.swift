/// Something about the order of runs that makes the numbers less trustworthy.
public enum RunWarning: Sendable, Codable, Equatable {
    /// The first counted run took `ratio` times the median of the others: caches
    /// were probably cold (more warm-up runs would hide it).
    case firstRunSlow(ratio: Double)
    /// Times change steadily over the session: `slope` milliseconds per run
    /// (least squares), `relative` the total change over the session as a share
    /// of the median. The machine was probably getting busier, or quieter.
    case drift(slope: Double, relative: Double)
}

/// Detects ``RunWarning``s in values listed in run order.
public enum RunWarnings {
    /// A first run this many times the median of the others is warned about.
    public static let firstRunRatio = 1.5
    /// A trend that changes the value by this share of the median over the
    /// session is warned about (when it also explains ``driftMinimumRSquared`` of the variance).
    public static let driftShare = 0.10
    /// The share of the variance (R²) a trend must explain to be warned about.
    public static let driftMinimumRSquared = 0.5
    /// Changes smaller than this (milliseconds) are not worth a warning, whatever their share.
    public static let minimumChangeMs = 1.0

    /// Runs needed before a drift is judged.
    public static let driftMinimumRuns = 8

    /// The warnings for `values`, in run order. The first-run check needs 4 runs,
    /// the drift check ``driftMinimumRuns``.
    ///
    /// The drift's slope is the Theil–Sen estimator (the median of the pairwise
    /// slopes), so one slow run does not make a trend; it must also explain at
    /// least half the variance (least-squares R²) and change the value by at least
    /// ``driftShare`` of the median and ``minimumChangeMs`` over the session.
    public static func detect(_ values: [Double]) -> [RunWarning] {
        guard values.count >= 4 else { return [] }
        var warnings: [RunWarning] = []
        let rest = Array(values.dropFirst()).sorted()
        let restMedian = Summary.quantile(sorted: rest, 0.5)
        if restMedian > 0, values[0] / restMedian >= firstRunRatio, values[0] - restMedian >= minimumChangeMs {
            warnings.append(.firstRunSlow(ratio: values[0] / restMedian))
        }
        guard values.count >= driftMinimumRuns else { return warnings }
        let n = Double(values.count)
        var slopes: [Double] = []
        slopes.reserveCapacity(values.count * (values.count - 1) / 2)
        for i in values.indices {
            for j in values.indices where j > i {
                slopes.append((values[j] - values[i]) / Double(j - i))
            }
        }
        let slope = Summary.quantile(sorted: slopes.sorted(), 0.5)
        let meanX = (n - 1) / 2
        let meanY = values.reduce(0, +) / n
        var sxy = 0.0, sxx = 0.0, syy = 0.0
        for (index, y) in values.enumerated() {
            let x = Double(index)
            sxy += (x - meanX) * (y - meanY)
            sxx += (x - meanX) * (x - meanX)
            syy += (y - meanY) * (y - meanY)
        }
        let median = Summary.quantile(sorted: values.sorted(), 0.5)
        guard sxx > 0, syy > 0, median > 0 else { return warnings }
        let rSquared = (sxy * sxy) / (sxx * syy)
        let relative = slope * (n - 1) / median
        if abs(relative) >= driftShare, abs(slope * (n - 1)) >= minimumChangeMs, rSquared >= driftMinimumRSquared {
            warnings.append(.drift(slope: slope, relative: relative))
        }
        return warnings
    }
}
