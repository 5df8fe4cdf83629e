import Foundation
import LaunchAnalysis
import LaunchReports
import Testing
import _LaunchProfTestSupport

/// A report set is written whole or not at all (issue 33, finding 1: a disk that
/// filled part-way left the new JSON beside the old Markdown and JUnit), and
/// every format carries the set's id, so a stale file is told apart.
@Suite("Report set writes")
struct ReportSetWriteTests {
    let scratch = ScratchDirectory("lp-set")
    let formats: [ReportFormat] = [.json, .markdown, .junit, .html, .chromeTrace, .hyperfine]

    /// The files of a set named `app` in the scratch folder, by format.
    func files(_ writer: ReportWriter) -> [String] {
        formats.compactMap { writer.path(of: $0, name: "app") }
    }

    /// Writes a set of `formats` with the id `id`.
    func writeSet(_ writer: ReportWriter, id: String) throws -> [String] {
        var report = try SampleReports.uninstrumented([10, 11, 12])
        report.name = "app"
        return try writer.write(.measurement(report).identified(as: id), formats: formats)
    }

    /// True when every file of the set holds `id` and none another set's.
    func everyFileCarries(_ id: String, _ writer: ReportWriter) -> Bool {
        files(writer).allSatisfy { ScratchDirectory.read($0).contains(id) == true }
    }

    /// No temporary file is left in the folder.
    func noTemporaryFiles() throws -> Bool {
        try FileManager.default.contentsOfDirectory(atPath: scratch.path).allSatisfy { !$0.contains(".tmp-") }
    }

    @Test func everyFormatOfASetCarriesTheJSONReportsID() throws {
        let writer = ReportWriter(directory: scratch.path)
        let written = try writeSet(writer, id: "00000000000000aa")
        #expect(written.first == writer.path(of: .json, name: "app"), "the JSON report is shown first")
        #expect(Set(written) == Set(files(writer)))
        let jsonFile = try #require(writer.path(of: .json, name: "app"))
        let json = try JSONReport.read(from: jsonFile)
        #expect(json.reportID == "00000000000000aa")
        #expect(everyFileCarries("00000000000000aa", writer))
        // A document written without an id gets a new one, the same in every file.
        var report = try SampleReports.uninstrumented([10])
        report.name = "app"
        _ = try writer.write(.measurement(report), formats: formats)
        let jsonPath = try #require(writer.path(of: .json, name: "app"))
        let id = try #require(try JSONReport.read(from: jsonPath).reportID)
        #expect(id.count == 16 && id != "00000000000000aa")
        #expect(everyFileCarries(id, writer))
    }

    @Test func aWriteThatFailsPartWayLeavesTheOldSetWhole() throws {
        var writer = ReportWriter(directory: scratch.path)
        _ = try writeSet(writer, id: "00000000000000aa")
        // A full disk at the fourth file: nothing replaced.
        let junit = try #require(writer.path(of: .junit, name: "app"))
        writer.failsStaging = { $0 == junit }
        #expect {
            _ = try writeSet(writer, id: "00000000000000bb")
        } throws: { error in
            "\(error)".contains(junit) && "\(error)".contains("nothing was replaced")
        }
        #expect(everyFileCarries("00000000000000aa", writer))
        #expect(try noTemporaryFiles())
    }

    @Test func aRenameThatFailsAtTheCommitPointPutsBackTheFilesAlreadyReplaced() throws {
        var writer = ReportWriter(directory: scratch.path)
        _ = try writeSet(writer, id: "00000000000000aa")
        let json = try #require(writer.path(of: .json, name: "app"))
        writer.failsRename = { $0 == json }  // the last rename: every other file was already replaced
        #expect {
            _ = try writeSet(writer, id: "00000000000000bb")
        } throws: { error in
            "\(error)".contains(json) && "\(error)".contains("the old report set stays whole")
        }
        #expect(everyFileCarries("00000000000000aa", writer))
        #expect(try noTemporaryFiles())
        // A first write that fails leaves nothing at all.
        let other = ReportWriter(directory: scratch.file("new"))
        try FileManager.default.createDirectory(atPath: other.directory, withIntermediateDirectories: true)
        var failing = other
        failing.failsRename = {
            $0.hasSuffix(".json") && !$0.hasSuffix(".trace.json") && !$0.hasSuffix(".hyperfine.json")
        }
        #expect(throws: ReportError.self) { _ = try writeSet(failing, id: "00000000000000cc") }
        #expect(try FileManager.default.contentsOfDirectory(atPath: other.directory).isEmpty)
    }

    @Test func aFolderInTheWayOfOneFormatReplacesNothing() throws {
        let writer = ReportWriter(directory: scratch.path)
        _ = try writeSet(writer, id: "00000000000000aa")
        let html = try #require(writer.path(of: .html, name: "app"))
        try FileManager.default.removeItem(atPath: html)
        try FileManager.default.createDirectory(atPath: html, withIntermediateDirectories: false)
        #expect {
            _ = try writeSet(writer, id: "00000000000000bb")
        } throws: { error in
            "\(error)".contains(html) && "\(error)".contains("nothing was replaced")
        }
        let others = files(writer).filter { $0 != html }
        #expect(others.allSatisfy { ScratchDirectory.read($0).contains("00000000000000aa") == true })
        #expect(try noTemporaryFiles())
    }

    @Test func theMixedSetMessageNamesTheFilesThatAreNew() {
        let line = StagedReportSet.failure("I/O error", mixed: ["R/app.md"], id: "ab")
        #expect(line.contains("only R/app.md are new (reportID ab), the others are old"))
        #expect(!line.contains("\n"))
    }
}
