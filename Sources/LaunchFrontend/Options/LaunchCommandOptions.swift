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
        /// False for a command that writes no report (only runs), which `--output -` cannot send anywhere.
        var writesReports = true
        /// True when the command launches two sides that share --setup, --prepare and --cleanup.
        var sharedCommands = false
        /// What `--quiet` leaves on standard output, for the help.
        var quietKeeps = "only the verdict's one line, a pass included"
    }

    /// Every shared option, in help order, with the command's defaults in their help.
    public static func table(_ defaults: Defaults = .measure) -> [OptionSpec] {
        [
            .value("--runs", "N", defaults.runsMeaning, type: .wholeNumber(1...100_000), default: "\(defaults.runs)"),
            .value("--warmup", "N", "launches not counted, first", type: .wholeNumber(0...10_000), default: "1"),
            .value(
                "--mode", "MODE",
                "warm (default), cold (before each launch drops the whole machine's page cache, every program's cached files "
                    + "and not only this one's: other work on the machine slows while it refills; needs root), "
                    + "or hot (relaunches the hooks inside one live process; instrumented programs only)",
                type: .choice(MeasureMode.allCases.map(\.rawValue)), default: MeasureMode.warm.rawValue,
                showsDefault: false),
            .value(
                "--ready", "WHEN",
                ReadyCondition.forms.joined(separator: " | ")
                    + " (default: first-frame when the program is instrumented, exit otherwise; REGEX is a POSIX extended "
                    + "regular expression, as grep -E takes)"),
            .value(
                "--timeout", "SECONDS", "per launch", type: .seconds, default: "20",
                shownDefault: "20, the order of the system watchdog"),
        ] + metricOptions + [
            .value("--budget", "FILE", "budget file (default ./\(BudgetResolution.defaultFileName) when present)"),
            .value("--budget-ms", "N", "time-to-first-frame budget, milliseconds"),
            .repeatable(
                "--launch-option", "K=V",
                "handed to the app as its launch options (repeatable); keys: reason, url, "
                    + "sourceApplication, activityType, shortcutType, background, payload.NAME"),
            .value(
                "--output", "DIR",
                "where reports go (default ./Reports); '-' writes the report to standard output, "
                    + "in the one file format --format names, and keeps the runs in a temporary folder named on standard error",
                default: "Reports", showsDefault: false),
            .value(
                "--format", "LIST", "comma-separated: " + ReportFormat.allCases.map(\.rawValue).joined(separator: ", "),
                default: defaults.formats),
            .value("--name", "NAME", "report name (default: \(defaults.name))"),
            .value(
                "--machine", "NAME",
                "the machine key the report records, which fleet comparisons group launches by: a runner "
                    + "label, a device model (default: LAUNCHPROF_MACHINE, else the CPU model, core count and OS; never the host name)"
            ),
            .flag("--ignore-failures", "failed runs are reported but do not make the exit code 2"),
            .value(
                "--annotations", "KIND",
                "github: one workflow command per finding, so findings show on the pull "
                    + "request's diff (default when GITHUB_ACTIONS=true), or none", type: .annotations),
            .flag("--all", "list every finding in the terminal report, not only the top 5"),
            .flag("--quiet", "no progress, no terminal report: \(defaults.quietKeeps)"),
            .flag("--no-color", "no colours (NO_COLOR is honoured too)"),
            // How the program is started, and the commands run around its launches.
            .flag(
                "--pty",
                "the program's stdout is a pseudo-terminal, so a program that buffers output when it is "
                    + "not a terminal (C stdio, python3) writes each line at once; stdout.txt still keeps it, stderr stays a file"
            ),
            .value(
                "--prepare", "CMD",
                "shell command (/bin/sh -c) run before every launch, warm-ups included; its time is "
                    + "not counted, its failure ends the measurement"
                    + (defaults.sharedCommands ? " (compare: before each side's launches)" : "")),
            .value(
                "--setup", "CMD",
                "shell command run once before the first launch" + (defaults.sharedCommands ? " of either side" : "")),
            .value(
                "--cleanup", "CMD",
                "shell command run once at the end, also after a failure or Ctrl-C (not after a failed --setup)"),
            .redactPaths,
            .keepCommandLine,
        ]
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
        // Every launching command declares these with their defaults (``table(_:)``): a value is always there.
        runs = try parsed.integer("--runs")!
        warmup = try parsed.integer("--warmup")!
        timeoutSeconds = try parsed.seconds("--timeout")!
        mode = MeasureMode(rawValue: try parsed.choice("--mode")!)!

        do { formats = try ReportFormat.list(parsed.text("--format") ?? defaults.formats) } catch {
            let hint: String
            if case .badFormat(let name, _) = error {
                hint = suggestion(name, among: ReportFormat.allCases.map(\.rawValue))
            } else {
                hint = ""
            }
            throw UsageError("\(error)" + hint)
        }

        if let text = parsed.value("--ready") {
            do {
                ready = try ReadyCondition(parsing: text)
            } catch {
                let hint =
                    error.problem.contains("did you mean") || text.contains(":")
                    ? "" : suggestion(text, among: ReadyCondition.keywordConditions.map(\.description))
                throw UsageError(error.description + hint)
            }
        }

        (metrics, countedRuns, instructionCounter) = try Self.metrics(parsed, mode: mode, ready: ready)

        let frameBudget = try parsed.milliseconds("--budget-ms")
        do { budget = try BudgetResolution(filePath: parsed.value("--budget"), timeToFirstFrameMs: frameBudget) } catch
        {
            throw UsageError(error.description)
        }

        let pairs = parsed.all("--launch-option")
        if !pairs.isEmpty {
            do { launchOptions = try LaunchOptions(keyValuePairs: pairs) } catch {
                throw UsageError("--launch-option: \(error)")
            }
        }
        if ready == .firstFrame, launchOptions?.isBackground == true {
            throw UsageError(
                "--ready first-frame cannot be met by a launch into the background (background=true): "
                    + "leave --ready out to measure to the end of the hooks")
        }

        name = parsed.value("--name")
        if let name, let problem = ReportFileName.problem(with: name) {
            throw UsageError("--name: \(problem)")
        }
        outputDirectory = parsed.text("--output")!
        if outputDirectory.isEmpty {
            throw UsageError("--output takes a folder, or '-' for standard output, not ''")
        }
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
        ignoreFailures = parsed.has("--ignore-failures")
        if let given = parsed.value("--machine") {
            if let problem = MachineEnvironment.problem(with: given) { throw UsageError("--machine: \(problem)") }
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
        quiet = parsed.has("--quiet")
        color = !parsed.has("--no-color") && ProcessEnvironment.value("NO_COLOR") == nil && Terminal.isInteractive
        githubAnnotations = try Self.annotations(parsed)
        renderOptions = RenderOptions(
            color: color, findingsLimit: parsed.has("--all") ? .max : 5,
            inconclusiveIsPass: parsed.has("--junit-inconclusive-pass"))
        pseudoTerminal = parsed.has("--pty")
        commands = SessionCommands(
            prepare: parsed.value("--prepare"), setup: parsed.value("--setup"), cleanup: parsed.value("--cleanup"))
        for (option, command) in [
            ("--prepare", commands.prepare), ("--setup", commands.setup), ("--cleanup", commands.cleanup),
        ] {
            if let command, command.allSatisfy(\.isWhitespace) {
                throw UsageError("\(option) takes a shell command, not '\(command)'")
            }
        }
        redactPaths = parsed.has("--redact-paths")
        keepCommandLine = parsed.has(OptionSpec.keepCommandLine.name)
    }

    /// `--annotations`: `github`, `none`, or by default `github` inside GitHub Actions.
    static func annotations(_ parsed: Arguments) throws -> Bool {
        guard let kind = try parsed.choice("--annotations") else {
            return ProcessEnvironment.value("GITHUB_ACTIONS") == "true"
        }
        return kind == "github"
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
