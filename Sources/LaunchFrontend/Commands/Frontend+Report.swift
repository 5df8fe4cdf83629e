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
        let formats = try parsed[StoredReportOptions.reportFormats]
        let annotations = try LaunchCommandOptions.githubAnnotations(parsed, StoredReportOptions.annotations)
        let render = RenderOptions(
            color: LaunchCommandOptions.colors(parsed, StoredReportOptions.noColor),
            findingsLimit: parsed[StoredReportOptions.all] ? .max : 5,
            inconclusiveIsPass: parsed[LaunchCommandOptions.junitInconclusivePass])
        var document: ReportDocument
        do { document = try JSONReport.readDocument(from: path) } catch { throw UsageError(error.description) }
        if parsed[LaunchCommandOptions.redactPaths] { document = document.redactingPaths() }

        let output = try parsed[StoredReportOptions.reportOutput]
        if output == LaunchCommandOptions.standardOutput {
            let format = try ReportOutput.standardOutputFormat(formats, terminal: true)
            try ReportOutput.printDocument(document, format: format, render: render, annotations: annotations)
            return .success
        }
        let directory = output ?? (path.contains("/") ? String(path[..<path.lastIndex(of: "/")!]) : ".")
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
