import Foundation
import LaunchAnalysis
import LaunchMeasure
import LaunchReports
import LaunchTracing
import SampleApp

/// `launchprof calibrate`: the program against itself (A/A), interleaved, for
/// a few rounds; the smallest effect worth gating on is the largest change the
/// rounds' confidence intervals allow when nothing changed.
enum CalibrateCommand {
    static let subcommand = Subcommand(name: "calibrate", help: help, run: run)

    static let ownOptions: [OptionSpec] = [
        .value("--sample", "VARIANT", "the bundled sample's variant: " + CompareCommand.variants + " (default naive)"),
        .value("--rounds", "N", "A/A comparisons to make (default 3)"),
        .flag("--write-budget", "write the recommended minimum effect into the budget file (--budget, or ./launchprof.json)"),
    ]

    static let defaults = MeasureOptions.Defaults(
        runs: 20, runsMeaning: "counted launches per side in each round", formats: "terminal", name: "calibrate-<program>",
        writesReports: false)

    static let options = MeasureOptions.table(defaults).filter { !["--budget-ms", "--format", "--name", "--ignore-failures", "--redact-paths"].contains($0.name) }
        + ownOptions

    static let help = """
        USAGE: launchprof calibrate [options] [-- <command> [args...]]

        Compares a program with itself (A/A), launches interleaved as 'compare' makes
        them, for a few rounds, and recommends the smallest effect worth gating on:
        above the noise this machine showed, so that an unchanged program passes.

        OPTIONS:
        \(OptionSpec.helpSection(options))

        \(ExitCode.helpSection([.success, .error] + ExitCode.stops, meanings: [
            .success: "recommended", .error: "error or failed runs"]))

        EXAMPLES:
          launchprof calibrate --runs 20
          launchprof calibrate --rounds 5 --write-budget -- ./my-app
        """

    @Sendable
    static func run(_ arguments: [String]) throws -> ExitCode {
        let parsed = try Arguments(arguments, options: options)
        let shared = try MeasureOptions(parsed, defaults: defaults)
        let rounds = try parsed.integer("--rounds", default: 3, in: 1...100)
        guard shared.mode != .hot else { throw UsageError("--mode hot cannot interleave launches: use warm or cold") }
        let target: ProgramTarget
        if parsed.command.isEmpty {
            target = try ProgramTarget(sample: parsed.value("--sample") ?? SampleApp.Variant.naive.rawValue, option: "--sample")
        } else {
            target = try ProgramTarget(command: parsed.command)
        }
        let budgetPath = parsed.value("--budget") ?? BudgetResolution.defaultFileName
        let settings = GateSettings(minimumEffectPercent: 0, minimumEffectMs: 0)
        try CompareCommand.checkRuns(shared.runs, option: "--runs", settings: GateSettings(), gate: [], looks: 1)

        let name = "calibrate-\(target.shortName)"
        var plan = shared.plan(name: name, command: target.command, commandLine: ["launchprof", "calibrate"] + arguments)
        plan.runs = shared.runs
        var widestPercent = 0.0, widestMs = 0.0
        var lines: [String] = []
        // The rounds' launches replace the last calibration's once all are made (or one fails).
        let runs = try shared.runsFolder(name: name)
        defer {
            do { try runs.commit() } catch { Terminal.standardError("launchprof: \(error)") }
        }
        shared.announceColdMode()
        for round in 1...rounds {
            let compared: ComparedLaunches
            let a: MeasureRequest, b: MeasureRequest
            do {
                let folder = try runs.root.makeSubdirectory("round-\(round)")
                a = target.request(plan: plan, runs: try folder.makeSubdirectory("a"), options: shared)
                b = target.request(plan: plan, runs: try folder.makeSubdirectory("b"), options: shared)
                compared = try CompareSession.run(base: a, head: b, stages: [shared.runs], progress: ProgressLine(quiet: shared.quiet)) { _, _, _ in true }
            } catch {
                throw UsageError("\(error)")
            }
            let comparison = ComparisonReport(
                plan: ComparisonPlan(name: name, source: .interleaved, settings: settings, stages: [shared.runs]),
                base: MeasurementReport(plan: a.plan, collected: compared.base, budget: shared.budget),
                head: MeasurementReport(plan: b.plan, collected: compared.head, budget: shared.budget),
                stagesRun: compared.stagesRun, createdAt: compared.head.finishedAt)
            if comparison.outcome.isError || comparison.outcome.status == .interrupted {
                Terminal.standardError("launchprof: round \(round): \(comparison.outcome.reason)")
                return ExitCode(rawValue: comparison.outcome.exitCode)
            }
            guard let primary = comparison.primary else {
                throw UsageError("round \(round): \(comparison.problem ?? "nothing was compared")")
            }
            widestPercent = max(widestPercent, abs(primary.intervalPercent[0]), abs(primary.intervalPercent[1]))
            widestMs = max(widestMs, abs(primary.intervalMs[0]), abs(primary.intervalMs[1]))
            lines.append("round \(round): \(primary.summary)")
        }
        // Rounded up: to the next half percent, the next half millisecond.
        let percent = max(0.5, (widestPercent * 2).rounded(.up) / 2)
        let milliseconds = max(0.5, (widestMs * 2).rounded(.up) / 2)
        if !shared.quiet {
            Terminal.print("launchprof calibrate — \(ControlCharacters.escaped(target.shortName)), \(rounds) A/A round(s) of \(shared.runs) launches per side")
            lines.forEach { Terminal.print($0) }
            Terminal.print("")
        }
        Terminal.print("recommended minimum effect: --min-effect \(Milliseconds.oneDecimal(percent))% --min-effect-ms \(Milliseconds.oneDecimal(milliseconds))"
            + "  (the widest A/A interval: ±\(Milliseconds.oneDecimal(widestPercent))%, ±\(ms(widestMs)))")
        if parsed.has("--write-budget") {
            var budget = shared.budget.file?.budget ?? LaunchBudget()
            budget.minimumEffectPercent = percent
            budget.minimumEffectMs = milliseconds
            do {
                let encoder = JSONEncoder()
                encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
                try AtomicFile.write(Array(try encoder.encode(budget)) + [0x0A], to: budgetPath)
            } catch {
                throw UsageError("cannot write the budget file '\(budgetPath)': \(error)")
            }
            Terminal.print("written to \(budgetPath)")
        }
        return .success
    }
}
