import LaunchAnalysis
import LaunchMeasure
import LaunchReports

extension Frontend {
    /// `launchprof compare`: base against head, interleaved on this machine, a
    /// measurement against a stored baseline, or two sets of stored reports.
    @Sendable
    public static func compare(_ arguments: [String], options: [OptionSpec]) throws -> ExitCode {
        let parsed = try Arguments(
            arguments, options: options, positionals: 2,
            positionalHint: "compare takes two report files, or --base and --head, or --baseline")
        let shared = try LaunchCommandOptions(parsed, defaults: .compare)
        let comparison = try ComparisonOptions(parsed, budget: shared.budget.file?.budget, metrics: shared.metrics)
        let pipeline = LaunchPipeline(options: shared, commandLine: ["launchprof", "compare"] + arguments)

        if !parsed[ProgramOptions.report(.base)].isEmpty || !parsed[ProgramOptions.report(.head)].isEmpty {
            return try compareFleet(parsed, pipeline: pipeline, comparison: comparison)
        }
        if parsed.positionals.count == 2 {
            return try compareStored(parsed, pipeline: pipeline, comparison: comparison)
        }
        if !parsed.positionals.isEmpty {
            throw UsageError("compare takes two report files (base and head), not one")
        }
        if let name = try parsed[ProgramOptions.baseline] {
            return try compareWithBaseline(name, parsed, pipeline: pipeline, comparison: comparison)
        }
        return try compareInterleaved(parsed, pipeline: pipeline, comparison: comparison)
    }

    /// Base and head launched alternately, stage by stage, until a look has a verdict.
    static func compareInterleaved(_ parsed: Arguments, pipeline: LaunchPipeline, comparison: ComparisonOptions) throws
        -> ExitCode
    {
        let shared = pipeline.options
        guard shared.mode != .hot else {
            throw UsageError(
                "--mode hot runs one process per side and cannot interleave base and head: use warm or cold")
        }
        guard parsed.command.isEmpty else {
            throw UsageError("give the programs with --base and --head (a command after '--' is for --baseline)")
        }
        let base = try ProgramTarget(side: .base, parsed)
        let head = try ProgramTarget(side: .head, parsed)
        try pipeline.checkCounting(base, head)
        let stages = try ComparisonOptions.stages(parsed, runs: shared.runs)
        if comparison.gatesTime {
            try ComparisonOptions.checkMinimumRuns(
                stages: stages, settings: comparison.settings, gate: comparison.checkedGate,
                budgetSpans: comparison.budgetSpans, metrics: comparison.metrics, takesStages: true)
        }
        let name = shared.name ?? ReportName.comparison(base: base, head: head, writer: shared.writer)
        let rule = comparison.rule(name: name, source: .interleaved, stages: stages)
        let runs = try shared.runsFolder(name: name)
        func request(_ target: ProgramTarget, _ side: ComparisonSide) throws -> SessionRequest {
            let plan = pipeline.plan(target, side: side, of: rule)
            do { return pipeline.request(target, plan: plan, in: try runs.root.makeSubdirectory(side.rawValue)) } catch
            {
                runs.discard()
                throw error
            }
        }
        let session = LaunchPipeline.LaunchSession.interleaved(
            base: try request(base, .base), head: try request(head, .head), rule: rule)
        return pipeline.write(try pipeline.document(of: session, in: runs), runs: runs)
    }

    /// A measurement made now (of the command after `--`, or `--head-sample`) against the stored baseline `name`.
    static func compareWithBaseline(
        _ name: String, _ parsed: Arguments, pipeline: LaunchPipeline, comparison: ComparisonOptions
    ) throws -> ExitCode {
        let shared = pipeline.options
        let baseline = try Baseline(name: name, options: shared)
        let stored = try baseline.read()
        let spread = try baseline.readSpread()
        let target = try ProgramTarget(parsed, sample: ProgramOptions.sample(.head), default: .naive)
        try pipeline.checkCounting(target)
        if comparison.gatesTime {
            try ComparisonOptions.checkMinimumRuns(
                stages: [shared.runs], settings: comparison.settings, gate: comparison.checkedGate,
                budgetSpans: comparison.budgetSpans, metrics: comparison.metrics)
        }
        let comparisonName =
            shared.name ?? ReportName.comparison(name, target.shortName, hashing: [name, "--vs--"] + target.command)
        let plan = pipeline.plan(target, name: "\(comparisonName) (\(ComparisonSide.head.rawValue))", runs: shared.runs)
        let runs = try shared.runsFolder(name: comparisonName)
        let folder: OwnedDirectory
        do { folder = try runs.root.makeSubdirectory(ComparisonSide.head.rawValue) } catch {
            runs.discard()
            throw error
        }
        // A baseline pooled from several machines is compared with the machine measured now, machine by machine.
        var rule = comparison.rule(
            name: comparisonName, source: .baseline, stages: [shared.runs],
            stratifyByMachine: stored.machineKeys.count > 1)
        // The history named (relative to the output folder) when it is what leaves the comparison inconclusive.
        if spread != nil {
            rule.sessionEvidence.historyBaseline = name
            rule.sessionEvidence.historyPath = baseline.spreadPathInOutput
        }
        let session = LaunchPipeline.LaunchSession.againstStored(
            stored, head: pipeline.request(target, plan: plan, in: folder), rule: rule, history: spread)
        return pipeline.write(try pipeline.document(of: session, in: runs), runs: runs)
    }
}
