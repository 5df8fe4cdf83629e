import Foundation
import LaunchAnalysis
import LaunchMeasure
import LaunchReports
import LaunchTracing

extension Frontend {
    /// `launchprof calibrate`: the program against itself (A/A), interleaved, for
    /// a few rounds; what the gate can see and the recommendation follow
    /// ``CalibrationRule``. With `--save-baseline NAME`, every round's launches
    /// become the baseline and the rounds' spread is stored beside it (``SessionSpread``).
    @Sendable
    public static func calibrate(_ arguments: [String], options: [OptionSpec]) throws -> ExitCode {
        let parsed = try Arguments(arguments, options: options)
        let shared = try LaunchCommandOptions(parsed, defaults: .calibrate)
        let rounds = try parsed[CalibrateOptions.rounds]
        guard shared.mode != .hot else { throw UsageError("--mode hot cannot interleave launches: use warm or cold") }
        let program = try ProgramTarget(parsed, sample: ProgramOptions.sample)
        let budgetPath = try parsed[LaunchCommandOptions.budgetFile] ?? BudgetResolution.defaultFileName
        let alpha = shared.budget.file?.budget.alpha ?? GateSettings().alpha
        // Its advice is for compare's default stages from --runs (r, 2r, 3r): their first look must be able to decide.
        try ComparisonOptions.checkMinimumRuns(
            stages: (1...CalibrationRule.defaultLooks).map { $0 * shared.runs }, settings: GateSettings(alpha: alpha),
            gate: .listed([]))
        let target = try targetEffect(parsed)
        let baseline = try parsed[CalibrateOptions.saveBaseline].map { name in try Baseline(name: name, options: shared)
        }
        if baseline != nil, rounds < 2 {
            throw UsageError(
                "--save-baseline stores the spread between sessions, which takes --rounds 2 or more, not \(rounds)")
        }

        let name = "calibrate-\(program.shortName)"
        let pipeline = LaunchPipeline(options: shared, commandLine: ["launchprof", "calibrate"] + arguments)
        try pipeline.checkCounting(program)
        let plan = pipeline.plan(program, name: name, runs: shared.runs)
        var rule = ComparisonPlan(
            name: name, source: .interleaved, settings: CalibrationRule.roundSettings, stages: [shared.runs])
        rule.metrics = shared.metrics
        var instructionSpreads: [Double] = []
        var calibration = CalibrationRule()
        var lines: [String] = []
        var sides: [MeasurementReport] = []
        var metric = ""
        // The rounds' launches replace the last calibration's once all are made (or one fails).
        let runs = try shared.runsFolder(name: name)
        defer {
            do { try runs.commit() } catch { Terminal.standardError("launchprof: \(error)") }
        }
        shared.announceColdMode()
        var history: [SessionSpread.StoredSession] = []
        for round in 1...rounds {
            // Each round is a session of its own: what the baseline's history estimates the sessions' variance from.
            var plan = plan
            plan.session = SessionID.make()
            let folder = try runs.root.makeSubdirectory("round-\(round)")
            let a = pipeline.request(program, plan: plan, in: try folder.makeSubdirectory("a"))
            let b = pipeline.request(program, plan: plan, in: try folder.makeSubdirectory("b"))
            var once = StopAfterFirstStage()
            let compared = try CompareSession.run(
                base: a, head: b, stages: [shared.runs], progress: ProgressLine(quiet: shared.quiet), rule: &once)
            let comparison = ComparisonRule(plan: rule, base: plan, head: plan, budget: shared.budget)
                .report(
                    base: compared.base, head: compared.head,
                    stagesRun: compared.stagesRun)
            if comparison.outcome.isError || comparison.outcome.status == .interrupted {
                Terminal.standardError("launchprof: round \(round): \(comparison.outcome.reason)")
                return comparison.outcome.exitCode
            }
            guard let primary = comparison.primary else {
                throw UsageError("round \(round): \(comparison.problem ?? "nothing was compared")")
            }
            // What compare gates: the primary metric, or CPU time under --metric cpu alone
            // (so the spread stored beside a baseline is of the metric a comparison against it decides on).
            let decisive = comparison.metrics.first(where: \.gated) ?? primary
            calibration.add(decisive)
            history.append(Self.storedSession(comparison, id: plan.session!))
            sides += [comparison.base, comparison.head]
            metric = decisive.name
            lines.append("round \(round): \(decisive.summary)")
            if let instructions = comparison.instructions {
                instructionSpreads.append(instructions.decision.spread)
                lines.append("round \(round): \(instructions.summary)")
            }
        }
        if !shared.quiet {
            Terminal.print(
                "launchprof calibrate — \(ControlCharacters.escaped(program.shortName)), \(rounds) A/A round(s) of \(shared.runs) launches per side"
            )
            lines.forEach { Terminal.print($0) }
            Terminal.print("")
        }
        let (effect, reached) = calibration.recommendedEffect(target: target, runs: shared.runs, alpha: alpha)
        let levels = CalibrationRule.lookLevels(alpha: alpha)
        let last = CalibrationRule.defaultLooks * shared.runs
        let first = levels.first!
        let final = levels.last!
        let percent = { (ratio: Double) in Milliseconds.oneDecimal(100 * ratio) + "%" }
        if !shared.quiet {
            let interval = calibration.noiseInterval()
            Terminal.print(
                "noise: one launch varies by \(percent(exp(calibration.noise) - 1)) (σ of log time; 95% interval "
                    + "\(percent(exp(interval.lowerBound) - 1))–\(percent(exp(interval.upperBound) - 1)) from "
                    + "\(calibration.launches) launches); the widest A/A interval "
                    + "was ±\(Milliseconds.oneDecimal(calibration.widestPercent))%, ±\(ms(calibration.widestMs))")
            Terminal.print(
                "minimum detectable effect at ε \(percent(effect)) (found in 80% of comparisons, α \(alpha) "
                    + "spent over \(CalibrationRule.defaultLooks) looks as α·t³): "
                    + "\(percent(calibration.minimumDetectable(runs: shared.runs, effect: effect, level: first))) "
                    + "with \(shared.runs) launches a side (the first look), "
                    + "\(percent(calibration.minimumDetectable(runs: last, effect: effect, level: final))) "
                    + "with \(last) (compare's last stage)")
            let needed =
                calibration.launchesNeeded(target: target, effect: effect, level: final).map { "\($0) launches a side" }
                ?? "no number of launches"
            Terminal.print(
                "target \(percent(target)) (--target-effect): needs \(needed) at ε \(percent(effect)) (at the last look's share of α)"
                    + (reached
                        ? "" : "; more than compare's default stages from --runs \(shared.runs) give: raise --runs"))
        }
        if !shared.quiet, let settle = calibration.roundsToSettle(target: target, runs: shared.runs, alpha: alpha) {
            let range = calibration.effectInterval(target: target, runs: shared.runs, alpha: alpha)
            Terminal.print(
                "the noise interval allows ε from \(percent(range.lowerBound)) to \(percent(range.upperBound)): "
                    + "recommended at its upper end (the most the noise may be); another calibration may recommend "
                    + "more than one 0.5% step from this one "
                    + {
                        switch settle {
                        case .rounds(let rounds): return "until --rounds \(rounds) narrows it to one step"
                        case .beyondLimit:
                            return "(not even --rounds 100 narrows it to one step: the noise is too large)"
                        }
                    }())
        }
        let recommendedMs = calibration.milliseconds(effect: effect)
        Terminal.print(
            "recommended minimum effect: --min-effect \(Milliseconds.oneDecimal(100 * effect))% "
                + "--min-effect-ms \(Milliseconds.oneDecimal(recommendedMs))"
                + "  (for a target of \(percent(target)); the noise beside it: the widest A/A interval ±\(Milliseconds.oneDecimal(calibration.widestPercent))%)"
        )
        if let baseline {
            var rendered = RenderedReport(.measurement(try pooled(sides, name: baseline.name)))
            try baseline.save(&rendered)
            var spread = calibration.spread(metric: metric)
            spread.history = history
            try baseline.save(spread)
            Terminal.print(
                "baseline: \(baseline.path), between-session spread \(Milliseconds.oneDecimal(calibration.spread(metric: metric).percent))% "
                    + "over \(rounds) sessions in \(baseline.spreadPath)")
        }
        if let widest = instructionSpreads.max() {
            Terminal.print(CalibrationRule.instructionAdvice(widestSpread: widest))
        }
        guard parsed[CalibrateOptions.writeBudget] else { return .success }
        var budget = shared.budget.file?.budget ?? LaunchBudget()
        budget.minimumEffectPercent = 100 * effect
        budget.minimumEffectMs = recommendedMs
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

    /// `--target-effect`: the smallest change the user wants caught, as a ratio.
    static func targetEffect(_ parsed: Arguments) throws -> Double {
        try parsed[CalibrateOptions.targetEffect] / 100
    }

    /// One round as a stored session: every metric's launches of both sides (the same
    /// program, in one session) summarised together.
    static func storedSession(_ comparison: ComparisonReport, id: String) -> SessionSpread.StoredSession {
        var metrics: [String: SessionSpread.StoredSession.Metric] = [:]
        for metric in comparison.metrics {
            metrics[metric.name] = SessionSpread.StoredSession.Metric(values: metric.baseMs + metric.headMs)
        }
        return SessionSpread.StoredSession(session: id, metrics: metrics)
    }

    /// Every round's sides pooled into one measurement named `name`: the baseline `calibrate` saves.
    static func pooled(_ sides: [MeasurementReport], name: String) throws -> MeasurementReport {
        do {
            var report = try MeasurementReport(
                merging: sides, name: name, createdAt: sides.map(\.createdAt).max() ?? "")
            report.name = name
            return report
        } catch {
            throw UsageError("cannot pool the rounds into a baseline: \(error)")
        }
    }
}
