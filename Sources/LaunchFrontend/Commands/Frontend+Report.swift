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
        let redacting = parsed[LaunchCommandOptions.redactPaths]
        if redacting { document = document.redactingPaths() }
        let original =
            formats.contains(.json) && !redacting && document.isCurrentSchema
            ? try? BoundedFile.read(path, limit: JSONReport.maximumFileBytes) : nil
        /// `shown` to render, its JSON report with the fields a later launchprof of this
        /// schema wrote, which this one does not know, kept (not with --redact-paths:
        /// what they hold cannot be redacted).
        func rendering(_ shown: ReportDocument) throws -> RenderedReport {
            var rendered = RenderedReport(shown, options: render, keeping: [.json])
            guard let original else { return rendered }
            do {
                let fresh = try rendered.bytes(of: .json)
                rendered.keep(JSONUnknownFields.carried(from: original, into: fresh), for: .json)
            } catch {
                throw UsageError(error.description)
            }
            return rendered
        }

        let output = try parsed[StoredReportOptions.reportOutput]
        if output == LaunchCommandOptions.standardOutput {
            let format = try ReportOutput.standardOutputFormat(formats, terminal: true)
            if format == .json {
                var rendered = try rendering(document)
                let bytes: [UInt8]
                do { bytes = try rendered.bytes(of: .json) } catch { throw UsageError(error.description) }
                Terminal.standardOutputDocument(bytes, syntax: format.workflowCommandSyntax)
                if annotations {
                    Terminal.standardErrorRaw(
                        GitHubAnnotations.render(document, locate: SourceLocator().path(of:filePath:)))
                }
                return .success
            }
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
                // Every file of this write carries the JSON report's id (a new one for a report that has none).
                var rendered = try rendering(
                    document.reportID == nil ? document.identified(as: SessionID.make()) : document)
                written = try ReportWriter(directory: directory).write(&rendered, formats: formats)
            } catch {
                problem = "\(error)"
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
