import Foundation
import LaunchAnalysis
import LaunchMeasure
import LaunchReports
import LaunchTracing

extension Frontend {
    /// `launchprof calibrate`: the program against itself (A/A), interleaved, for
    /// a few rounds; the recommendation follows ``CalibrationRule``.
    @Sendable
    public static func calibrate(_ arguments: [String], options: [OptionSpec]) throws -> ExitCode {
        let parsed = try Arguments(arguments, options: options)
        let shared = try MeasureOptions(parsed, defaults: .calibrate)
        let rounds = try parsed.integer("--rounds")!
        guard shared.mode != .hot else { throw UsageError("--mode hot cannot interleave launches: use warm or cold") }
        let target = try ProgramTarget(parsed, sampleOption: "--sample")
        let budgetPath = parsed.value("--budget") ?? BudgetResolution.defaultFileName
        try ComparisonOptions.checkMinimumRuns(shared.runs, settings: GateSettings(), gate: [], looks: 1)

        let name = "calibrate-\(target.shortName)"
        let pipeline = LaunchPipeline(options: shared, commandLine: ["launchprof", "calibrate"] + arguments)
        let plan = pipeline.plan(target, name: name, runs: shared.runs)
        var rule = ComparisonPlan(name: name, source: .interleaved, settings: CalibrationRule.roundSettings, stages: [shared.runs])
        rule.metrics = shared.metrics
        var instructionSpreads: [Double] = []
        var calibration = CalibrationRule()
        var lines: [String] = []
        // The rounds' launches replace the last calibration's once all are made (or one fails).
        let runs = try shared.runsFolder(name: name)
        defer {
            do { try runs.commit() } catch { Terminal.standardError("launchprof: \(error)") }
        }
        shared.announceColdMode()
        for round in 1...rounds {
            let comparison: ComparisonReport
            do {
                let folder = try runs.root.makeSubdirectory("round-\(round)")
                let a = pipeline.request(target, plan: plan, in: try folder.makeSubdirectory("a"))
                let b = pipeline.request(target, plan: plan, in: try folder.makeSubdirectory("b"))
                var once = StopAfterFirstStage()
                let compared = try CompareSession.run(
                    base: a, head: b, stages: [shared.runs], progress: ProgressLine(quiet: shared.quiet), rule: &once)
                comparison = ComparisonRule(plan: rule, base: plan, head: plan, budget: shared.budget)
                    .report(base: compared.base, head: compared.head, stagesRun: compared.stagesRun)
            } catch {
                throw UsageError("\(error)")
            }
            if comparison.outcome.isError || comparison.outcome.status == .interrupted {
                Terminal.standardError("launchprof: round \(round): \(comparison.outcome.reason)")
                return ExitCode(rawValue: comparison.outcome.exitCode)
            }
            guard let primary = comparison.primary else {
                throw UsageError("round \(round): \(comparison.problem ?? "nothing was compared")")
            }
            calibration.add(primary)
            lines.append("round \(round): \(primary.summary)")
            if let instructions = comparison.instructions {
                instructionSpreads.append(instructions.decision.spread)
                lines.append("round \(round): \(instructions.summary)")
            }
        }
        if !shared.quiet {
            Terminal.print("launchprof calibrate — \(ControlCharacters.escaped(target.shortName)), \(rounds) A/A round(s) of \(shared.runs) launches per side")
            lines.forEach { Terminal.print($0) }
            Terminal.print("")
        }
        Terminal.print("recommended minimum effect: --min-effect \(Milliseconds.oneDecimal(calibration.percent))% "
            + "--min-effect-ms \(Milliseconds.oneDecimal(calibration.milliseconds))"
            + "  (the widest A/A interval: ±\(Milliseconds.oneDecimal(calibration.widestPercent))%, ±\(ms(calibration.widestMs)))")
        if let widest = instructionSpreads.max() {
            Terminal.print(CalibrationRule.instructionAdvice(widestSpread: widest))
        }
        guard parsed.has("--write-budget") else { return .success }
        var budget = shared.budget.file?.budget ?? LaunchBudget()
        budget.minimumEffectPercent = calibration.percent
        budget.minimumEffectMs = calibration.milliseconds
        do {
            let encoder = JSONEncoder()
            encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
            try AtomicFile.write(Array(try encoder.encode(budget)) + [0x0A], to: budgetPath)
        } catch {
            throw UsageError("cannot write the budget file '\(budgetPath)': \(error)")
        }
        Terminal.print("written to \(budgetPath)")
        return .success
    }
}
