import Foundation
import LaunchAnalysis
import LaunchMeasure
import LaunchReports
import _LaunchSystem

/// Shows and saves a report document, says on standard error why the command
/// failed when it did, and returns the exit code the document's outcome
/// carries. The JSON report is written first: it is the record everything else
/// comes from, and the runs folder is put in place right after it. What was
/// measured is shown even when it could not be saved.
enum ReportOutput {
    /// Writes `document` as `options` ask; `runs` (the measurement's new runs
    /// folder) replaces the old one once the JSON report is written, and is
    /// removed when it could not be. `old` is the summary of the report it
    /// replaces, read once before the launches.
    static func write(
        _ document: ReportDocument, options: LaunchCommandOptions, baseline: Baseline? = nil, runs: RunsFolder? = nil,
        replacing old: ReportSummary? = nil
    ) -> ExitCode {
        let redacted = options.redactPaths ? document.redactingPaths() : document
        guard let writer = options.writer else {
            return writeToStandardOutput(redacted, options: options, runs: runs)
        }
        // Every file of this write carries one id: a stale file beside the JSON report is told apart by it.
        let document = redacted.identified(as: SessionID.make())
        let replaced = replacedGoodReport(old, by: document, writer: writer, formats: options.formats)
        var written: [String] = []
        var writeProblem: String?
        // Each format rendered once: a baseline is the JSON report's bytes again.
        let keeping: Set<ReportFormat> = baseline == nil ? [] : [.json]
        var rendered = RenderedReport(document, options: options.renderOptions, keeping: keeping)
        do {
            // Every format staged first (a full disk fails here, before anything is replaced)…
            let staged = try writer.stage(&rendered, formats: options.formats)
            var staleProblem: String?
            // …then the set put in place, the JSON report last, and its runs, with no other launchprof in between.
            func commitWithRuns() throws {
                written = try staged.commit()
                do {
                    try runs?.commit()
                } catch {
                    // The runs stay out: the set just written must not point at the runs folder there.
                    rendered = RenderedReport(
                        document.forgettingRunFiles(), options: options.renderOptions, keeping: keeping)
                    written = try writer.stage(&rendered, formats: options.formats).commit()
                    // Nor may an older set's other formats stay beside it.
                    if let problem = removeStaleFormats(
                        of: document, writer: writer, keeping: options.formats, written: written)
                    {
                        Terminal.standardError("launchprof: warning: \(problem)")
                    }
                    throw error
                }
                // The files in the output folder belong together: the other formats an
                // earlier report of this name left go, once every new file is in place.
                staleProblem = removeStaleFormats(
                    of: document, writer: writer, keeping: options.formats, written: written)
            }
            if let runs {
                try runs.withOutputLocked(commitWithRuns)
            } else {
                try writer.withFolderLocked(commitWithRuns)
            }
            if let baseline {
                try baseline.save(&rendered)
                written.append(baseline.path)
            }
            // A stale file left behind does not undo what was written: a warning, and the report's own exit code.
            if let staleProblem { Terminal.standardError("launchprof: warning: \(staleProblem)") }
        } catch {
            writeProblem = "\(error)"
        }
        runs?.discard()  // nothing when it was put in place
        let shown = runs?.keepsRuns == false ? document.forgettingRunFiles() : document  // no pointing at removed files
        show(
            shown, written: written,
            terminal: options.formats.contains(.terminal) && !options.quiet || writeProblem != nil,
            render: options.renderOptions, annotations: options.githubAnnotations)
        // Quiet, every verdict gets its one line, a pass too (errors get theirs on standard error).
        if options.quiet, writeProblem == nil, !document.outcome.isError {
            Terminal.print(quietLine(document, color: options.color))
        }
        if let writeProblem {
            Terminal.standardError("launchprof: \(writeProblem)")
            return .error
        }
        return exit(for: document, note: replaced)
    }

    /// `--output -`: the document in its one format on standard output, and
    /// everything else — the reason of a failure, a verdict that is not a pass,
    /// where the runs were kept, CI annotations — on standard error.
    static func writeToStandardOutput(_ document: ReportDocument, options: LaunchCommandOptions, runs: RunsFolder?)
        -> ExitCode
    {
        do {
            let format = try standardOutputFormat(options.formats)
            try printDocument(
                document, format: format, render: options.renderOptions, annotations: options.githubAnnotations)
        } catch {
            Terminal.standardError("launchprof: \(error)")
            return .error
        }
        if let runs { Terminal.standardError("launchprof: the runs are kept in \(runs.root.path)") }
        if document.outcome.status != .pass || isAgainstBaseline(document), !document.outcome.isError {
            Terminal.standardError(quietLine(document, color: false))
        }
        return exit(for: document)
    }

