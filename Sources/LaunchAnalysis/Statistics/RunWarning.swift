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
    /// session, and explains this much of the variance, is warned about.
    public static let driftShare = 0.10
    public static let driftMinimumRSquared = 0.5
    /// Changes smaller than this (milliseconds) are not worth a warning, whatever their share.
    public static let minimumChangeMs = 1.0

    /// The warnings for `values`, in run order. Needs 4 runs or more.
    public static func detect(_ values: [Double]) -> [RunWarning] {
        guard values.count >= 4 else { return [] }
        var warnings: [RunWarning] = []
        let rest = Array(values.dropFirst()).sorted()
        let restMedian = Summary.quantile(sorted: rest, 0.5)
        if restMedian > 0, values[0] / restMedian >= firstRunRatio, values[0] - restMedian >= minimumChangeMs {
            warnings.append(.firstRunSlow(ratio: values[0] / restMedian))
        }
        let n = Double(values.count)
        let xs = values.indices.map(Double.init)
        let meanX = xs.reduce(0, +) / n
        let meanY = values.reduce(0, +) / n
        var sxy = 0.0, sxx = 0.0, syy = 0.0
        for (x, y) in zip(xs, values) {
            sxy += (x - meanX) * (y - meanY)
            sxx += (x - meanX) * (x - meanX)
            syy += (y - meanY) * (y - meanY)
        }
        let median = Summary.quantile(sorted: values.sorted(), 0.5)
        guard sxx > 0, syy > 0, median > 0 else { return warnings }
        let slope = sxy / sxx
        let rSquared = (sxy * sxy) / (sxx * syy)
        let relative = slope * (n - 1) / median
        if abs(relative) >= driftShare, abs(slope * (n - 1)) >= minimumChangeMs, rSquared >= driftMinimumRSquared {
            warnings.append(.drift(slope: slope, relative: relative))
        }
        return warnings
    }
}
