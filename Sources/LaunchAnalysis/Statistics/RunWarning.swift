/// Something about the order of runs that makes the numbers less trustworthy.
public enum RunWarning: Sendable, Codable, Equatable {
    /// The first counted run took `ratio` times the median of the others: caches
    /// were probably cold (more warm-up runs would hide it).
    case firstRunSlow(ratio: Double)
    /// Times change steadily over the session: `slope` milliseconds per run
    /// (Theil–Sen), `relative` the total change over the session as a share
    /// of the median. The machine was probably getting busier, or quieter.
    case drift(slope: Double, relative: Double)
}

/// Detects ``RunWarning``s in values listed in run order.
public enum RunWarnings {
    /// A first run this many times the median of the others is warned about.
    public static let firstRunRatio = 1.5
    /// A trend that changes the value by this share of the median over the
    /// session is warned about (when it is also consistent: ``driftMinimumTau``).
    public static let driftShare = 0.10
    /// Changes smaller than this (milliseconds) are not worth a warning, whatever their share.
    public static let minimumChangeMs = 1.0

    /// Runs needed before a drift is judged.
    public static let driftMinimumRuns = 8
    /// How consistently the values must move one way: Kendall's τ against run order.
    public static let driftMinimumTau = 0.5
    /// Longer series are judged on the medians of this many consecutive blocks,
    /// which keeps the pairwise work bounded (the statistics are O(n²)).
    public static let driftMaximumPoints = 200

    /// The warnings for `values`, in run order. The first-run check needs 4 runs,
    /// the drift check ``driftMinimumRuns``.
    ///
    /// A drift needs two things, each robust to a single wild run: a consistent
    /// direction (Kendall's τ against run order at least ``driftMinimumTau``) and a
    /// size (the Theil–Sen slope, the median of the pairwise slopes, changing the
    /// value by at least ``driftShare`` of the median and ``minimumChangeMs`` over
    /// the session).
    public static func detect(_ values: [Double]) -> [RunWarning] {
        guard values.count >= 4 else { return [] }
        var warnings: [RunWarning] = []
        let rest = Array(values.dropFirst()).sorted()
        let restMedian = Summary.quantile(sorted: rest, 0.5)
        if restMedian > 0, values[0] / restMedian >= firstRunRatio, values[0] - restMedian >= minimumChangeMs {
            warnings.append(.firstRunSlow(ratio: values[0] / restMedian))
        }
        guard values.count >= driftMinimumRuns else { return warnings }
        let median = Summary.median(values)
        guard median > 0 else { return warnings }

        // (position, value) points, thinned to block medians for long series.
        var points: [(x: Double, y: Double)] = values.enumerated().map { (Double($0.offset), $0.element) }
        if points.count > driftMaximumPoints {
            let size = Double(values.count) / Double(driftMaximumPoints)
            points = (0..<driftMaximumPoints).map { block in
                let lower = Int(saturating: (Double(block) * size).rounded(.down))
                let upper = max(lower + 1, Int(saturating: (Double(block + 1) * size).rounded(.down)))
                let slice = values[lower..<min(upper, values.count)].sorted()
                return ((Double(lower) + Double(upper - 1)) / 2, Summary.quantile(sorted: slice, 0.5))
            }
        }
        var slopes: [Double] = []
        slopes.reserveCapacity(points.count * (points.count - 1) / 2)
        var concordance = 0.0
        for i in points.indices {
            for j in points.indices where j > i {
                let dy = points[j].y - points[i].y
                slopes.append(dy / (points[j].x - points[i].x))
                concordance += dy > 0 ? 1 : dy < 0 ? -1 : 0
            }
        }
        let pairs = Double(points.count * (points.count - 1) / 2)
        let tau = concordance / pairs
        let slope = Summary.median(slopes)
        let change = slope * Double(values.count - 1)
        let relative = change / median
        if abs(tau) >= driftMinimumTau, abs(relative) >= driftShare, abs(change) >= minimumChangeMs {
            warnings.append(.drift(slope: slope, relative: relative))
        }
        return warnings
    }
}