    /// The one line `--quiet` prints: the verdict and its reason, and for a
    /// comparison against a stored baseline the caveat that it is weaker
    /// evidence (never dropped, whatever the verdict).
    static func quietLine(_ document: ReportDocument, color: Bool) -> String {
        let line = TerminalReport.verdictLine(document, color: color)
        return isAgainstBaseline(document) ? line + " (" + ComparisonReport.baselineCaveat + ")" : line
    }

    /// True for a comparison whose base is a stored baseline.
    static func isAgainstBaseline(_ document: ReportDocument) -> Bool {
        guard case .comparison(let report) = document else { return false }
        return report.source == .baseline
    }

    /// The one format `--output -` writes: the only one `formats` names, a file
    /// format (with `terminal` allowed, for `launchprof report`, when `terminal` is true).
    static func standardOutputFormat(_ formats: [ReportFormat], terminal: Bool = false) throws -> ReportFormat {
        let files = ReportFormat.allCases.filter { $0.fileExtension != nil }.map(\.rawValue).joined(separator: ", ")
        guard formats.count == 1 else {
            throw UsageError(
                "--output - writes one format to standard output, not \(formats.count) "
                    + "(\(formats.map(\.rawValue).joined(separator: ","))): choose one with --format (\(files))")
        }
        guard terminal || formats[0].fileExtension != nil else {
            throw UsageError(
                "--output - writes a report file to standard output, and '\(formats[0].rawValue)' is not one: "
                    + "choose one with --format (\(files))")
        }
        return formats[0]
    }

    /// Renders `document` in `format` onto standard output; CI annotations, when
    /// asked for, go to standard error, where they do not mix with the document.
    static func printDocument(
        _ document: ReportDocument, format: ReportFormat, render: RenderOptions, annotations: Bool
    ) throws {
        let bytes = try format.render(document, options: render)
        Terminal.standardOutputDocument(bytes, syntax: format.workflowCommandSyntax)
        if annotations {
            let locator = SourceLocator()
            Terminal.standardErrorRaw(GitHubAnnotations.render(document, locate: locator.path(of:filePath:)))
        }
    }

    /// Removes the files of `document`'s name in the formats not in `formats`
    /// (an earlier measurement's, written with another `--format`); never one
    /// just `written`, nor a JSON report of launchprof's (another report's JSON
    /// can have the name of this one's `.trace.json` or `.hyperfine.json`).
    /// Returns the first problem, or nil.
    static func removeStaleFormats(
        of document: ReportDocument, writer: ReportWriter, keeping formats: [ReportFormat], written: [String]
    ) -> String? {
        for format in ReportFormat.allCases where !formats.contains(format) {
            guard let path = writer.path(of: format, for: document), !written.contains(path), SystemCalls.exists(path)
            else { continue }
            if format != .json, ReportSummary.read(from: path) != nil { continue }
            if let problem = Files.removeRegularFile(path) { return "cannot remove the stale \(path): \(problem)" }
        }
        return nil
    }

    /// What the terminal line says when `document`, a measurement whose every run
    /// failed, replaces `old`, the JSON report of one whose runs did not all fail.
    static func replacedGoodReport(
        _ old: ReportSummary?, by document: ReportDocument, writer: ReportWriter, formats: [ReportFormat]
    ) -> String? {
        guard formats.contains(.json), case .measurement(let report) = document, report.profile.successfulRuns == 0,
            let old, old.kind == .measurement, old.successfulRuns > 0, let path = writer.path(of: .json, for: document)
        else {
            return nil
        }
        return "it replaced \(path), which had \(old.successfulRuns) good run(s) of \(old.runCount)"
    }

    /// Prints the terminal report (when `terminal`), the files written, and the CI annotations.
    static func show(
        _ document: ReportDocument, written: [String], terminal: Bool, render: RenderOptions, annotations: Bool
    ) {
        if terminal {
            Terminal.print(TerminalReport.render(document.cappedForDisplay(), options: render))
            if !written.isEmpty {
                Terminal.print("report: " + ControlCharacters.escaped(written.joined(separator: ", ")))
            }
        }
        if annotations {
            let locator = SourceLocator()
            Terminal.printWorkflowCommands(GitHubAnnotations.render(document, locate: locator.path(of:filePath:)))
        }
    }

    /// Says on standard error why the command failed, when it did (with `note`
    /// after it), and returns the document's exit code.
    static func exit(for document: ReportDocument, note: String? = nil) -> ExitCode {
        let outcome = document.outcome
        if outcome.isError {
            Terminal.standardError("launchprof: \(outcome.reason)" + (note.map { "; " + $0 } ?? ""))
        } else if let note {
            Terminal.standardError("launchprof: \(note)")
        }
        return outcome.exitCode
    }
}
