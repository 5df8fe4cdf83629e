import Foundation
import LaunchAnalysis
import LaunchHarness
import LaunchMeasure
import LaunchReports
import LaunchTracing

/// `launchprof measure`: parses and validates everything, then hands off to
/// `MeasureSession` (LaunchMeasure) and the renderers (LaunchReports).
enum MeasureCommand {
    static let subcommand = Subcommand(name: "measure", help: help, run: run)

    static let help = """
        USAGE: launchprof measure [options] [-- <command> [args...]]

        Launches a program many times and reports its launch phases, budget verdict
        and advice. With no command it measures the bundled sample app.

        OPTIONS:
          --runs N              counted launches (default 10)
          --warmup N            launches not counted, first (default 1)
          --mode MODE           warm (default), cold (drops the file cache before each
                                launch; needs root), or hot (relaunches the hooks inside
                                one live process; instrumented programs only)
          --ready WHEN          first-frame | fully-drawn | exit | stdout:REGEX | port:N |
                                file:PATH (default: first-frame when the program is
                                instrumented, exit otherwise)
          --timeout SECONDS     per launch (default 20, the order of the system watchdog)
          --budget FILE         budget file (default ./launchprof.json when present)
          --budget-ms N         time-to-first-frame budget, milliseconds
          --launch-option K=V   handed to the app as its launch options (repeatable);
                                keys: reason, url, sourceApplication, activityType,
                                shortcutType, background, payload.NAME
          --output DIR          where reports go (default ./Reports)
          --format LIST         comma-separated: terminal, json (default terminal,json)
          --name NAME           report name (default: the executable's name)
          --sample VARIANT      the bundled sample's variant: naive (default) or optimized
          --ignore-failures     failed runs are reported but do not make the exit code 2
          --quiet               no progress, no terminal report
          --no-color            no colours (NO_COLOR is honoured too)
          -h, --help            show this help

        EXIT CODES: 0 within budget, 1 over budget, 2 error or failed runs, 130 Ctrl-C
                    (Ctrl-C stops after the current launch; a second one ends it at once)

        EXAMPLES:
          launchprof measure
          launchprof measure --sample optimized --runs 20
          launchprof measure --ready port:8080 -- ./my-server --port 8080
          launchprof measure --runs 30 -- sleep 0.1
        """

    static let options: [Arguments.Option] = [
        .value("--runs"), .value("--warmup"), .value("--mode"), .value("--ready"), .value("--timeout"),
        .value("--budget"), .value("--budget-ms"), .value("--launch-option", repeatable: true),
        .value("--output"), .value("--format"), .value("--name"), .value("--sample"),
        .flag("--quiet"), .flag("--no-color"), .flag("--ignore-failures"),
    ]

    static let formats = ["terminal", "json"]

    @Sendable
    static func run(_ arguments: [String]) throws -> ExitCode {
        let parsed = try Arguments(arguments, options: options)
        let settings = try makeSettings(parsed, commandLine: ["launchprof", "measure"] + arguments)
        let outcome: MeasureOutcome
        do {
            outcome = try MeasureSession.run(settings.request, progress: ProgressLine(quiet: settings.quiet))
        } catch {
            throw UsageError("\(error)")
        }
        return MeasureOutput.write(outcome, settings: settings)
    }

