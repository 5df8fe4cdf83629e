import LaunchAnalysis
import LaunchMeasure
import LaunchReports
import LaunchTracing

/// The options `measure` shares with the commands that launch programs the
/// same way (`compare`, `calibrate`): one table for parsing and help, one
/// place that turns the text into typed values and rejects bad ones before any
/// launch.
///
/// The Frontend's layer of what is asked for: the command's options, output
/// included (formats, folder, quiet), which no session or report needs. It makes
/// the `MeasurementPlan` a report records (`plan(name:command:commandLine:)`),
/// which LaunchMeasure's `SessionRequest` wraps with what only this machine has.
public struct LaunchCommandOptions {
    /// What a command takes when an option is left out, where commands differ.
    public struct Defaults: Sendable {
        var runs = 10
        /// What `--runs` counts, for the help.
        var runsMeaning = "counted launches"
        var formats = "terminal,json,html"
        /// How the default report name is made, for the help.
        var name =
            "sample-<variant>, or the program's name and its arguments, at most 60 characters of [a-z0-9._-], "
            + "with a hash of the command line when cut or when another command's report holds the name"
        /// False for a command that writes no report (only runs), which `--output -` cannot send anywhere:
        /// it takes no `--format`, `--name`, `--ignore-failures` or `--redact-paths`.
        var writesReports = true
        /// False for a command whose budget comes from a file only (no `--budget-ms`).
        var takesFrameBudget = true
        /// True when the command launches two sides that share --setup, --prepare and --cleanup.
        var sharedCommands = false
        /// What `--quiet` leaves on standard output, for the help.
        var quietKeeps = "only the verdict's one line, a pass included"
    }

    /// Every shared option the command takes, in help order, with the command's defaults in their help:
    /// `--budget-ms` where ``Defaults/takesFrameBudget``; the report's name, formats, failures
    /// and redaction where ``Defaults/writesReports``.
    public static func table(_ defaults: Defaults = .measure) -> [OptionSpec] {
        let reports = defaults.writesReports
        return [runs(defaults).spec, warmup.spec, mode.spec, ready.spec, timeout.spec] + metricOptions + [
            budgetFile.spec
        ]
            + (defaults.takesFrameBudget ? [budgetMs.spec] : []) + [launchOption.spec, output.spec]
            + (reports ? [format(defaults).spec, name(defaults).spec] : []) + [machine.spec]
            + (reports ? [ignoreFailures.spec] : [])
            + [annotations.spec, all.spec, quiet(defaults).spec, noColor.spec]
            // How the program is started, and the commands run around its launches.
            + [pty.spec, prepare(defaults).spec, setup(defaults).spec, cleanup.spec]
            + (reports ? [redactPaths.spec] : []) + [keepCommandLine.spec]
    }

    var runs: Int
    var warmup: Int
    var mode: MeasureMode
    /// `--ready`; nil for the default.
    var ready: ReadyCondition?
    var timeoutSeconds: Double
    var budget: BudgetResolution
    /// `--launch-option` pairs; nil when none were given.
    var launchOptions: LaunchOptions?
    /// `--output`; `-` when the report goes to standard output (``toStandardOutput``).
    var outputDirectory: String
    var formats: [ReportFormat]
    /// `--name`; nil for the default.
    var name: String?
    var ignoreFailures: Bool
    /// `--machine`, else `LAUNCHPROF_MACHINE`; nil for the default key made from the machine.
    var machine: String?
    var quiet: Bool
    /// Colours: on a terminal, unless `--no-color` or `NO_COLOR`.
    var color: Bool
    /// `--annotations github`: CI annotations for the findings.
    var githubAnnotations: Bool
    /// How the terminal report draws (`--all`: every finding; colours).
    var renderOptions: RenderOptions
    /// `--pty`: the program's stdout is a pseudo-terminal.
    var pseudoTerminal: Bool
    /// `--prepare`, `--setup`, `--cleanup`.
    var commands: SessionCommands
    /// `--redact-paths`: the measured program's paths cut to their last component in every report.
    var redactPaths = false
    /// `--keep-command-line`: credentials in the command line written verbatim (``CredentialMasking``).
    var keepCommandLine = false
    /// `--metric`: what is measured and decides.
    var metrics: [LaunchMetric] = [.wall]
    /// `--counted-runs` with `--metric instructions` (per side); 0 without it.
    var countedRuns = 0
    /// What counts instructions, with `--metric instructions`.
    var instructionCounter: InstructionCounter?
    /// This invocation's session (``SessionID``): every plan made from these options carries it.
    var session = SessionID.make()

