import LaunchAnalysis
import LaunchMeasure
import LaunchReports
import LaunchTracing
import SampleApp

/// `launchprof compare`: base against head, with rank statistics and three
/// outcomes. Parses and validates, then hands off to `CompareSession`
/// (interleaved launches), `ComparisonReport` (the decision) and `ReportWriter`.
enum CompareCommand {
    static let subcommand = Subcommand(name: "compare", help: help, run: run)

    /// The options only `compare` has.
    static let ownOptions: [OptionSpec] = [
        .value("--base", "CMD", "the base program, one string split into words as a shell would (no shell is run)"),
        .value("--head", "CMD", "the head program, likewise"),
        .value("--base-sample", "VARIANT", "the bundled sample as the base: " + variants),
        .value("--head-sample", "VARIANT", "the bundled sample as the head: " + variants),
        .value("--baseline", "NAME", "compare a measurement made now (of the command after '--', or --head-sample) "
            + "with the stored baseline <output>/baselines/NAME.json"),
        .value("--stages", "LIST", "cumulative launches per side at which to decide, e.g. 20,40,60 (default: --runs, "
            + "twice and three times it); launching stops at the first stage with a verdict"),
        .value("--min-effect", "PERCENT", "the least slowdown called a regression, percent (default 5%)"),
        .value("--min-effect-ms", "MS", "the least slowdown called a regression, milliseconds (default 5); the larger applies"),
        .value("--alpha", "A", "significance level, spent evenly over the stages (default 0.01)"),
        .value("--gate", "LIST", "metrics besides the primary one that decide: all, or names such as "
            + "phase:didFinishLaunching,span:DecodeCatalog"),
        .flag("--fail-over-budget", "a head over its budget fails (exit 1) even without a regression"),
        .repeatable("--base-report", "FILE", "a stored base report (repeatable: one per machine, or a pooled one): a fleet "
            + "comparison, launches compared within each machine and the machines combined"),
        .repeatable("--head-report", "FILE", "a stored head report, likewise (repeatable)"),
    ]

    static let variants = SampleApp.Variant.allCases.map(\.rawValue).joined(separator: ", ")

    static let defaults = MeasureOptions.Defaults(
        runs: 20, runsMeaning: "counted launches per side: the first stage", formats: "terminal,json,markdown,html",
        name: "compare-<base>-vs-<head>", sharedCommands: true)

    static let options = MeasureOptions.table(defaults).filter { $0.name != "--budget-ms" } + ownOptions

    static let help = """
        USAGE: launchprof compare --base CMD --head CMD [options]
               launchprof compare BASE.json HEAD.json [options]
               launchprof compare --base-report FILE... --head-report FILE... [options]
               launchprof compare --baseline NAME [options] [-- <command> [args...]]

        Decides whether head launches slower than base: launches both alternately on
        this machine (ABBA order), compares every metric on log(time) with the
        Hodges–Lehmann shift, its 95% confidence interval and a one-sided Mann–Whitney
        test (Holm across the gated metrics), and says regression, pass (improvement
        included) or inconclusive. Writes <name>.comparison.json and .md.

        Stored reports from several machines (--base-report, --head-report, or a
        report pooled by 'launchprof merge') are compared within each machine and
        combined with van Elteren's stratified test; a machine on one side only is
        reported and left out.

        OPTIONS:
        \(OptionSpec.helpSection(options))

        \(ExitCode.helpSection([.success, .gateFailed, .error, .inconclusive] + ExitCode.stops, meanings: [
            .success: "pass or improvement", .gateFailed: "regression", .error: "error or failed runs"]))

        EXAMPLES:
          launchprof compare --base-sample naive --head-sample slowed
          launchprof compare --base './build-main/app' --head './build-pr/app' --runs 20
          launchprof compare Reports/main.json Reports/pr.json
          launchprof compare --base-report a1.json --base-report a2.json --head-report b1.json --head-report b2.json
          launchprof measure --save-baseline main && launchprof compare --baseline main
        """

