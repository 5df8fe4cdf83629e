import LaunchAnalysis

/// The one document every renderer draws: a measurement now, a comparison
/// when `launchprof compare` comes. Each kind carries its own ``ReportOutcome``.
public enum ReportDocument: Sendable, Equatable {
    /// A `launchprof measure` report (`kind` `measurement`).
    case measurement(MeasurementReport)
    /// A `launchprof compare` report (`kind` `comparison`).
    case comparison(ComparisonReport)

    /// The document's `kind` in JSON.
    public var kind: String {
        switch self {
        case .measurement: return MeasurementReport.kind
        case .comparison: return ComparisonReport.kind
        }
    }

    /// The report's name: file names derive from it.
    public var name: String {
        switch self {
        case .measurement(let report): return report.name
        case .comparison(let report): return report.name
        }
    }

    /// The id of the write its files came from (``MeasurementReport/reportID``); nil when not written to files.
    public var reportID: String? {
        switch self {
        case .measurement(let report): return report.reportID
        case .comparison(let report): return report.reportID
        }
    }

    /// The document with `id` as its ``reportID``: every format rendered from it carries it.
    public func identified(as id: String?) -> ReportDocument {
        switch self {
        case .measurement(var report):
            report.reportID = id
            return .measurement(report)
        case .comparison(var report):
            report.reportID = id
            return .comparison(report)
        }
    }

    /// True when it was read from (or made as) the schema version this launchprof writes.
    public var isCurrentSchema: Bool {
        switch self {
        case .measurement(let report): return report.schemaVersion == MeasurementReport.currentSchemaVersion
        case .comparison(let report): return report.schemaVersion == ComparisonReport.currentSchemaVersion
        }
    }

    /// How it came out.
    public var outcome: ReportOutcome {
        switch self {
        case .measurement(let report): return report.outcome
        case .comparison(let report): return report.outcome
        }
    }
}

extension ReportDocument {
    /// The document with every path of the measured program cut to its last
    /// component (`--redact-paths`; see `PathRedaction`).
    public func redactingPaths() -> ReportDocument {
        switch self {
        case .measurement(let report): return .measurement(report.redactingPaths())
        case .comparison(let report): return .comparison(report.redactingPaths())
        }
    }
}
