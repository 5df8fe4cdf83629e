import Foundation
import LaunchAnalysis
import LaunchReports
import LaunchTracing

extension Frontend {
    /// `launchprof report`: a saved report rendered again, in any format.
    @Sendable
    public static func report(_ arguments: [String], options: [OptionSpec]) throws -> ExitCode {
        let parsed = try Arguments(
            arguments, options: options, positionals: 1, positionalHint: "report takes one report file")
        guard let path = parsed.positionals.first else {
            throw UsageError("report needs a report file: launchprof report REPORT.json")
        }
        let formats: [ReportFormat]
        do { formats = try ReportFormat.list(parsed.text("--format")!) } catch {
            throw UsageError("\(error)")
        }
        let annotations = try LaunchCommandOptions.githubAnnotations(parsed)
        let color = !parsed.has("--no-color") && ProcessEnvironment.value("NO_COLOR") == nil && Terminal.isInteractive
        let render = RenderOptions(
            color: color, findingsLimit: parsed.has("--all") ? .max : 5,
            inconclusiveIsPass: parsed.has("--junit-inconclusive-pass"))
        var document: ReportDocument
        do { document = try JSONReport.readDocument(from: path) } catch { throw UsageError(error.description) }
        if parsed.has("--redact-paths") { document = document.redactingPaths() }

        if parsed.value("--output") == LaunchCommandOptions.standardOutput {
            let format = try ReportOutput.standardOutputFormat(formats, terminal: true)
            try ReportOutput.printDocument(document, format: format, render: render, annotations: annotations)
            return .success
        }
        if parsed.value("--output") == "" {
            throw UsageError("--output takes a folder, or '-' for standard output, not ''")
        }
        let directory =
            parsed.value("--output") ?? (path.contains("/") ? String(path[..<path.lastIndex(of: "/")!]) : ".")
        var written: [String] = []
        var problem: String?
        if let reason = Files.prepareWritableDirectory(directory) {
            problem = "cannot write reports to '\(directory)': \(reason)"
        } else {
            do {
                written = try ReportWriter(directory: directory).write(document, formats: formats, options: render)
            } catch {
                problem = error.description
            }
        }
        // The terminal format, or what the report says when nothing could be written.
        ReportOutput.show(
            document, written: [], terminal: formats.contains(.terminal) || problem != nil, render: render,
            annotations: annotations)
        if let problem {
            Terminal.standardError("launchprof: \(problem)")
            return .error
        }
        for file in written { Terminal.print("wrote \(ControlCharacters.escaped(file))") }
        return .success
    }
}