    @Sendable
    static func run(_ arguments: [String]) throws -> ExitCode {
        let parsed = try Arguments(
            arguments, options: options, positionals: 2,
            positionalHint: "compare takes two report files, or --base and --head, or --baseline")
        let shared = try MeasureOptions(parsed, defaults: defaults)
        let commandLine = ["launchprof", "compare"] + arguments
        let gate = parsed.value("--gate").map { text in
            text.split(separator: ",").map { String($0).trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty }
        } ?? (shared.budget.file?.budget.gate ?? [])
        let settings = try gateSettings(parsed, budget: shared.budget.file?.budget)

        if !parsed.all("--base-report").isEmpty || !parsed.all("--head-report").isEmpty {
            return try compareFleet(parsed, shared: shared, settings: settings, gate: gate)
        }
        if parsed.positionals.count == 2 {
            return try compareStored(parsed, shared: shared, settings: settings, gate: gate)
        }
        if !parsed.positionals.isEmpty {
            throw UsageError("compare takes two report files (base and head), not one")
        }
        if let name = parsed.value("--baseline") {
            return try compareWithBaseline(name, parsed, shared: shared, settings: settings, gate: gate, commandLine: commandLine)
        }
        return try compareInterleaved(parsed, shared: shared, settings: settings, gate: gate, commandLine: commandLine)
    }

    /// Significance level and least effect: options first, then the budget file, then the defaults.
    static func gateSettings(_ parsed: Arguments, budget: LaunchBudget?) throws -> GateSettings {
        var settings = GateSettings()
        if let alpha = budget?.alpha { settings.alpha = alpha }
        if let percent = budget?.minimumEffectPercent { settings.minimumEffectPercent = percent }
        if let ms = budget?.minimumEffectMs { settings.minimumEffectMs = ms }
        if let text = parsed.value("--alpha") {
            guard let alpha = Double(text), alpha > 0, alpha < 1 else {
                throw UsageError("--alpha takes a number between 0 and 1, not '\(text)'")
            }
            settings.alpha = alpha
        }
        if let text = parsed.value("--min-effect") {
            let number = text.hasSuffix("%") ? String(text.dropLast()) : text
            guard let percent = Double(number), percent >= 0, percent.isFinite else {
                throw UsageError("--min-effect takes a percentage such as 5%, not '\(text)'")
            }
            settings.minimumEffectPercent = percent
        }
        if let text = parsed.value("--min-effect-ms") {
            guard let ms = Double(text), ms >= 0, ms.isFinite else {
                throw UsageError("--min-effect-ms takes a number of milliseconds, 0 or more, not '\(text)'")
            }
            settings.minimumEffectMs = ms
        }
        return settings
    }

    /// The stages: `--stages`, else `--runs` and twice and three times it.
    static func stages(_ parsed: Arguments, shared: MeasureOptions) throws -> [Int] {
        guard let text = parsed.value("--stages") else { return [shared.runs, 2 * shared.runs, 3 * shared.runs] }
        let stages = text.split(separator: ",", omittingEmptySubsequences: false).map { Int($0.trimmingCharacters(in: .whitespaces)) }
        guard !stages.isEmpty, stages.allSatisfy({ $0 != nil && $0! > 0 && $0! <= 100_000 }),
              zip(stages, stages.dropFirst()).allSatisfy({ $0! < $1! }) else {
            throw UsageError("--stages takes increasing launch counts per side such as 20,40,60, not '\(text)'")
        }
        let values = stages.map { $0! }
        if parsed.value("--runs") != nil, values[0] != shared.runs {
            throw UsageError("--runs \(shared.runs) and --stages \(text) disagree: --runs is the first stage")
        }
        return values
    }

    /// Refuses a first stage too small for the test ever to decide.
    static func checkRuns(_ runs: Int, option: String, settings: GateSettings, gate: [String], looks: Int) throws {
        let gated = gate.contains("all") ? 1 : 1 + gate.count
        let least = settings.minimumRuns(gatedMetrics: gated, looks: looks)
        guard runs >= least else {
            throw UsageError("\(option) \(runs) is too few: with α \(settings.alpha) over \(looks) look(s) and \(gated) gated metric(s), "
                + "no difference could be significant with fewer than \(least) launches per side")
        }
    }

    // MARK: Interleaved

