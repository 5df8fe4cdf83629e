import LaunchAnalysis
import LaunchReports

/// Shows and saves a report document, says on standard error why the command
/// failed when it did, and returns the exit code the document's outcome
/// carries. The JSON report is written first: it is the record everything else
/// comes from. What was measured is shown even when it could not be saved.
enum ReportOutput {
    static func write(_ document: ReportDocument, options: MeasureOptions, baseline: Baseline? = nil) -> ExitCode {
        let document = options.redactPaths ? document.redactingPaths() : document
        var written: [String] = []
        var writeProblem: String?
        do {
            written = try options.writer.write(document, formats: options.formats)
            if let baseline {
                try baseline.save(document)
                written.append(baseline.path)
            }
        } catch {
            writeProblem = error.description
        }
        show(document, written: written, terminal: options.formats.contains(.terminal) && !options.quiet || writeProblem != nil,
             render: options.renderOptions, annotations: options.githubAnnotations)
        // Quiet, a verdict that is not a pass still gets its one line (errors get theirs on standard error).
        if options.quiet, writeProblem == nil, document.outcome.status != .pass, !document.outcome.isError {
            print(TerminalReport.verdictLine(document, color: options.color))
        }
        if let writeProblem {
            Terminal.standardError("launchprof: \(writeProblem)")
            return .error
        }
        return exit(for: document)
    }

    /// Prints the terminal report (when `terminal`), the files written, and the CI annotations.
    static func show(_ document: ReportDocument, written: [String], terminal: Bool, render: RenderOptions, annotations: Bool) {
        if terminal {
            print(TerminalReport.render(document, options: render))
            if !written.isEmpty { print("report: " + written.joined(separator: ", ")) }
        }
        if annotations {
            let locator = SourceLocator()
            print(GitHubAnnotations.render(document, locate: locator.path(of:)), terminator: "")
        }
    }

    /// Says on standard error why the command failed, when it did, and returns the document's exit code.
    static func exit(for document: ReportDocument) -> ExitCode {
        let outcome = document.outcome
        if outcome.isError { Terminal.standardError("launchprof: \(outcome.reason)") }
        return ExitCode(rawValue: outcome.exitCode)
    }
}

