import LaunchAnalysis

/// One row of the strip plot: one side's runs.
struct DistributionRow {
    /// What the row shows: `runs`, `base`, `head`.
    var label: String
    /// Each successful run's value, milliseconds, by run index.
    var points: [(run: Int, ms: Double)]
    /// The runs that are outliers (the phase statistics' ``LaunchProfile/PhaseStatistics/outlierRuns``).
    var outliers: Set<Int>
    /// The values' summary (median and its confidence interval are drawn).
    var summary: Summary
    /// The run drawn in the timeline, if any.
    var highlighted: Int?
}
