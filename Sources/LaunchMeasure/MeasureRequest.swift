import LaunchTracing

/// One `launchprof measure`, validated: what to launch, how often, when it is
/// ready, against which budget, and where the reports go.
public struct MeasureRequest: Sendable {
    /// The report's name (file names derive from it).
    public var name: String
    /// The resolved path of the program.
    public var executable: String
    /// The arguments after the program's name.
    public var arguments: [String]
    /// The command as the user gave it (for the report).
    public var displayCommand: [String]
    /// Counted launches.
    public var runs: Int
    /// Launches made first and not counted.
    public var warmup: Int
    /// How each launch starts.
    public var mode: MeasureMode
    /// When a launch counts as ready; nil chooses first-frame, which falls back to
    /// the exit for a program that is not instrumented.
    public var ready: ReadyCondition?
    /// `ready` as the user wrote it, or a description of the default.
    public var readyText: String
    /// The limit on each launch, seconds.
    public var timeoutSeconds: Double
    /// The budget to judge the launch against (see ``budgetIsDefault``).
    public var budget: LaunchBudget
    /// Where ``budget`` came from, for the report (a file, or the default).
    public var budgetSource: String
    /// True when no budget was given (no file, no `--budget-ms`): an instrumented
    /// app's budget in code is then used instead of the default.
    public var budgetIsDefault: Bool
    /// `--budget-ms`: the time-to-first-frame limit, applied on top of whichever budget is in effect.
    public var timeToFirstFrameBudgetMs: Double?
    /// Launch options handed to the app, as JSON in `LAUNCHPROF_LAUNCH_OPTIONS`; nil for none.
    public var launchOptionsJSON: String?
    /// Where the runs' files go (``runsDirectory``); the CLI writes its reports here too.
    public var outputDirectory: String
    /// The whole `launchprof` command line.
    public var commandLine: [String]

    /// Makes a request from values already validated; it checks nothing itself.
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
