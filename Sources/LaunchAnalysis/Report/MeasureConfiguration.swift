/// How the measurement was asked for.
public struct MeasureConfiguration: Sendable, Codable, Equatable {
    /// The full `launchprof` command line.
    public var commandLine: [String]
    /// The measured program and its arguments.
    public var command: [String]
    /// Counted launches asked for (`--runs`).
    public var runs: Int
    /// Warm-up launches asked for, run first and not counted (`--warmup`).
    public var warmup: Int
    /// `warm`, `cold` or `hot`.
    public var mode: String
    /// The ready condition as given (`first-frame`, `exit`, `port:8080`…); with
    /// none given, the default that applied: `first-frame` for an instrumented
    /// program, `exit` otherwise.
    public var ready: String
    /// The limit on each launch, seconds (`--timeout`).
    public var timeoutSeconds: Double
    /// The budget used, in the `launchprof.json` format.
    public var budget: String
    /// Where ``budget`` came from: a file, the app's budget in code, or the
    /// default, and whether `--budget-ms` replaced its time to first frame.
    public var budgetSource: String
    /// The launch options handed to the app, as JSON (`--launch-option`); nil when none were given.
    public var launchOptions: String?

    /// Makes a configuration from the request's values.
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
