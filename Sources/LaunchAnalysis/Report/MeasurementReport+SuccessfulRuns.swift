extension MeasurementReport {
    /// The counted runs that succeeded (no warm-up, status `ok`): the launches every
    /// statistic, comparison and chart is made from. ``LaunchProfile/successfulRuns`` is their count.
    public var successfulRuns: [RunRecord] { runs.filter { !$0.isWarmup && $0.status == .ok } }
}
