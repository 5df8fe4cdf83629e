extension MeasurementReport {
    /// What counting cost: a counted launch's median wall time to its exit, and its
    /// median CPU time, over the timed launches' own medians (successful runs only); nil
    /// when nothing was counted. Valgrind's slowdown is 20–50 × for most programs.
    public var countedSlowdown: (wall: Double?, cpu: Double?)? {
        guard let counted = countedRuns?.filter({ $0.status == .ok }), !counted.isEmpty else { return nil }
        let timed = successfulRuns
        func ratio(_ counted: [Double], _ timed: [Double]) -> Double? {
            guard !counted.isEmpty, !timed.isEmpty else { return nil }
            let base = Summary.median(timed.sorted())
            return base > 0 ? Summary.median(counted.sorted()) / base : nil
        }
        return (
            ratio(counted.compactMap(\.timeToExitMs), timed.compactMap { $0.timeToExitMs ?? $0.timeToReadyMs }),
            ratio(
                counted.compactMap { $0.cpuTime?.totalMilliseconds }, timed.compactMap { $0.cpuTime?.totalMilliseconds }
            )
        )
    }
}
