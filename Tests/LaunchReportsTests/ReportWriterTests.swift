import Foundation
import LaunchAnalysis
import LaunchReports
import Testing
import _LaunchProfTestSupport

/// Where each format's file goes (one rule), and a report written to two files
/// (`--save-baseline`) rendered once.
@Suite("Report writer")
struct ReportWriterTests {
    let scratch = ScratchDirectory("lp-writer")

    @Test func aReportsFileNameIsMadeInOnePlaceForMeasurementsAndComparisons() throws {
        let writer = ReportWriter(directory: "Reports")
        #expect(writer.path(of: .html, name: "my app/v2") == "Reports/my-app-v2.html")
        #expect(writer.path(of: .junit, name: "pr 42", kind: .comparison) == "Reports/pr-42.comparison.junit.xml")
        #expect(writer.path(of: .terminal, name: "x") == nil)
        let report = try SampleReports.uninstrumented([10, 11])
        let comparison = SampleReports.comparison(report, report)
        #expect(
            writer.path(of: .json, for: .comparison(comparison))
                == writer.path(of: .json, name: comparison.name, kind: .comparison))
        #expect(writer.path(of: .json, for: .measurement(report)) == writer.path(of: .json, name: report.name))
    }

    @Test func aReportAndItsBaselineAreOneRenderingOfTheJSON() throws {
        let report = try SampleReports.uninstrumented([10, 11, 12])
        var rendered = RenderedReport(.measurement(report), keeping: [.json])
        let written = try ReportWriter(directory: scratch.path).write(&rendered, formats: [.json, .markdown])
        try FileManager.default.createDirectory(atPath: scratch.file("baselines"), withIntermediateDirectories: true)
        let baseline = try #require(
            try ReportWriter(directory: scratch.file("baselines"), refusingLink: true)
                .write(&rendered, format: .json, name: "main"))
        #expect(rendered.renderCount == 2, "JSON and Markdown once each")
        #expect(baseline == scratch.file("baselines/main.json"))
        let reportBytes = try #require(FileManager.default.contents(atPath: written[0]))
        #expect(FileManager.default.contents(atPath: baseline) == reportBytes)
    }

    @Test func aFormatNotKeptIsRenderedAgainWhenAskedAgain() throws {
        var rendered = RenderedReport(.measurement(try SampleReports.uninstrumented([10])))
        let first = try rendered.bytes(of: .markdown)
        let second = try rendered.bytes(of: .markdown)
        #expect(first == second && rendered.renderCount == 2)
    }

    /// The Chrome trace, written in pieces as it is rendered (a big report's is
    /// hundreds of MB), is the file of the bytes rendered whole, through a
    /// folder given as a path and through one opened without following links.
    @Test func aChromeTraceWrittenInPiecesIsTheTraceRenderedWhole() throws {
        let document = ReportDocument.measurement(try SampleReports.sample())
        let whole = ChromeTraceReport.render(document)
        for refusingLink in [false, true] {
            var rendered = RenderedReport(document)
            let written = try ReportWriter(directory: scratch.path, refusingLink: refusingLink).write(
                &rendered, formats: [.chromeTrace])
            #expect(rendered.renderCount == 1)
            #expect(FileManager.default.contents(atPath: try #require(written.first)).map(Array.init) == whole)
        }
        // Pieces smaller than one event, and than the longest string, join to the same bytes.
        for chunk in [1, 7, 4096] {
            var joined: [UInt8] = []
            var pieces = 0
            ChromeTraceReport.render(document, chunk: chunk) { piece in
                joined.append(contentsOf: piece)
                pieces += 1
            }
            #expect(joined == whole, "pieces of \(chunk) bytes")
            #expect(pieces > 1, "one piece of \(chunk) bytes")
        }
    }
}
