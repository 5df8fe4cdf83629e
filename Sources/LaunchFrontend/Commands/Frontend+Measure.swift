import LaunchAnalysis
import LaunchMeasure
import LaunchReports
import _LaunchSystem

/// The Frontend: one call per `launchprof` subcommand. Each parses its
/// arguments with the command's declared options, checks them before any work,
/// and runs them through the one pipeline (``LaunchPipeline``) or its output
/// half (``ReportOutput``).
public enum Frontend {
    /// `launchprof measure`: one program's launches, its report, the optional baseline and OTLP post.
    @Sendable
    public static func measure(_ arguments: [String], options: [OptionSpec]) throws -> ExitCode {
        let parsed = try Arguments(arguments, options: options)
        let shared = try LaunchCommandOptions(parsed)
        let baseline = try parsed[ProgramOptions.saveBaseline].map { name in try Baseline(name: name, options: shared) }
        let otlp = try OTLPOptions(parsed)
        let pipeline = LaunchPipeline(options: shared, commandLine: ["launchprof", "measure"] + arguments)
        let target = try ProgramTarget(parsed, sample: ProgramOptions.sample)
        try pipeline.checkCounting(target)
        // The output folder's old report, read once (its header fields) before any launch: for the name, and
        // to say afterwards when a measurement whose every run failed replaced it.
        var (name, old) = (target.defaultName, ReportSummary?.none)
        if !target.isSample, shared.name == nil {
            (name, old) = ReportName.measurement(target.command, derived: target.defaultName, writer: shared.writer)
        }
        let plan = pipeline.plan(target, name: name)
        if plan.name != name || target.isSample || shared.name != nil {
            old = ReportName.previous(plan.name, writer: shared.writer)
        }
        guard plan.name.contains(where: { $0 != "." }) else {
            throw UsageError("--name takes a report name, not '\(plan.name)'")
        }
        if shared.formats.contains(.json), let json = shared.writer?.path(of: .json, name: plan.name),
            SystemCalls.isDirectory(json)
        {
            throw UsageError("cannot write the report to '\(json)': it is a directory")
        }
        // Cold mode's privilege is checked by the first launch's cache drop, before anything runs.
        let runs = try shared.runsFolder(name: plan.name)
        let document = try pipeline.document(of: .single(pipeline.request(target, plan: plan, in: runs.root)), in: runs)
        let code = pipeline.write(document, baseline: baseline, runs: runs, replacing: old)
        // After the report is saved and shown: a failed post loses nothing measured.
        guard otlp.settings != nil, case .measurement(let report) = document else { return code }
        let exported = shared.redactPaths ? report.redactingPaths() : report
        return otlp.post(
            otlp.request(for: exported), launches: report.runs.filter { $0.status != .interrupted }.count, after: code,
            quiet: shared.quiet)
    }
}
