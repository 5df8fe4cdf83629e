import LaunchAnalysis
import LaunchExport
import LaunchMeasure
import LaunchReports
import SampleApp

/// `launchprof measure`: parses and validates, then hands off to
/// `MeasureSession` (launching), `MeasurementReport` (analysis) and
/// `ReportWriter` (reports).
enum MeasureCommand {
    static let subcommand = Subcommand(name: "measure", help: help, run: run)

    /// The options only `measure` has.
    static let ownOptions: [OptionSpec] = [
        .value("--sample", "VARIANT", "the bundled sample's variant: "
            + SampleApp.Variant.allCases.map(\.rawValue).joined(separator: ", ") + " (default naive)"),
        .value("--save-baseline", "NAME", "also keep the report as baselines/NAME.json in the output folder, "
            + "for 'launchprof compare --baseline NAME' (commit it)"),
    ]

    static let options = MeasureOptions.table() + ownOptions + OTLPOptions.table

    static let help = """
        USAGE: launchprof measure [options] [-- <command> [args...]]

        Launches a program many times and reports its launch phases, budget verdict
        and advice. With no command it measures the bundled sample app.

        OPTIONS:
        \(OptionSpec.helpSection(options))

        \(ExitCode.helpSection([.success, .gateFailed, .error] + ExitCode.stops, meanings: [
            .success: "within budget", .gateFailed: "over budget", .error: "error, failed runs or a failed OTLP post"]))
                    (Ctrl-C stops after the current launch, a second one ends it at once;
                    SIGTERM and SIGHUP end it at once; the report keeps the runs so far)

        EXAMPLES:
          launchprof measure
          launchprof measure --sample optimized --runs 20
          launchprof measure --ready port:8080 -- ./my-server --port 8080
          launchprof measure --runs 30 -- sleep 0.1
          launchprof measure --format json --output - -- ./my-app > launch.json
        """

    @Sendable
    static func run(_ arguments: [String]) throws -> ExitCode {
        let parsed = try Arguments(arguments, options: options)
        let shared = try MeasureOptions(parsed)
        let baseline = try parsed.value("--save-baseline").map { name in try Baseline(name: name, options: shared) }
        let otlp = try OTLPOptions(parsed)
        let (request, runs) = try makeRequest(parsed, shared: shared, commandLine: ["launchprof", "measure"] + arguments)
        let collected: CollectedLaunches
        do {
            collected = try MeasureSession.run(request, progress: shared.progressLine())
        } catch {
            runs.discard()
            throw UsageError("\(error)")
        }
        let report = MeasurementReport(plan: request.plan, collected: runs.relocated(collected), budget: shared.budget)
        let code = ReportOutput.write(.measurement(report), options: shared, baseline: baseline, runs: runs)
        // After the report is saved and shown: a failed post loses nothing measured.
        guard otlp.settings != nil else { return code }
        let exported = shared.redactPaths ? report.redactingPaths() : report
        return otlp.post(otlp.request(for: exported), launches: report.runs.filter { $0.status != .interrupted }.count, after: code, quiet: shared.quiet)
    }

    /// The program to launch (given after `--`, or the bundled sample app) and
    /// the plan, checked before any launch, and the new folder its runs go to.
    static func makeRequest(_ parsed: Arguments, shared: MeasureOptions, commandLine: [String]) throws -> (MeasureRequest, RunsFolder) {
        let target: ProgramTarget
        if parsed.command.isEmpty {
            target = try ProgramTarget(sample: parsed.value("--sample") ?? SampleApp.Variant.naive.rawValue, option: "--sample")
        } else {
            guard parsed.value("--sample") == nil else {
                throw UsageError("--sample measures the bundled sample; it cannot be combined with a command after '--'")
            }
            target = try ProgramTarget(command: parsed.command)
        }
        let name = target.isSample ? target.defaultName
            : ReportName.measurement(target.command, derived: target.defaultName, writer: shared.writer)
        let plan = shared.plan(name: name, command: target.command, commandLine: commandLine)
        guard plan.name.contains(where: { $0 != "." }) else {
            throw UsageError("--name takes a report name, not '\(plan.name)'")
        }
        if shared.formats.contains(.json), let json = shared.writer?.path(of: .json, name: plan.name), Files.isDirectory(json) {
            throw UsageError("cannot write the report to '\(json)': it is a directory")
        }
        // Cold mode's privilege is checked by the first launch's cache drop, before anything runs.
        let runs = try shared.runsFolder(name: plan.name)
        return (target.request(plan: plan, runs: runs.root, options: shared), runs)
    }
}
