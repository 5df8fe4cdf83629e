import LaunchTracing

/// A measurement as asked for, before any launch: what the report will say
/// was requested. ``MeasurementReport/init(plan:collected:budget:)`` resolves
/// the rest (the ready condition's default, the budget) from what the runs showed.
///
/// LaunchAnalysis's layer of what is asked for: only what a report records, nothing
/// of this machine's folders or tools, so a report read later says what was asked.
/// The command's options (LaunchFrontend's `LaunchCommandOptions`) make it; a session
/// executes it wrapped in LaunchMeasure's `SessionRequest`.
public struct MeasurementPlan: Sendable, Equatable {
    /// The report's name (file names derive from it).
    public var name: String
    /// The full `launchprof` command line.
    public var commandLine: [String]
    /// The measured program and its arguments, as the user gave them.
    public var command: [String]
    /// Counted launches.
    public var runs: Int
    /// Launches made first and not counted.
    public var warmup: Int
    /// How each launch starts.
    public var mode: MeasureMode
    /// When a launch counts as ready; nil chooses first-frame, which falls back
    /// to the exit for a program that is not instrumented.
    public var ready: ReadyCondition?
    /// The limit on each launch, seconds.
    public var timeoutSeconds: Double
    /// Launch options handed to the app; nil for none.
    public var launchOptions: LaunchOptions?
    /// Failed runs are reported but do not fail the measurement.
    public var ignoreFailures: Bool
    /// The machine key the report records (`--machine`, `LAUNCHPROF_MACHINE`);
    /// nil for the default made from the machine (``MachineEnvironment/defaultMachine``).
    public var machine: String?
    /// Launches counted under valgrind after the timed ones (`--metric instructions`); 0 for none.
    public var countedLaunches = 0
    /// The session the launches are made in (``MeasurementReport/session``): one
    /// id per launchprof invocation, shared by both sides of an interleaved comparison; nil for none.
    public var session: String?

    /// Makes a plan from values already validated; it checks nothing itself.
    public init(
        name: String, commandLine: [String], command: [String], runs: Int, warmup: Int, mode: MeasureMode,
        ready: ReadyCondition?, timeoutSeconds: Double, launchOptions: LaunchOptions? = nil,
        ignoreFailures: Bool = false,
        machine: String? = nil
    ) {
        self.name = name
        self.commandLine = commandLine
        self.command = command
        self.runs = runs
        self.warmup = warmup
        self.mode = mode
        self.ready = ready
        self.timeoutSeconds = timeoutSeconds
        self.launchOptions = launchOptions
        self.ignoreFailures = ignoreFailures
        self.machine = machine
    }
}

/// What a measurement session collected: every run, and what the runs told
/// about the program and the machine. `LaunchMeasure` makes it;
/// ``MeasurementReport/init(plan:collected:budget:)`` turns it into a report.
public struct CollectedLaunches: Sendable, Equatable {
    /// Every completed run, warm-ups included, in order.
    public var runs: [RunRecord]
    /// The budget the app declared in code (from the first trace that had one).
    public var appBudget: LaunchBudget?
    /// The machine the runs were made on.
    public var environment: MachineEnvironment
    /// When the session ended, ISO 8601 in UTC.
    public var finishedAt: String
    /// Why the session ended early, when a launch could not be started after others were measured.
    public var stopReason: String?
    /// The same as a value (``SessionStop``), when launchprof's own session stopped it.
    public var stop: SessionStop?
    /// The stop signal (SIGINT, SIGTERM, SIGHUP) that ended the session early, if one did.
    public var stopSignal: Int32?
    /// The signal's name without `SIG` (`INT`), for messages.
    public var stopSignalName: String?
    /// The launches counted under valgrind (`--metric instructions`), in order; their
    /// times are valgrind's, so they are kept apart from ``runs``.
    public var countedRuns: [RunRecord] = []

    /// Makes a collection.
    public init(
        runs: [RunRecord], appBudget: LaunchBudget?, environment: MachineEnvironment, finishedAt: String,
        stopReason: String? = nil, stopSignal: Int32? = nil, stopSignalName: String? = nil, stop: SessionStop? = nil
    ) {
        self.runs = runs
        self.appBudget = appBudget
        self.environment = environment
        self.finishedAt = finishedAt
        self.stopReason = stop?.text ?? stopReason
        self.stop = stop
        self.stopSignal = stopSignal
        self.stopSignalName = stopSignalName
    }
}
