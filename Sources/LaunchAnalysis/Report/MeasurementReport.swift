import LaunchTracing

/// Everything one `launchprof measure` found, as written to the JSON report
/// (`schemaVersion` 1). Every other format is rendered from this value, so a
/// report can be regenerated from its JSON.
public struct MeasurementReport: Sendable, Codable, Equatable {
    /// The version of this schema. Readers reject versions they do not know.
    public static let currentSchemaVersion = 1

    /// The schema version this report was written with (``currentSchemaVersion`` when made here).
    public var schemaVersion: Int
    /// The report's name (default: the executable's name).
    public var name: String
    /// The version of the `launchprof` that wrote it.
    public var toolVersion: String
    /// When it was written, ISO 8601 in UTC (`2026-11-22T22:41:18Z`).
    public var createdAt: String
    /// The machine the runs were made on.
    public var environment: MachineEnvironment
    /// How the measurement was asked for, with the budget actually used.
    public var configuration: MeasureConfiguration
    /// Every run, warm-ups included, with its raw numbers.
    public var runs: [RunRecord]
    /// The statistics, findings and budget verdict of the counted, successful runs in ``runs``.
    public var profile: LaunchProfile
    /// Set when the measurement stopped early: a stop signal (Ctrl-C, SIGTERM,
    /// SIGHUP) or a launch that could not be started after others were measured.
    /// Written to the JSON for readers; always `stopReason != nil`.
    public var interrupted: Bool
    /// Why the measurement ended early ("stopped by SIGINT", "run 4 of 6 could not
    /// be started: …"), when it did.
    public var stopReason: String?

    /// Makes a report of `runs`, computing its ``profile`` against `budget`.
    ///
    /// ``schemaVersion`` is set to ``currentSchemaVersion``.
    public init(
        name: String, toolVersion: String = LaunchProfVersion.string, createdAt: String,
        environment: MachineEnvironment, configuration: MeasureConfiguration, runs: [RunRecord],
        budget: LaunchBudget, stopReason: String? = nil
    ) {
        self.schemaVersion = Self.currentSchemaVersion
        self.name = name
        self.toolVersion = toolVersion
        self.createdAt = createdAt
        self.environment = environment
        self.configuration = configuration
        self.runs = runs
        self.profile = LaunchProfile(runs: runs, budget: budget)
        self.interrupted = stopReason != nil
        self.stopReason = stopReason
    }
}
