import LaunchAnalysis

/// The lines every text format writes about machines: a pooled report's
/// distribution per machine, a fleet comparison's machines with their own
/// shifts, and the machines left out. Renderers draw these; they decide nothing.
/// A machine key comes from a report or a flag: its control characters are
/// escaped (``ControlCharacters``) here, as span names are.
enum FleetText {
    /// The metric a report's per-machine lines are about: the primary total.
    static func metric(_ report: MeasurementReport) -> Phase? {
        report.profile.primaryPhase
    }

    /// `runner-a: 6 runs, median 123.4 ms, p90 130.1 ms, 95% CI 120.2–125.0 ms`, for
    /// each machine of a report pooled from several; empty for one machine.
    static func machineLines(_ report: MeasurementReport) -> [String] {
        guard report.machineKeys.count > 1, let metric = metric(report) else { return [] }
        return report.machineBreakdown(metric).map { machine in
            "\(ControlCharacters.escaped(machine.machine)): \(machine.summary.count) runs, median \(ms(machine.summary.median)), "
                + "p90 \(ms(machine.summary.p90)), 95% CI \(TerminalReport.interval(machine.summary))"
                + (machine.outlierRuns.isEmpty ? "" : ", \(machine.outlierRuns.count) outlier(s)")
        }
    }

    /// `machines (timeToFirstFrame, 3)`: the heading over ``machineLines(_:)``.
    static func machineHeading(_ report: MeasurementReport) -> String {
        "machines (\(metric(report)?.rawValue ?? "total"), \(report.machineKeys.count))"
    }

    /// `runner-a: 6 vs 6 launches, 123.4 ms → 150.2 ms, +21.7% (+26.8 ms)`.
    static func shiftLine(_ machine: FleetComparison.Machine) -> String {
        "\(ControlCharacters.escaped(machine.machine)): \(machine.baseCount) vs \(machine.headCount) launches, \(ms(machine.baseMedianMs)) → "
            + "\(ms(machine.headMedianMs)), \(Percent.text(machine.shiftPercent)) (\(signedMs(machine.shiftMs)))"
    }

    /// `runner-c: head only (5 launches), left out`.
    static func leftOutLine(_ machine: FleetComparison.LeftOut) -> String {
        "\(ControlCharacters.escaped(machine.machine)): \(machine.side.rawValue) only (\(machine.launches) launches), left out"
    }

    /// How the machines were combined: `compared within 3 machines, combined by van Elteren's test
    /// (T = 41.2, z = 3.10); interval from inverting van Elteren's test`.
    static func method(_ fleet: FleetComparison) -> String {
        guard let statistic = fleet.statistic, let z = fleet.z else {
            return
                "compared within \(fleet.machines.count) machine(s): one machine took part, so its own Mann–Whitney test and Moses interval decide"
        }
        return
            "compared within \(fleet.machines.count) machines, combined by van Elteren's test (T = \(Milliseconds.fixed(statistic, decimals: 2)), "
            + "z = \(Milliseconds.fixed(z, decimals: 2))); "
            + (fleet.resamples > 0
                ? "95% CI from \(fleet.resamples) bootstrap resamples within machines"
                : "interval from inverting van Elteren's test")
    }
}

extension String {
    /// The string with its first character upper-cased: `Machines (…)`.
    var capitalizedFirst: String { prefix(1).uppercased() + dropFirst() }
}
