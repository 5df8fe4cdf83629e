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
        #expect(writer.path(of: .json, for: .comparison(comparison)) == writer.path(of: .json, name: comparison.name, kind: .comparison))
        #expect(writer.path(of: .json, for: .measurement(report)) == writer.path(of: .json, name: report.name))
    }

    @Test func aReportAndItsBaselineAreOneRenderingOfTheJSON() throws {
        let report = try SampleReports.uninstrumented([10, 11, 12])
        var rendered = RenderedReport(.measurement(report), keeping: [.json])
        let written = try ReportWriter(directory: scratch.path).write(&rendered, formats: [.json, .markdown])
        try FileManager.default.createDirectory(atPath: scratch.file("baselines"), withIntermediateDirectories: true)
        let baseline = try #require(try ReportWriter(directory: scratch.file("baselines"), refusingLink: true)
            .write(&rendered, format: .json, name: "main"))
        #expect(rendered.renderCount == 2, "JSON and Markdown once each")
        #expect(baseline == scratch.file("baselines/main.json"))
        let reportBytes = try #require(FileManager.default.contents(atPath: written[0]))
        #expect(FileManager.default.contents(atPath: baseline) == reportBytes)
    }

    @Test func aFormatNotKeptIsRenderedAgainWhenAskedAgain() throws {
        var rendered = RenderedReport(.measurement(try SampleReports.uninstrumented([10])))
        let first = try rendered.bytes(of: .markdown), second = try rendered.bytes(of: .markdown)
        #expect(first == second && rendered.renderCount == 2)
    }
}
