import LaunchAnalysis
import LaunchTracing

/// How each launch starts.
public enum MeasureMode: String, Sendable, Codable, CaseIterable {
    /// A new process each time, with the files it reads already cached.
    case warm
    /// A new process each time, after the file cache was dropped (needs root).
    case cold
    /// One process; the launch hooks run again and again inside it (instrumented programs only).
    case hot
}

/// One `launchprof measure`, validated: what to launch, how often, when it is
/// ready, against which budget, and where the reports go.
public struct MeasureRequest: Sendable {
    /// The report's name (file names derive from it).
    public var name: String
    /// The resolved path of the program, and the arguments after its name.
    public var executable: String
    public var arguments: [String]
    /// The command as the user gave it (for the report).
    public var displayCommand: [String]
    public var runs: Int
    public var warmup: Int
    public var mode: MeasureMode
    /// When a launch counts as ready; nil chooses first-frame, which falls back to
    /// the exit for a program that is not instrumented.
    public var ready: ReadyCondition?
    /// `ready` as the user wrote it, or a description of the default.
    public var readyText: String
    public var timeoutSeconds: Double
    public var budget: LaunchBudget
    public var budgetSource: String
    /// True when no budget was given (no file, no `--budget-ms`): an instrumented
    /// app's budget in code is then used instead of the default.
    public var budgetIsDefault: Bool
    /// `--budget-ms`: the time-to-first-frame limit, applied on top of whichever budget is in effect.
    public var timeToFirstFrameBudgetMs: Double?
    public var launchOptionsJSON: String?
    /// Where the runs' files go (``runsDirectory``); the CLI writes its reports here too.
    public var outputDirectory: String
    /// The whole `launchprof` command line.
    public var commandLine: [String]

    public init(
        name: String, executable: String, arguments: [String], displayCommand: [String], runs: Int, warmup: Int,
        mode: MeasureMode, ready: ReadyCondition?, readyText: String, timeoutSeconds: Double, budget: LaunchBudget,
        budgetSource: String, budgetIsDefault: Bool = false, timeToFirstFrameBudgetMs: Double? = nil, launchOptionsJSON: String?, outputDirectory: String,
        commandLine: [String]
    ) {
        self.name = name
        self.executable = executable
        self.arguments = arguments
        self.displayCommand = displayCommand
        self.runs = runs
        self.warmup = warmup
        self.mode = mode
        self.ready = ready
        self.readyText = readyText
        self.timeoutSeconds = timeoutSeconds
        self.budget = budget
        self.budgetSource = budgetSource
        self.budgetIsDefault = budgetIsDefault
        self.timeToFirstFrameBudgetMs = timeToFirstFrameBudgetMs
        self.launchOptionsJSON = launchOptionsJSON
        self.outputDirectory = outputDirectory
        self.commandLine = commandLine
    }

    /// Where each launch's trace, stdout and stderr are kept: `<output>/<name>.runs/`.
    public var runsDirectory: String {
        outputDirectory + "/" + Self.safeFileName(name) + ".runs"
    }

    /// `name` with anything but letters, digits, `-`, `_` and `.` replaced by `-`.
    public static func safeFileName(_ name: String) -> String {
        String(name.map { $0.isLetter || $0.isNumber || $0 == "-" || $0 == "_" || $0 == "." ? $0 : "-" })
    }
}

/// Told about each launch as it ends, for a progress display.
public protocol MeasureProgress: AnyObject {
    /// `counted` is how many counted runs have ended (0 during warm-up), of `total`.
    func runFinished(_ run: RunRecord, counted: Int, of total: Int, warmup: Bool, elapsedSeconds: Double)
    /// The last launch has ended.
    func finished()
}

/// What a measurement produced.
public struct MeasureOutcome: Sendable {
    /// The report of every completed run.
    public var report: MeasurementReport
    /// The stop signal (SIGINT, SIGTERM, SIGHUP) that ended the session early, if one did.
    public var stopSignal: Int32?
    /// Why the session ended before its last launch, when a launch could not be started.
    public var stopReason: String?

    /// True when a stop signal ended the session early.
    public var interrupted: Bool { stopSignal != nil }
}
