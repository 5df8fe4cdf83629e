import LaunchAnalysis
import LaunchReports
import LaunchTracing

extension Frontend {
    /// `launchprof merge`: stored measurements pooled into one, every run keeping its machine.
    @Sendable
    public static func merge(_ arguments: [String], options: [OptionSpec]) throws -> ExitCode {
        let parsed = try Arguments(
            arguments, options: options, positionals: .max, positionalHint: "merge takes report files")
        guard !parsed.positionals.isEmpty else {
            throw UsageError("merge needs report files: launchprof merge REPORT.json... -o FLEET.json")
        }
        let (short, long) = (
            try parsed[StoredReportOptions.mergeOutput], try parsed[StoredReportOptions.mergeOutputLong]
        )
        if short != nil, long != nil { throw UsageError("give -o or --output, not both") }
        guard let output = short ?? long, !output.isEmpty else {
            throw UsageError("merge needs -o FLEET.json: where the pooled report goes")
        }
        let file =
            output == LaunchCommandOptions.standardOutput
            ? "fleet" : output.split(separator: "/").last.map(String.init) ?? output
        let name =
            try parsed[StoredReportOptions.mergeName] ?? (file.hasSuffix(".json") ? String(file.dropLast(5)) : file)
        guard !name.isEmpty else { throw UsageError("--name takes a report name, not ''") }
        let reports = try parsed.positionals.map(readReport)
        do { try RunIdentity.refuseRepeats(in: Array(zip(parsed.positionals, reports))) } catch {
            throw UsageError("\(error)")
        }
        let pooled: MeasurementReport
        do {
            pooled = try MeasurementReport(
                merging: reports, name: name, createdAt: reports.map(\.createdAt).max() ?? "",
                poolingDifferences: parsed[StoredReportOptions.pool])
        } catch {
            throw UsageError("\(parsed.positionals.joined(separator: ", ")): \(error)")
        }
        if output == LaunchCommandOptions.standardOutput {
            try ReportOutput.printDocument(
                .measurement(pooled), format: .json, render: RenderOptions(), annotations: false)
            return .success
        }
        let directory = output.contains("/") ? String(output[..<output.lastIndex(of: "/")!]) : "."
        if let problem = Files.prepareWritableDirectory(directory) {
            throw UsageError("cannot write '\(output)': \(problem)")
        }
        do {
            try AtomicFile.write(try JSONReport.render(.measurement(pooled)), to: output)
        } catch {
            throw UsageError("cannot write '\(output)': \(error)")
        }
        let machines = pooled.machineKeys
        Terminal.print(
            "pooled \(pooled.profile.runCount) counted runs of \(reports.count) report(s) from \(machines.count) machine(s) "
                + "(\(ControlCharacters.escaped(machines.joined(separator: "; ")))) into \(ControlCharacters.escaped(output)))"
        )
        return .success
    }
}