    /// Reads the shared options from `parsed`, rejecting bad values with the
    /// value named; creates the output folder and proves it writable.
    init(_ parsed: Arguments, defaults: Defaults = .measure) throws {
        runs = try parsed[Self.runs(defaults)]
        warmup = try parsed[Self.warmup]
        timeoutSeconds = try parsed[Self.timeout]
        mode = try parsed[Self.mode]
        formats = try parsed[Self.format(defaults)]
        ready = try parsed[Self.ready]
        (metrics, countedRuns, instructionCounter) = try Self.metrics(parsed, mode: mode, ready: ready)

        let frameBudget = try parsed[Self.budgetMs]
        let budgetFile = try parsed[Self.budgetFile]
        do { budget = try BudgetResolution(filePath: budgetFile, timeToFirstFrameMs: frameBudget) } catch {
            throw UsageError(error.description)
        }

        let pairs = parsed[Self.launchOption]
        if !pairs.isEmpty {
            do { launchOptions = try LaunchOptions(keyValuePairs: pairs) } catch {
                throw UsageError("--launch-option: \(error)")
            }
        }
        try Self.checkInheritedSettings(launchOptionsGiven: launchOptions != nil)
        if ready == .firstFrame, launchOptions?.isBackground == true {
            throw UsageError(
                "--ready first-frame cannot be met by a launch into the background (background=true): "
                    + "leave --ready out to measure to the end of the hooks")
        }

        name = try parsed[Self.name(defaults)]
        outputDirectory = try parsed[Self.output]
        if outputDirectory == Self.standardOutput {
            guard defaults.writesReports else {
                throw UsageError(
                    "--output takes the folder the runs go to; this command writes no report for '-' to send to standard output"
                )
            }
            _ = try ReportOutput.standardOutputFormat(formats)
        } else if let problem = Files.prepareWritableDirectory(outputDirectory) {
            throw UsageError("cannot write reports to '\(outputDirectory)': \(problem)")
        }
        ignoreFailures = parsed[Self.ignoreFailures]
        if let given = try parsed[Self.machine] {
            machine = MachineEnvironment.key(given)
        } else {
            let variable = ProcessEnvironment.value("LAUNCHPROF_MACHINE")
            if let variable, MachineEnvironment.key(variable) != nil,
                let problem = MachineEnvironment.problem(with: variable)
            {
                throw UsageError("LAUNCHPROF_MACHINE: \(problem)")
            }
            machine = MachineEnvironment.key(variable)
        }
        quiet = parsed[Self.quiet(defaults)]
        color = Self.colors(parsed)
        githubAnnotations = try Self.githubAnnotations(parsed)
        renderOptions = RenderOptions(
            color: color, findingsLimit: parsed[Self.all] ? .max : 5,
            inconclusiveIsPass: parsed[Self.junitInconclusivePass])
        pseudoTerminal = parsed[Self.pty]
        commands = SessionCommands(
            prepare: try parsed[Self.prepare(defaults)], setup: try parsed[Self.setup(defaults)],
            cleanup: try parsed[Self.cleanup])
        redactPaths = parsed[Self.redactPaths]
        keepCommandLine = parsed[Self.keepCommandLine]
    }

    /// The plan of a measurement of `command`, named `name` unless `--name` was given.
    func plan(name defaultName: String, command: [String], commandLine: [String]) -> MeasurementPlan {
        var plan = MeasurementPlan(
            name: name ?? defaultName,
            commandLine: keepCommandLine ? commandLine : CredentialMasking.masked(commandLine),
            command: keepCommandLine ? command : CredentialMasking.masked(command), runs: runs, warmup: warmup,
            mode: mode, ready: ready, timeoutSeconds: timeoutSeconds, launchOptions: launchOptions,
            ignoreFailures: ignoreFailures, machine: machine)
        plan.countedLaunches = countedRuns
        plan.session = session
        return plan
    }

    /// The progress line of a session about to launch. In cold mode it first says,
    /// on standard error and unless quiet, that the whole machine's page cache is
    /// dropped: once the input is checked, so bad input still gets one line.
    func progressLine() -> ProgressLine {
        announceColdMode()
        return ProgressLine(quiet: quiet, redactingPaths: redactPaths)
    }

    /// In cold mode, says on standard error (unless quiet) that the whole machine's page cache is dropped.
    func announceColdMode() {
        guard mode == .cold, !quiet else { return }
        Terminal.standardError(
            "launchprof: --mode cold drops the whole machine's page cache before each launch "
                + "(every program's cached files, not only this one's)")
    }

    /// What `--output` takes for standard output.
    static let standardOutput = "-"

    /// True when the report goes to standard output (`--output -`).
    var toStandardOutput: Bool { outputDirectory == Self.standardOutput }

    /// Where the reports go: nil for standard output.
    var writer: ReportWriter? { toStandardOutput ? nil : ReportWriter(directory: outputDirectory) }

    /// The new folder the launches of the report `name` write into: beside the
    /// old `<output>/<name>.runs/`, which it replaces when the report is written;
    /// a temporary folder when the report goes to standard output.
    func runsFolder(name: String) throws -> RunsFolder {
        do {
            if toStandardOutput { return try RunsFolder(temporaryFor: name) }
            return try RunsFolder(replacing: outputDirectory + "/" + ReportFileName.safe(name) + ".runs")
        } catch {
            throw UsageError("\(error)")
        }
    }
}
