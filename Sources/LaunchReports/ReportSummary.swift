import Foundation
import LaunchAnalysis
import LaunchTracing

/// What an existing report file says about itself, decoded without its runs,
/// findings or timelines: its kind, the command lines it measured, and how many
/// of its runs succeeded. Enough to name a new report beside it and to say when
/// a new one replaces a better one, without decoding the whole report.
///
/// ```swift
/// if let old = ReportSummary.read(from: "Reports/my-app.json"), old.commands == [["./my-app"]] { … }
/// ```
public struct ReportSummary: Sendable, Equatable {
    /// What kind of report it is.
    public enum Kind: Sendable, Equatable { case measurement, comparison }

    /// A measurement or a comparison.
    public var kind: Kind
    /// The measured command line: one for a measurement, base and head for a comparison.
    public var commands: [[String]]
    /// A measurement's counted runs that succeeded, and all its counted runs (0 for a comparison).
    public var successfulRuns: Int, runCount: Int

    /// The summary of the report at `path`; nil when there is none, or it is not a
    /// report this launchprof reads (malformed, a key twice in one object, unknown kind, newer schema).
    ///
    /// Reads the first ``headerBytes`` of the file, where a report written by
    /// this launchprof has its header (``JSONPrefix``); only a report whose
    /// header is not there (one written before schema 3, whose keys were
    /// sorted, or a comparison whose base side is that large) is read whole.
    public static func read(from path: String) -> ReportSummary? {
        guard let prefix = try? BoundedFile.read(path, limit: headerBytes, prefix: true) else { return nil }
        // A key twice makes it unreadable here as in JSONReport (the decoder would keep the first, jq the last).
        if let closed = JSONPrefix.closed(prefix), JSONDuplicateKeys.find(in: Data(closed)) == nil,
            let fields = try? JSONDecoder().decode(Fields.self, from: Data(closed)), let summary = fields.summary
        {
            return summary
        }
        guard prefix.count == headerBytes, let bytes = try? BoundedFile.read(path, limit: JSONReport.maximumFileBytes),
            JSONDuplicateKeys.find(in: Data(bytes)) == nil
        else { return nil }
        return try? JSONDecoder().decode(Fields.self, from: Data(bytes)).summary
    }

    /// How much of a report is read for its header: 256 KiB.
    public static let headerBytes = 256 << 10

    /// The fields read, and nothing else.
    private struct Fields: Decodable {
        struct Configuration: Decodable { let command: [String] }
        struct Profile: Decodable { let successfulRuns: Int, runCount: Int }
        struct Side: Decodable { let configuration: Configuration }
        let kind: String?
        let schemaVersion: Int
        let configuration: Configuration?
        let profile: Profile?
        let base: Side?, head: Side?

        var summary: ReportSummary? {
            switch kind ?? (schemaVersion == 1 ? MeasurementReport.kind : "") {
            case MeasurementReport.kind:
                guard (1...MeasurementReport.currentSchemaVersion).contains(schemaVersion), let configuration,
                    let profile
                else { return nil }
                return ReportSummary(
                    kind: .measurement, commands: [configuration.command], successfulRuns: profile.successfulRuns,
                    runCount: profile.runCount)
            case ComparisonReport.kind:
                guard (1...ComparisonReport.currentSchemaVersion).contains(schemaVersion), let base, let head else {
                    return nil
                }
                return ReportSummary(
                    kind: .comparison, commands: [base.configuration.command, head.configuration.command],
                    successfulRuns: 0, runCount: 0)
            default:
                return nil
            }
        }
    }
}
