extension MeasurementReport {
    /// The counted runs that succeeded (no warm-up, status `ok`): the launches every
    /// statistic, comparison and chart is made from. ``LaunchProfile/successfulRuns`` is their count.
    public var successfulRuns: [RunRecord] { runs.successful }

    /// The counted runs that failed (no warm-up, any status but `ok`), in run order.
    public var failedRuns: [RunRecord] { runs.failed }
}

extension Collection<RunRecord> {
    /// The counted runs: every run but the warm-ups.
    public var counted: [RunRecord] { filter { !$0.isWarmup } }

    /// The counted runs that succeeded (status `ok`).
    public var successful: [RunRecord] { filter { !$0.isWarmup && $0.status == .ok } }

    /// The counted runs that failed (any status but `ok`).
    public var failed: [RunRecord] { filter { !$0.isWarmup && $0.status != .ok } }
}
