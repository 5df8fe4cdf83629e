import LaunchAnalysis

/// Told about each launch as it ends, for a progress display.
public protocol MeasureProgress: AnyObject {
    /// `counted` is how many counted runs have ended (0 during warm-up), of
    /// `total`; `side` is `base` or `head` in a comparison, nil in a measurement.
    func runFinished(_ run: RunRecord, side: String?, counted: Int, of total: Int, warmup: Bool, elapsedSeconds: Double)
    /// The last launch has ended.
    func finished()
}
