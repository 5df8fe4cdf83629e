import LaunchAnalysis
import LaunchReports
import LaunchTracing

/// `launchprof merge`: pools stored measurement reports — from several machines,
/// or more runs of one — into one report whose runs keep their machine, so that
/// `report` and the HTML show the distribution machine by machine and `compare`
/// compares within machines. Parses and validates, then hands off to
/// `MeasurementReport(merging:name:createdAt:)` and `JSONReport`.
enum MergeCommand {
    static let subcommand = Subcommand(name: "merge", help: help, run: run)

    static let options: [OptionSpec] = [
        .value("-o", "FILE", "the pooled report to write (required; also --output); '-' writes it to standard output"),
        .value("--output", "FILE", "the same as -o"),
        .value("--name", "NAME", "the pooled report's name (default: the output file's name without .json; fleet for -o -)"),
    ]

    static let help = """
        USAGE: launchprof merge REPORT.json... -o FLEET.json [options]

        Pools measurement reports into one: every run keeps the machine it was made
        on (the reports' machine keys, see --machine of measure), the statistics
        are computed again over all runs, and 'launchprof report' and the HTML show
        the distribution per machine. The reports must have been launched in the
        same mode and measured to the same ready condition. A pooled report is a
        side of 'launchprof compare' like any other, compared machine by machine.

        OPTIONS:
        \(OptionSpec.helpSection(options))

        EXIT CODES: 0 written, 2 error (a missing, malformed or newer report, reports
                    that cannot be pooled, or an unwritable output)

        EXAMPLES:
          launchprof merge runner-a/Reports/app.json runner-b/Reports/app.json -o Reports/fleet.json
          launchprof report Reports/fleet.json --format html
        """

    @Sendable
    static func run(_ arguments: [String]) throws -> ExitCode {
        let parsed = try Arguments(arguments, options: options, positionals: .max, positionalHint: "merge takes report files")
        guard !parsed.positionals.isEmpty else { throw UsageError("merge needs report files: launchprof merge REPORT.json... -o FLEET.json") }
        if parsed.value("-o") != nil, parsed.value("--output") != nil { throw UsageError("give -o or --output, not both") }
        guard let output = parsed.value("-o") ?? parsed.value("--output"), !output.isEmpty else {
            throw UsageError("merge needs -o FLEET.json: where the pooled report goes")
        }
        let file = output == MeasureOptions.standardOutput ? "fleet" : output.split(separator: "/").last.map(String.init) ?? output
        let name = parsed.value("--name") ?? (file.hasSuffix(".json") ? String(file.dropLast(5)) : file)
        guard !name.isEmpty else { throw UsageError("--name takes a report name, not ''") }
        let reports = try parsed.positionals.map(CompareCommand.readReport)
        let pooled: MeasurementReport
        do {
            try RunIdentity.refuseRepeats(in: Array(zip(parsed.positionals, reports)))
            pooled = try MeasurementReport(merging: reports, name: name, createdAt: reports.map(\.createdAt).max() ?? "")
        } catch {
            throw UsageError("\(parsed.positionals.joined(separator: ", ")): \(error)")
        }
        if output == MeasureOptions.standardOutput {
            try ReportOutput.printDocument(.measurement(pooled), format: .json, render: RenderOptions(), annotations: false)
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
        Terminal.print("pooled \(pooled.profile.runCount) counted runs of \(reports.count) report(s) from \(machines.count) machine(s) "
            + "(\(machines.joined(separator: "; "))) into \(output)")
        return .success
    }
}
