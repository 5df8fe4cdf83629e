import LaunchAnalysis

/// A measurement that passed with nothing checked (no budget from any source,
/// so no check ran): its banner says `MEASURED`, not `PASS`. Its exit code and
/// `outcome.status` stay as they are; only the word a reader sees changes.
enum NothingChecked {
    /// The word shown instead of `PASS`.
    static let word = "MEASURED"

    /// True when `document` is a measurement that passed without any budget check.
    static func applies(to document: ReportDocument) -> Bool {
        guard case .measurement(let report) = document else { return false }
        return applies(to: report)
    }

    /// True when `report` passed without any budget check.
    static func applies(to report: MeasurementReport) -> Bool {
        report.outcome.status == .pass && report.profile.verdict.checks.isEmpty
    }
}
