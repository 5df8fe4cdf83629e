import Foundation
import LaunchAnalysis
import LaunchReports
import Testing
import _LaunchProfTestSupport

/// `--format` lists, and writing each file format atomically.
@Suite("Report formats")
struct ReportFormatTests {
    let scratch = ScratchDirectory("lp-formats")

    @Test func aListIsParsedInOrderWithoutRepeats() throws {
        #expect(try ReportFormat.list("terminal,json") == [.terminal, .json])
        #expect(try ReportFormat.list(" json , terminal,json") == [.json, .terminal])
    }

    @Test("bad lists name the value", arguments: [("", ""), ("json,", ""), ("htm", "htm"), ("terminal,jsn", "jsn")])
    func badLists(text: String, named: String) throws {
        let error = try #require(throws: ReportError.self) { try ReportFormat.list(text) }
        guard case .badFormat(let value, let problem) = error else {
            Issue.record("unexpected \(error)")
            return
        }
        #expect(value == (named.isEmpty ? text : named))
        #expect(problem.contains("json"))
    }

    @Test func everyFileFormatIsWrittenUnderTheReportsName() throws {
        let report = try JSONReport.read(from: FixtureFiles.path("measurement-v1-true.json"))
        let writer = ReportWriter(directory: scratch.path)
        let written = try writer.write(.measurement(report), formats: ReportFormat.allCases)
        #expect(written == ReportFormat.allCases.compactMap { writer.path(of: $0, name: report.name) })
        let names = [
            "true-v1.json", "true-v1.md", "true-v1.html", "true-v1.trace.json", "true-v1.junit.xml",
            "true-v1.hyperfine.json",
        ]
        #expect(written == names.map { scratch.path + "/" + $0 })
        #expect(try JSONReport.read(from: written[0]).runs == report.runs)
        // Nothing else was left behind (no temporary files).
        #expect(try FileManager.default.contentsOfDirectory(atPath: scratch.path).sorted() == names.sorted())
        #expect(try String(contentsOfFile: written[1], encoding: .utf8).hasPrefix("### launchprof measure — true-v1"))
        #expect(try String(contentsOfFile: written[2], encoding: .utf8).hasPrefix("<!DOCTYPE html>"))
    }

    @Test func aReportThatCannotBeWrittenIsAnErrorNamingTheFile() throws {
        let report = try JSONReport.read(from: FixtureFiles.path("measurement-v1-true.json"))
        try FileManager.default.createDirectory(
            atPath: scratch.file("missing-parent"), withIntermediateDirectories: false)
        let writer = ReportWriter(directory: scratch.file("missing-parent") + "/nowhere")
        let error = try #require(throws: ReportError.self) { try writer.write(.measurement(report), formats: [.json]) }
        guard case .cannotWrite(let path, _) = error else {
            Issue.record("unexpected \(error)")
            return
        }
        #expect(path == scratch.file("missing-parent") + "/nowhere/true-v1.json")
    }
}
