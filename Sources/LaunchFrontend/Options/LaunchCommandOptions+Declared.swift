import LaunchAnalysis
import LaunchMeasure
import LaunchReports
import LaunchTracing

/// The shared options of the launching commands, each declared once with its
/// type, default and help (``Option``), and read by ``LaunchCommandOptions/init(_:defaults:)``.
extension LaunchCommandOptions {
    /// `--runs`: what it counts and its default differ by command.
    static func runs(_ defaults: Defaults) -> DefaultedOption<Int> {
        .wholeNumber("--runs", "N", defaults.runsMeaning, in: 1...100_000, default: defaults.runs)
    }

    static let warmup = DefaultedOption<Int>.wholeNumber(
        "--warmup", "N", "launches not counted, first", in: 0...10_000, default: 1)

    static let mode = DefaultedOption<MeasureMode>.choice(
        "--mode", "MODE",
        "warm (default), cold (before each launch drops the whole machine's page cache, every program's cached files "
            + "and not only this one's: other work on the machine slows while it refills; needs root), "
            + "or hot (relaunches the hooks inside one live process; instrumented programs only)",
        default: .warm, showsDefault: false)

    static let ready = Option<ReadyCondition>(
        spec: .value(
            "--ready", "WHEN",
            ReadyCondition.forms.joined(separator: " | ")
                + " (default: first-frame when the program is instrumented, exit otherwise; REGEX is a POSIX extended "
                + "regular expression, as grep -E takes)")
    ) { text throws(UsageError) in
        do throws(ReadyCondition.ParseError) { return try ReadyCondition(parsing: text) } catch {
            let hint =
                error.problem.contains("did you mean") || text.contains(":")
                ? "" : suggestion(text, among: ReadyCondition.keywordConditions.map(\.description))
            throw UsageError(error.description + hint)
        }
    }

    static let timeout = DefaultedOption<Double>.seconds(
        "--timeout", "SECONDS", "per launch", default: 20, shownDefault: "20, the order of the system watchdog")

    static let budgetFile = Option<String>.text(
        "--budget", "FILE", "budget file (default ./\(BudgetResolution.defaultFileName) when present)")

    static let budgetMs = Option<Double>.milliseconds("--budget-ms", "N", "time-to-first-frame budget, milliseconds")

    static let launchOption = RepeatedOption(
        "--launch-option", "K=V",
        "handed to the app as its launch options (repeatable); keys: reason, url, "
            + "sourceApplication, activityType, shortcutType, background, payload.NAME")

    static let output = DefaultedOption<String>(
        option: .folder(
            "--output", "DIR",
            "where reports go (default ./Reports); '-' writes the report to standard output, "
                + "in the one file format --format names, and keeps the runs in a temporary folder named on standard error",
            what: "a folder", default: "Reports"))

    /// `--format`: the formats and their default differ by command.
    static func format(_ defaults: Defaults) -> DefaultedOption<[ReportFormat]> {
        DefaultedOption(
            option: .init(
                spec: .value(
                    "--format", "LIST",
                    "comma-separated: " + ReportFormat.allCases.map(\.rawValue).joined(separator: ", "),
                    default: defaults.formats)
            ) { text throws(UsageError) in
                do throws(ReportError) { return try ReportFormat.list(text) } catch {
                    let hint: String
                    if case .badFormat(let name, _) = error {
                        hint = suggestion(name, among: ReportFormat.allCases.map(\.rawValue))
                    } else {
                        hint = ""
                    }
                    throw UsageError("\(error)" + hint)
                }
            })
    }

    /// `--name`: the default name differs by command.
    static func name(_ defaults: Defaults) -> Option<String> {
        Option(spec: .value("--name", "NAME", "report name (default: \(defaults.name))")) { text throws(UsageError) in
            if let problem = ReportFileName.problem(with: text) { throw UsageError("--name: \(problem)") }
            return text
        }
    }

    static let machine = Option<String>(
        spec: .value(
            "--machine", "NAME",
            "the machine key the report records, which fleet comparisons group launches by: a runner "
                + "label, a device model (default: LAUNCHPROF_MACHINE, else the CPU model, core count and OS; never the host name)"
        )
    ) { text throws(UsageError) in
        if let problem = MachineEnvironment.problem(with: text) { throw UsageError("--machine: \(problem)") }
        return text
    }

    static let ignoreFailures = Flag("--ignore-failures", "failed runs are reported but do not make the exit code 2")

    static let annotations = Option<Bool>.annotations(
        "github: one workflow command per finding, so findings show on the pull "
            + "request's diff (default when GITHUB_ACTIONS=true), or none")

    /// `--annotations`, by default `github` inside GitHub Actions.
    static func githubAnnotations(_ parsed: Arguments, _ option: Option<Bool> = annotations) throws(UsageError) -> Bool
    {
        try parsed[option] ?? (ProcessEnvironment.value("GITHUB_ACTIONS") == "true")
    }

    /// Colours: on a terminal, unless `flag` (`--no-color`) or `NO_COLOR`.
    static func colors(_ parsed: Arguments, _ flag: Flag = noColor) -> Bool {
        !parsed[flag] && ProcessEnvironment.value("NO_COLOR") == nil && Terminal.isInteractive
    }

    static let all = Flag("--all", "list every finding in the terminal report, not only the top 5")

    /// `--quiet`: what it keeps differs by command.
    static func quiet(_ defaults: Defaults) -> Flag {
        Flag("--quiet", "no progress, no terminal report: \(defaults.quietKeeps)")
    }

    static let noColor = Flag("--no-color", "no colours (NO_COLOR is honoured too)")

    static let pty = Flag(
        "--pty",
        "the program's stdout is a pseudo-terminal, so a program that buffers output when it is "
            + "not a terminal (C stdio, python3) writes each line at once; stdout.txt still keeps it, stderr stays a file"
    )

    /// `--prepare`: compare says it runs before each side's launches.
    static func prepare(_ defaults: Defaults) -> Option<String> {
        shellCommand(
            "--prepare",
            "shell command (/bin/sh -c) run before every launch, warm-ups included; its time is "
                + "not counted, its failure ends the measurement"
                + (defaults.sharedCommands ? " (compare: before each side's launches)" : ""))
    }

    /// `--setup`: compare says it runs before either side's first launch.
    static func setup(_ defaults: Defaults) -> Option<String> {
        shellCommand(
            "--setup",
            "shell command run once before the first launch" + (defaults.sharedCommands ? " of either side" : ""))
    }

    static let cleanup = shellCommand(
        "--cleanup", "shell command run once at the end, also after a failure or Ctrl-C (not after a failed --setup)")

    /// A shell command, refused when it is blank.
    private static func shellCommand(_ name: String, _ help: String) -> Option<String> {
        Option(spec: .value(name, "CMD", help)) { command throws(UsageError) in
            if command.allSatisfy(\.isWhitespace) {
                throw UsageError("\(name) takes a shell command, not '\(command)'")
            }
            return command
        }
    }

    static let redactPaths = Flag(OptionSpec.redactPaths)

    static let junitInconclusivePass = Flag(OptionSpec.junitInconclusivePass)

    static let keepCommandLine = Flag(OptionSpec.keepCommandLine)
}

extension Flag {
    /// The flag `spec` declares.
    init(_ spec: OptionSpec) { self.spec = spec }
}
