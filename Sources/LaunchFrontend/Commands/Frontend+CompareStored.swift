import LaunchAnalysis
import LaunchReports

extension Frontend {
    /// Two stored reports, compared as they are (machine by machine when either is pooled).
    static func compareStored(_ parsed: Arguments, pipeline: LaunchPipeline, comparison: ComparisonOptions) throws
        -> ExitCode
    {
        try refuseLaunching(parsed, "two report files are compared as they are")
        let reports = try parsed.positionals.map(readReport)
        do { try RunIdentity.refuseRepeats(in: Array(zip(parsed.positionals, reports))) } catch {
            throw UsageError("\(error)")
        }
        // A report pooled from several machines is compared machine by machine.
        let acrossMachines = reports.contains { $0.machineKeys.count > 1 }
        return try compareStored(
            base: reports[0], head: reports[1], files: parsed.positionals.joined(separator: " and "),
            acrossMachines: acrossMachines,
            pipeline: pipeline, comparison: comparison)
    }

    /// `--base-report FILE… --head-report FILE…`: each side's reports pooled (every
    /// run keeping its machine), compared within each machine.
    static func compareFleet(_ parsed: Arguments, pipeline: LaunchPipeline, comparison: ComparisonOptions) throws
        -> ExitCode
    {
        try refuseLaunching(parsed, "stored reports are compared as they are")
        guard parsed.positionals.isEmpty else {
            throw UsageError("give the reports with --base-report and --head-report, not as plain arguments as well")
        }
        let basePaths = parsed[ProgramOptions.report(.base)]
        let headPaths = parsed[ProgramOptions.report(.head)]
        guard !basePaths.isEmpty, !headPaths.isEmpty else {
            throw UsageError("a fleet comparison needs at least one --base-report and one --head-report")
        }
        let baseReports = try basePaths.map(readReport)
        let headReports = try headPaths.map(readReport)
        do { try RunIdentity.refuseRepeats(in: Array(zip(basePaths + headPaths, baseReports + headReports))) } catch {
            throw UsageError("\(error)")
        }
        func pooled(_ paths: [String], _ reports: [MeasurementReport]) throws -> MeasurementReport {
            guard reports.count > 1 else { return reports[0] }
            do {
                return try MeasurementReport(
                    merging: reports, name: reports[0].name,
                    createdAt: reports.map(\.createdAt).max() ?? reports[0].createdAt)
            } catch {
                throw UsageError("\(paths.joined(separator: ", ")): \(error)")
            }
        }
        let base = try pooled(basePaths, baseReports)
        let head = try pooled(headPaths, headReports)
        return try compareStored(
            base: base, head: head, files: (basePaths + headPaths).joined(separator: ", "), acrossMachines: true,
            pipeline: pipeline, comparison: comparison)
    }

    /// Refuses the options that launch something, or name a machine, beside stored reports.
    static func refuseLaunching(_ parsed: Arguments, _ what: String) throws {
        let launching =
            (ProgramOptions.compareSidesTable + [ComparisonOptions.stagesSpec, LaunchCommandOptions.machine.spec])
            .map(\.name)
            .filter { parsed.isGiven($0) }
        guard launching.isEmpty, parsed.command.isEmpty else {
            throw UsageError(
                "\(what): \((launching + (parsed.command.isEmpty ? [] : ["--"])).joined(separator: ", ")) cannot be used with them"
            )
        }
    }

    /// A stored measurement report, or a usage error naming the file.
    static func readReport(_ path: String) throws -> MeasurementReport {
        do { return try JSONReport.read(from: path) } catch { throw UsageError("\(error)") }
    }

    /// Compares two stored sides, one look, stratified by machine `acrossMachines`.
    static func compareStored(
        base: MeasurementReport, head: MeasurementReport, files: String, acrossMachines: Bool,
        pipeline: LaunchPipeline, comparison: ComparisonOptions
    ) throws -> ExitCode {
        let short = { (report: MeasurementReport) in
            report.name.hasPrefix("sample-") ? String(report.name.dropFirst(7)) : report.name
        }
        let looks = min(base.profile.successfulRuns, head.profile.successfulRuns)
        let name =
            pipeline.options.name
            ?? ReportName.comparison(
                short(base), short(head), hashing: base.configuration.command + ["--vs--"] + head.configuration.command)
        let rule = comparison.rule(
            name: name, source: .storedReports, stages: [max(1, looks)], stratifyByMachine: acrossMachines)
        do {
            _ = try ComparisonMetrics(base: base, head: head, gate: comparison.gate)
        } catch {
            throw UsageError("\(files): \(error)")
        }
        let report = ComparisonReport(plan: rule, base: base, head: head, stagesRun: 1, createdAt: head.createdAt)
        return pipeline.write(.comparison(report))
    }
}
