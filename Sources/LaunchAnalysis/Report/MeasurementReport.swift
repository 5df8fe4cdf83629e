import LaunchTracing

/// Everything one `launchprof measure` found, as written to the JSON report
/// (`schemaVersion` 1). Every other format is rendered from this value, so a
/// report can be regenerated from its JSON.
public struct MeasurementReport: Sendable, Codable, Equatable {
    /// The version of this schema. Readers reject versions they do not know.
    public static let currentSchemaVersion = 1

    public var schemaVersion: Int
    /// The report's name (default: the executable's name).
    public var name: String
    /// The tool that wrote it, and when (ISO 8601, UTC).
    public var toolVersion: String
    public var createdAt: String
    public var environment: MachineEnvironment
    public var configuration: MeasureConfiguration
    /// Every run, warm-ups included, with its raw numbers.
    public var runs: [RunRecord]
    public var profile: LaunchProfile
    /// Set when the measurement stopped early (Ctrl-C).
    public var interrupted: Bool

    public init(
        name: String, toolVersion: String = LaunchProfVersion.string, createdAt: String,
        environment: MachineEnvironment, configuration: MeasureConfiguration, runs: [RunRecord],
        budget: LaunchBudget, interrupted: Bool
    ) {
        self.schemaVersion = Self.currentSchemaVersion
        self.name = name
        self.toolVersion = toolVersion
        self.createdAt = createdAt
        self.environment = environment
        self.configuration = configuration
        self.runs = runs
        self.profile = LaunchProfile(runs: runs, budget: budget)
        self.interrupted = interrupted
    }
}

/// The machine a measurement ran on.
public struct MachineEnvironment: Sendable, Codable, Equatable {
    public var hostname: String
    /// `uname -s -r -m`.
    public var operatingSystem: String
    public var cpuModel: String
    public var cpuCount: Int
    /// The clock the traces used (`tsc`, `clock_gettime(CLOCK_MONOTONIC)`).
    public var clockSource: String

    public init(hostname: String, operatingSystem: String, cpuModel: String, cpuCount: Int, clockSource: String) {
        self.hostname = hostname
        self.operatingSystem = operatingSystem
        self.cpuModel = cpuModel
        self.cpuCount = cpuCount
        self.clockSource = clockSource
    }
}

/// How the measurement was asked for.
public struct MeasureConfiguration: Sendable, Codable, Equatable {
    /// The full `launchprof` command line.
    public var commandLine: [String]
    /// The measured program and its arguments.
    public var command: [String]
    public var runs: Int
    public var warmup: Int
    /// `warm`, `cold` or `hot`.
    public var mode: String
    /// The ready condition as given (`first-frame`, `exit`, `port:8080`…).
    public var ready: String
    public var timeoutSeconds: Double
    /// The budget used, in the `launchprof.json` format, and where it came from.
    public var budget: String
    public var budgetSource: String
    public var launchOptions: String?

    public init(
        commandLine: [String], command: [String], runs: Int, warmup: Int, mode: String, ready: String,
        timeoutSeconds: Double, budget: String, budgetSource: String, launchOptions: String?
    ) {
        self.commandLine = commandLine
        self.command = command
        self.runs = runs
        self.warmup = warmup
        self.mode = mode
        self.ready = ready
        self.timeoutSeconds = timeoutSeconds
        self.budget = budget
        self.budgetSource = budgetSource
        self.launchOptions = launchOptions
    }
}
