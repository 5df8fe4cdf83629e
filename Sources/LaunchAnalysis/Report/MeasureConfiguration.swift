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