    /// Everything validated, before any launch.
    static func makeSettings(_ parsed: Arguments, commandLine: [String]) throws -> MeasureSettings {
        let runs = try parsed.integer("--runs", default: 10, in: 1...100_000)
        let warmup = try parsed.integer("--warmup", default: 1, in: 0...10_000)
        let timeout = try parsed.seconds("--timeout", default: 20)

        let modeText = parsed.value("--mode") ?? "warm"
        guard let mode = MeasureMode(rawValue: modeText) else {
            throw UsageError("--mode takes warm, cold or hot, not '\(modeText)'" + suggestion(modeText, among: ["warm", "cold", "hot"]))
        }

        let formatList = (parsed.value("--format") ?? "terminal,json").split(separator: ",").map {
            String($0).trimmingCharacters(in: .whitespaces)
        }
        guard !formatList.isEmpty, !formatList.contains("") else {
            throw UsageError("--format takes a comma-separated list of \(formats.joined(separator: ", ")), not '\(parsed.value("--format") ?? "")'")
        }
        for format in formatList where !formats.contains(format) {
            throw UsageError("unknown format '\(format)' in --format (this version writes: \(formats.joined(separator: ", ")))"
                + suggestion(format, among: formats))
        }

        // The command: given after `--`, or the bundled sample app.
        var command = parsed.command
        var name = parsed.value("--name")
        if command.isEmpty {
            let variantText = parsed.value("--sample") ?? "naive"
            guard SampleVariantName.all.contains(variantText) else {
                throw UsageError("--sample takes naive or optimized, not '\(variantText)'")
            }
            command = [SelfExecutable.path, LaunchProf.sampleAppMode, "--variant", variantText]
            name = name ?? "sample-\(variantText)"
        } else if parsed.value("--sample") != nil {
            throw UsageError("--sample measures the bundled sample; it cannot be combined with a command after '--'")
        }
        let executable: String
        do {
            executable = try Launcher.resolve(command[0])
        } catch {
            throw UsageError("\(error)")
        }
        name = name ?? String(command[0].split(separator: "/").last ?? "program")
        guard let name, !name.isEmpty, name.contains(where: { $0 != "." }) else {
            throw UsageError("--name takes a report name, not '\(parsed.value("--name") ?? "")'")
        }

        let ready: ReadyCondition?
        if let text = parsed.value("--ready") {
            do {
                ready = try ReadyCondition(parsing: text)
            } catch {
                let message = "\(error)"
                let hint = message.contains("did you mean") || text.contains(":")
                    ? "" : suggestion(text, among: ["exit", "first-frame", "fully-drawn"])
                throw UsageError(message + hint)
            }
        } else {
            ready = nil
        }

        // The budget: a file (explicit, or ./launchprof.json); without one the app's
        // own budget in code is used when it has one. --budget-ms goes on top of either.
        var budget = LaunchBudget.default
        var budgetSource = "default (400 ms, Apple's figure)"
        let budgetPath = parsed.value("--budget") ?? (Files.exists("launchprof.json") ? "launchprof.json" : nil)
        if let budgetPath {
            do { budget = try LaunchBudget.load(path: budgetPath) } catch { throw UsageError("\(error)") }
            budgetSource = budgetPath
        }
        var frameBudget: Double?
        if let text = parsed.value("--budget-ms") {
            guard let value = Double(text), value > 0, value.isFinite else {
                throw UsageError("--budget-ms takes a positive number of milliseconds, not '\(text)'")
            }
            frameBudget = value
        }

        let launchOptions = try LaunchOptionArguments.json(from: parsed.all("--launch-option"))
        if ready == .firstFrame, parsed.all("--launch-option").contains("background=true") {
            throw UsageError("--ready first-frame cannot be met by a launch into the background (background=true): leave --ready out to measure to the end of the hooks")
        }

        let output = parsed.value("--output") ?? "Reports"
        if let problem = Files.prepareWritableDirectory(output) {
            throw UsageError("cannot write reports to '\(output)': \(problem)")
        }
        // Cold mode's privilege is checked by the first launch's cache drop, before anything runs.
        let request = MeasureRequest(
            name: name, executable: executable, arguments: Array(command.dropFirst()), displayCommand: command,
            runs: runs, warmup: warmup, mode: mode, ready: ready,
            readyText: parsed.value("--ready") ?? "first-frame (exit if uninstrumented)",
            timeoutSeconds: timeout, budget: budget, budgetSource: budgetSource,
            budgetIsDefault: budgetPath == nil, timeToFirstFrameBudgetMs: frameBudget,
            launchOptionsJSON: launchOptions, outputDirectory: output, commandLine: commandLine)
        let settings = MeasureSettings(
            request: request, formats: formatList, quiet: parsed.has("--quiet"),
            color: !parsed.has("--no-color") && ProcessEnvironment.value("NO_COLOR") == nil && Terminal.isInteractive,
            ignoreFailures: parsed.has("--ignore-failures"))
        if Files.isDirectory(settings.jsonPath) {
            throw UsageError("cannot write the report to '\(settings.jsonPath)': it is a directory")
        }
        return settings
    }
}
