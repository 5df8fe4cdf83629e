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
    /// The machine the row's runs were made on, in a report of several machines:
    /// its key (the row's tooltip) and its position, which picks its colour.
    var machine: (key: String, position: Int)? = nil
}

extension DistributionRow {
    /// One row per machine of `report`'s `metric` (``MeasurementReport/machineBreakdown(_:)``),
    /// each labelled `prefix` and the machine's key, coloured by the machine's position in `machines`.
    static func perMachine(
        _ report: MeasurementReport, metric: Phase, prefix: String = "", machines: [String], highlighted: Int?
    ) -> [DistributionRow] {
        report.machineBreakdown(metric).map { breakdown in
            let position = machines.firstIndex(of: breakdown.machine) ?? 0
            return DistributionRow(
                label: prefix + breakdown.machine, points: breakdown.points.map { (run: $0.run, ms: $0.ms) },
                outliers: Set(breakdown.outlierRuns), summary: breakdown.summary,
                highlighted: breakdown.points.contains { $0.run == highlighted } ? highlighted : nil,
                machine: (breakdown.machine, position))
        }
    }
}
