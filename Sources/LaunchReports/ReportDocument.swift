import LaunchAnalysis

/// The one document every renderer draws: a measurement now, a comparison
/// when `launchprof compare` comes. Each kind carries its own ``ReportOutcome``.
public enum ReportDocument: Sendable, Equatable {
    /// A `launchprof measure` report (`kind` `measurement`).
    case measurement(MeasurementReport)

    /// The document's `kind` in JSON.
    public var kind: String {
        switch self {
        case .measurement: return MeasurementReport.kind
        }
    }

    /// The report's name: file names derive from it.
    public var name: String {
        switch self {
        case .measurement(let report): return report.name
        }
    }

    /// How it came out.
    public var outcome: ReportOutcome {
        switch self {
        case .measurement(let report): return report.outcome
        }
    }
}
