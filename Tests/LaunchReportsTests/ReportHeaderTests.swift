import Foundation
import LaunchAnalysis
import Testing
import _LaunchProfTestSupport

@testable import LaunchReports

/// The output folder's old report is read by its header: a bounded prefix.
@Suite("Report header")
struct ReportHeaderTests {
    let scratch = ScratchDirectory("lp-report-header")

    @Test(
        "a prefix is closed after its last complete value",
        arguments: [
            (#"{"a":1,"b":[2,3],"c":{"d":"e"}}"#, #"{"a":1,"b":[2,3],"c":{"d":"e"}}"#),
            (#"{"a":1,"b":[2,3"#, #"{"a":1,"b":[2]}"#),
            (#"{"a":1,"b":{"c":"x\"y","d":tr"#, #"{"a":1,"b":{"c":"x\"y"}}"#),
            (#"{"a":"b","c""#, #"{"a":"b"}"#),
            (#"{"a":12"#, #"{}"#),
            (#"{ "a" : [ { "b" : 1 } , { "c"  "#, #"{ "a" : [ { "b" : 1 } , {}]}"#),
        ])
    func closed(prefix: String, expected: String) throws {
        let closed = try #require(JSONPrefix.closed(Array(prefix.utf8)))
        #expect(String(decoding: closed, as: UTF8.self) == expected)
        #expect((try? JSONSerialization.jsonObject(with: Data(closed))) != nil)
    }

    @Test func notAnObjectHasNoPrefix() {
        #expect(JSONPrefix.closed(Array("[1,2".utf8)) == nil)
        #expect(JSONPrefix.closed(Array("{\"a\":]".utf8)) == nil)
    }

    @Test func theSummaryOfAReportLargerThanItsHeaderIsReadFromItsHeaderAlone() throws {
        let report = try SampleReports.sample()
        let text = String(decoding: try JSONReport.render(.measurement(report)), as: UTF8.self)
        // The runs replaced by more than the header's bytes of what no reader could decode: only the prefix can have been read.
        let runs = try #require(text.range(of: "\n  \"runs\" : ["))
        let path = scratch.file("big.json")
        try Data((text[..<runs.upperBound] + String(repeating: "x", count: 2 * ReportSummary.headerBytes)).utf8)
            .write(to: URL(fileURLWithPath: path))
        #expect(throws: ReportError.self) { try JSONReport.read(from: path) }
        let summary = try #require(ReportSummary.read(from: path))
        #expect(
            summary
                == ReportSummary(
                    kind: .measurement, commands: [report.configuration.command],
                    successfulRuns: report.profile.successfulRuns,
                    runCount: report.profile.runCount))
    }

    @Test func aReportWrittenBeforeTheHeaderCameFirstIsStillSummarized() throws {
        let old = try JSONReport.read(from: FixtureFiles.path("measurement-v2-sample.json"))
        let summary = try #require(ReportSummary.read(from: FixtureFiles.path("measurement-v2-sample.json")))
        #expect(summary.commands == [old.configuration.command])
        #expect(summary.successfulRuns == old.profile.successfulRuns)
    }
}