    static func compareInterleaved(
        _ parsed: Arguments, shared: MeasureOptions, settings: GateSettings, gate: [String], commandLine: [String]
    ) throws -> ExitCode {
        guard shared.mode != .hot else {
            throw UsageError("--mode hot runs one process per side and cannot interleave base and head: use warm or cold")
        }
        guard parsed.command.isEmpty else {
            throw UsageError("give the programs with --base and --head (a command after '--' is for --baseline)")
        }
        let base = try side("base", parsed), head = try side("head", parsed)
        let stages = try stages(parsed, shared: shared)
        try checkRuns(stages[0], option: "--runs", settings: settings, gate: gate, looks: stages.count)
        let name = shared.name ?? ReportName.comparison(base: base, head: head, writer: shared.writer)
        let plan = ComparisonPlan(
            name: name, source: .interleaved, settings: settings, gate: gate, stages: stages,
            failOverBudget: parsed.has("--fail-over-budget"))
        let runs = try shared.runsFolder(name: name)
        var sidePlan = shared.plan(name: name, command: [], commandLine: commandLine)
        sidePlan.runs = stages.last!
        func request(_ target: ProgramTarget, _ label: String) throws -> MeasureRequest {
            var plan = sidePlan
            plan.name = "\(name) (\(label))"
            plan.command = target.command
            do { return target.request(plan: plan, runs: try runs.root.makeSubdirectory(label), options: shared) } catch {
                runs.discard()
                throw UsageError("\(error)")
            }
        }
        let baseRequest = try request(base, "base"), headRequest = try request(head, "head")
        let compared: ComparedLaunches
        do {
            compared = try CompareSession.run(
                base: baseRequest, head: headRequest, stages: stages, progress: shared.progressLine()
            ) { baseRuns, headRuns, stage in
                let a = MeasurementReport(plan: baseRequest.plan, collected: baseRuns, budget: shared.budget)
                let b = MeasurementReport(plan: headRequest.plan, collected: headRuns, budget: shared.budget)
                return (try? plan.look(stage, base: a, head: b).stop) ?? true
            }
        } catch {
            runs.discard()
            throw UsageError("\(error)")
        }
        let report = ComparisonReport(
            plan: plan,
            base: MeasurementReport(plan: baseRequest.plan, collected: runs.relocated(compared.base), budget: shared.budget),
            head: MeasurementReport(plan: headRequest.plan, collected: runs.relocated(compared.head), budget: shared.budget),
            stagesRun: compared.stagesRun, createdAt: compared.head.finishedAt)
        return ReportOutput.write(.comparison(report), options: shared, runs: runs)
    }

    /// `--base CMD` or `--base-sample VARIANT` (likewise for head).
    static func side(_ label: String, _ parsed: Arguments) throws -> ProgramTarget {
        switch (parsed.value("--\(label)"), parsed.value("--\(label)-sample")) {
        case (let command?, nil): return try ProgramTarget(command: ShellWords.split(command, option: "--\(label)"))
        case (nil, let sample?): return try ProgramTarget(sample: sample, option: "--\(label)-sample")
        case (.some, .some): throw UsageError("give --\(label) or --\(label)-sample, not both")
        case (nil, nil): throw UsageError("compare needs --\(label) CMD (or --\(label)-sample), or two report files")
        }
    }

    // MARK: Stored reports

    static func compareStored(_ parsed: Arguments, shared: MeasureOptions, settings: GateSettings, gate: [String]) throws -> ExitCode {
        try refuseLaunching(parsed, "two report files are compared as they are")
        let reports = try parsed.positionals.map(readReport)
        do { try RunIdentity.refuseRepeats(in: Array(zip(parsed.positionals, reports))) } catch { throw UsageError("\(error)") }
        // A report pooled from several machines is compared machine by machine.
        let acrossMachines = reports.contains { $0.machineKeys.count > 1 }
        return try compareStored(
            base: reports[0], head: reports[1], files: parsed.positionals.joined(separator: " and "), acrossMachines: acrossMachines,
            parsed, shared: shared, settings: settings, gate: gate)
    }

    /// `--base-report FILE… --head-report FILE…`: each side's reports pooled (every
    /// run keeping its machine), compared within each machine.
    static func compareFleet(_ parsed: Arguments, shared: MeasureOptions, settings: GateSettings, gate: [String]) throws -> ExitCode {
        try refuseLaunching(parsed, "stored reports are compared as they are")
        guard parsed.positionals.isEmpty else {
            throw UsageError("give the reports with --base-report and --head-report, not as plain arguments as well")
        }
        let basePaths = parsed.all("--base-report"), headPaths = parsed.all("--head-report")
        guard !basePaths.isEmpty, !headPaths.isEmpty else {
            throw UsageError("a fleet comparison needs at least one --base-report and one --head-report")
        }
        let baseReports = try basePaths.map(readReport), headReports = try headPaths.map(readReport)
        do { try RunIdentity.refuseRepeats(in: Array(zip(basePaths + headPaths, baseReports + headReports))) } catch { throw UsageError("\(error)") }
        func pooled(_ paths: [String], _ reports: [MeasurementReport]) throws -> MeasurementReport {
            guard reports.count > 1 else { return reports[0] }
            do {
                return try MeasurementReport(merging: reports, name: reports[0].name, createdAt: reports.map(\.createdAt).max() ?? reports[0].createdAt)
            } catch {
                throw UsageError("\(paths.joined(separator: ", ")): \(error)")
            }
        }
        let base = try pooled(basePaths, baseReports), head = try pooled(headPaths, headReports)
        return try compareStored(
            base: base, head: head, files: (basePaths + headPaths).joined(separator: ", "), acrossMachines: true,
            parsed, shared: shared, settings: settings, gate: gate)
    }

