import LaunchAnalysis
import LaunchTracing

/// One `launchprof measure`, validated: the plan (what the report will say was
/// asked for), the program to launch, and the folder each launch's files go to.
///
/// LaunchMeasure's layer of what is asked for: what a session executes, the
/// ``MeasurementPlan`` with what only this machine and this session
/// have (the resolved program, the runs folder, the session commands, the
/// instruction counter), none of which a report records. The Frontend makes it
/// from the command's options; one side of a comparison is one request.
public struct SessionRequest: Sendable {
    /// What was asked for: runs, mode, ready condition, launch options…
    public var plan: MeasurementPlan
    /// The resolved path of the program.
    public var executable: String
    /// The arguments after the program's name.
    public var arguments: [String]
    /// The folder each launch's trace, stdout and stderr are kept in, one new
    /// folder per launch (`run-N`, `warmup-N`, `hot`): usually a ``RunsFolder``'s
    /// root, or a side's folder in it.
    public var runs: OwnedDirectory

    /// Shell commands run around the launches (`--prepare`, `--setup`, `--cleanup`).
    public var commands: SessionCommands
    /// The program's stdout is a pseudo-terminal (`--pty`); see ``LaunchRequest/pseudoTerminal``.
    public var pseudoTerminal: Bool
    /// What counts the plan's ``MeasurementPlan/countedLaunches`` (`--metric instructions`); nil for none.
    public var instructionCounter: InstructionCounter?

    /// Makes a request from values already validated; it checks nothing itself.
    public init(
        plan: MeasurementPlan, executable: String, arguments: [String], runs: OwnedDirectory,
        commands: SessionCommands = SessionCommands(), pseudoTerminal: Bool = false
    ) {
        self.commands = commands
        self.pseudoTerminal = pseudoTerminal
        self.plan = plan
        self.executable = executable
        self.arguments = arguments
        self.runs = runs
    }
}
