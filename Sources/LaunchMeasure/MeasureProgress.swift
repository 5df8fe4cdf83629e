import LaunchAnalysis

/// Told about each launch as it ends, for a progress display.
public protocol MeasureProgress: AnyObject {
    /// `counted` is how many counted runs have ended (0 during warm-up), of
    /// `total`; `side` is `base` or `head` in a comparison, nil in a measurement.
    func runFinished(_ run: RunRecord, side: String?, counted: Int, of total: Int, warmup: Bool, elapsedSeconds: Double)
    /// The last launch has ended.
    func finished()
    /// Counted launches (under valgrind) are about to start: `launches` of them over
    /// every side; `timedLaunchSeconds` is the timed launches' median, when there is one.
    func countingStarts(launches: Int, timedLaunchSeconds: Double?)
    /// A counted launch has ended: `counted` of `total` over every side, `elapsedSeconds` since counting started.
    func countedRunFinished(_ run: RunRecord, side: String?, counted: Int, of total: Int, elapsedSeconds: Double)
}

extension MeasureProgress {
    /// Nothing to show by default.
    public func countingStarts(launches: Int, timedLaunchSeconds: Double?) {}
    /// Nothing to show by default.
    public func countedRunFinished(_ run: RunRecord, side: String?, counted: Int, of total: Int, elapsedSeconds: Double)
    {}
}
