import Foundation
import FuzzerMain
import LaunchAnalysis
import LaunchReports

/// One input: reads the bytes as a JSON report (a measurement or a comparison,
/// any schema this version reads) and, when it reads, renders it in every
/// format (terminal with and without colour and with every finding, JSON,
/// Markdown, HTML, Chrome trace, JUnit, hyperfine), its paths redacted too,
/// and neutralises each rendering's workflow commands, as `launchprof report`
/// does on standard output. Every input must either read or throw a
/// `ReportError`, and every rendering must return or throw a `ReportError`;
/// a trap or a sanitizer report is a bug.
func reportReaderFuzzer(_ data: UnsafePointer<UInt8>?, _ size: Int) -> Int32 {
    let bytes = size == 0 ? Data() : Data(bytes: data!, count: size)
    guard let document = try? JSONReport.readDocument(bytes, path: "fuzz.json") else { return 0 }
    render(document)
    render(document.redactingPaths())
    return 0
}

/// Renders `document` in every format, as `launchprof report` would.
private func render(_ document: ReportDocument) {
    for format in ReportFormat.allCases {
        guard let bytes = try? format.render(document) else { continue }
        _ = WorkflowCommands.neutralized(bytes, as: format.workflowCommandSyntax)
    }
    _ = try? ReportFormat.terminal.render(document, options: RenderOptions(color: true, findingsLimit: .max))
    _ = GitHubAnnotations.render(document, locate: { _, filePath in filePath })
}

/// libFuzzer calls ``reportReaderFuzzer(_:_:)`` with each input.
@main
enum ReportReaderFuzzer {
    static func main() { LibFuzzer.run(reportReaderFuzzer) }
}
