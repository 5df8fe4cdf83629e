import LaunchTracing

/// How the measurement was asked for, with what was resolved once the runs
/// were made: the ready condition the runs were measured to and the budget used.
public struct MeasureConfiguration: Sendable, Equatable {
    /// The full `launchprof` command line, its secrets redacted (``CommandLineText/redacted(_:)``).
    public var commandLine: [String]
    /// The measured program and its arguments, their secrets redacted.
    public var command: [String]
    /// Counted launches asked for (`--runs`).
    public var runs: Int
    /// Warm-up launches asked for, run first and not counted (`--warmup`).
    public var warmup: Int
    /// How each launch started.
    public var mode: MeasureMode
    /// The condition the launches were measured to: the one given with `--ready`,
    /// or with none given, `first-frame` for an instrumented program and `exit`
    /// otherwise (see ``readyIsDefault``).
    public var ready: ReadyCondition
    /// True when no `--ready` was given and ``ready`` is the default that applied.
    public var readyIsDefault: Bool
    /// The limit on each launch, seconds (`--timeout`).
    public var timeoutSeconds: Double
    /// The budget used (the same object as a `launchprof.json` budget file).
    public var budget: LaunchBudget
    /// Where ``budget`` came from.
    public var budgetSource: BudgetProvenance
    /// The launch options handed to the app (`--launch-option`); nil when none were given.
    public var launchOptions: LaunchOptions?
    /// `--ignore-failures`: failed runs are reported but do not fail the measurement.
    public var ignoreFailures: Bool

    /// Makes a configuration from values already resolved; header values in the
    /// command lines are redacted (``CommandLineText/redacted(_:)``).
    public init(
        commandLine: [String], command: [String], runs: Int, warmup: Int, mode: MeasureMode, ready: ReadyCondition,
        readyIsDefault: Bool, timeoutSeconds: Double, budget: LaunchBudget, budgetSource: BudgetProvenance,
        launchOptions: LaunchOptions?, ignoreFailures: Bool = false
    ) {
        self.commandLine = CommandLineText.redacted(commandLine)
        self.command = CommandLineText.redacted(command)
        self.runs = runs
        self.warmup = warmup
        self.mode = mode
        self.ready = ready
        self.readyIsDefault = readyIsDefault
        self.timeoutSeconds = timeoutSeconds
        self.budget = budget
        self.budgetSource = budgetSource
        self.launchOptions = launchOptions
        self.ignoreFailures = ignoreFailures
    }
}

extension MeasureConfiguration: Codable {
    private enum CodingKeys: String, CodingKey {
        case commandLine, command, runs, warmup, mode, ready, readyIsDefault, timeoutSeconds
        case budget, budgetSource, launchOptions, ignoreFailures
    }

    /// Decodes a configuration; a schema-1 report's budget and launch options,
    /// which were JSON text inside strings, are read too.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        // A report written before redaction may hold a secret: it is not carried further.
        commandLine = CommandLineText.redacted(try container.decode([String].self, forKey: .commandLine))
        command = CommandLineText.redacted(try container.decode([String].self, forKey: .command))
        runs = try container.decode(Int.self, forKey: .runs)
        warmup = try container.decode(Int.self, forKey: .warmup)
        mode = try container.decode(MeasureMode.self, forKey: .mode)
        ready = try container.decode(ReadyCondition.self, forKey: .ready)
        if let isDefault = try container.decodeIfPresent(Bool.self, forKey: .readyIsDefault) {
            readyIsDefault = isDefault
        } else {
            let text = try? container.decode(String.self, forKey: .ready)
            readyIsDefault = text.map { $0.hasPrefix("first-frame (") || $0.hasPrefix("end of the hooks") } ?? false
        }
        timeoutSeconds = try container.decode(Double.self, forKey: .timeoutSeconds)
        if let text = try? container.decode(String.self, forKey: .budget) {
            do { budget = try LaunchBudget(json: text) } catch {
                throw DecodingError.dataCorruptedError(
                    forKey: .budget, in: container, debugDescription: error.description)
            }
        } else {
            budget = try container.decode(LaunchBudget.self, forKey: .budget)
        }
        budgetSource = try container.decode(BudgetProvenance.self, forKey: .budgetSource)
        if let text = try? container.decode(String.self, forKey: .launchOptions) {
            do { launchOptions = try LaunchOptions(json: text) } catch {
                throw DecodingError.dataCorruptedError(
                    forKey: .launchOptions, in: container, debugDescription: error.description)
            }
        } else {
            launchOptions = try container.decodeIfPresent(LaunchOptions.self, forKey: .launchOptions)
        }
        ignoreFailures = try container.decodeIfPresent(Bool.self, forKey: .ignoreFailures) ?? false
    }

    /// Encodes every value as a JSON value of its own (objects, never JSON text in a string).
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(commandLine, forKey: .commandLine)
        try container.encode(command, forKey: .command)
        try container.encode(runs, forKey: .runs)
        try container.encode(warmup, forKey: .warmup)
        try container.encode(mode, forKey: .mode)
        try container.encode(ready, forKey: .ready)
        try container.encode(readyIsDefault, forKey: .readyIsDefault)
        try container.encode(timeoutSeconds, forKey: .timeoutSeconds)
        try container.encode(budget, forKey: .budget)
        try container.encode(budgetSource, forKey: .budgetSource)
        try container.encodeIfPresent(launchOptions, forKey: .launchOptions)
        try container.encode(ignoreFailures, forKey: .ignoreFailures)
    }
}