    /// Refuses the options that launch something, or name a machine, beside stored reports.
    static func refuseLaunching(_ parsed: Arguments, _ what: String) throws {
        let launching = ["--base", "--head", "--base-sample", "--head-sample", "--baseline", "--stages", "--machine"]
            .filter { parsed.value($0) != nil }
        guard launching.isEmpty, parsed.command.isEmpty else {
            throw UsageError("\(what): \((launching + (parsed.command.isEmpty ? [] : ["--"])).joined(separator: ", ")) cannot be used with them")
        }
    }

    /// A stored measurement report, or a usage error naming the file.
    static func readReport(_ path: String) throws -> MeasurementReport {
        do { return try JSONReport.read(from: path) } catch { throw UsageError("\(error)") }
    }

    /// Compares two stored sides, one look, stratified by machine `acrossMachines`.
    static func compareStored(
        base: MeasurementReport, head: MeasurementReport, files: String, acrossMachines: Bool,
        _ parsed: Arguments, shared: MeasureOptions, settings: GateSettings, gate: [String]
    ) throws -> ExitCode {
        let short = { (report: MeasurementReport) in report.name.hasPrefix("sample-") ? String(report.name.dropFirst(7)) : report.name }
        let looks = min(base.profile.successfulRuns, head.profile.successfulRuns)
        let plan = ComparisonPlan(
            name: shared.name ?? "compare-\(short(base))-vs-\(short(head))", source: .storedReports, settings: settings,
            gate: gate, stages: [max(1, looks)], failOverBudget: parsed.has("--fail-over-budget"), stratifyByMachine: acrossMachines)
        do {
            _ = try ComparisonMetrics(base: base, head: head, gate: gate)
        } catch {
            throw UsageError("\(files): \(error)")
        }
        let report = ComparisonReport(plan: plan, base: base, head: head, stagesRun: 1, createdAt: head.createdAt)
        return ReportOutput.write(.comparison(report), options: shared)
    }

    // MARK: Baseline

    static func compareWithBaseline(
        _ name: String, _ parsed: Arguments, shared: MeasureOptions, settings: GateSettings, gate: [String], commandLine: [String]
    ) throws -> ExitCode {
        let stored = try Baseline(name: name, options: shared).read()
        let target: ProgramTarget
        if parsed.command.isEmpty {
            target = try ProgramTarget(sample: parsed.value("--head-sample") ?? SampleApp.Variant.naive.rawValue, option: "--head-sample")
        } else {
            target = try ProgramTarget(command: parsed.command)
        }
        try checkRuns(shared.runs, option: "--runs", settings: settings, gate: gate, looks: 1)
        let comparisonName = shared.name
            ?? ReportFileName.capped("compare-\(name)-vs-\(target.shortName)", hashing: [name, "--vs--"] + target.command)
        var plan = shared.plan(name: "\(comparisonName) (head)", command: target.command, commandLine: commandLine)
        plan.runs = shared.runs
        let runs = try shared.runsFolder(name: comparisonName)
        let collected: CollectedLaunches
        do {
            let request = target.request(plan: plan, runs: try runs.root.makeSubdirectory("head"), options: shared)
            collected = runs.relocated(try MeasureSession.run(request, progress: shared.progressLine()))
        } catch {
            runs.discard()
            throw UsageError("\(error)")
        }
        let head = MeasurementReport(plan: plan, collected: collected, budget: shared.budget)
        // A baseline pooled from several machines is compared with the machine measured now, machine by machine.
        let comparison = ComparisonPlan(
            name: comparisonName, source: .baseline, settings: settings, gate: gate, stages: [shared.runs],
            failOverBudget: parsed.has("--fail-over-budget"), stratifyByMachine: stored.machineKeys.count > 1)
        let report = ComparisonReport(plan: comparison, base: stored, head: head, stagesRun: 1, createdAt: collected.finishedAt)
        return ReportOutput.write(.comparison(report), options: shared, runs: runs)
    }
}
