import Foundation
import LaunchAnalysis
import LaunchReports
import Testing
import _LaunchProfTestSupport
import _SyntheticReports

/// Every text format of one deterministic synthetic measurement and one
/// comparison, checked whole against the files in `Goldens/` (as the terminal
/// report of the fixtures and every command's help are): a change of any
/// renderer shows up here as a diff to read.
///
/// After an intended change: `LAUNCHPROF_UPDATE_GOLDENS=1 swift test --filter RenderedGoldenTests`,
/// then read the diff of `Goldens/` before committing it.
@Suite("Rendered goldens")
struct RenderedGoldenTests {
    static let directory = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("Goldens")

    /// The formats drawn as text (JSON, the Chrome trace and hyperfine are records, checked by their own tests).
    static let formats: [ReportFormat] = [.terminal, .markdown, .html, .junit]

    /// Six launches of nested spans, built in code: no clock, host or path of this machine.
    static func measurement() -> ReportDocument {
        .measurement(SyntheticReports.synthetic(runs: 6, spans: 10))
    }

    /// Twelve launches a side, the head doing twenty times the spans in didFinishLaunching: a regression.
    static func comparison() -> ReportDocument {
        var base = SyntheticReports.synthetic(runs: 12, spans: 10)
        var head = SyntheticReports.synthetic(runs: 12, spans: 200)
        base.name = "base"
        head.name = "head"
        return .comparison(SampleReports.comparison(base, head))
    }

    static func path(_ document: ReportDocument, _ format: ReportFormat) -> String {
        let kind = if case .comparison = document { "comparison" } else { "measurement" }
        return directory.appendingPathComponent("\(kind).\(format.fileExtension ?? "terminal.txt")").path
    }

    @Test("a measurement, whole, in every text format", arguments: formats)
    func measurement(format: ReportFormat) throws {
        let document = Self.measurement()
        assertGolden(
            try format.render(document, options: RenderOptions(color: false)), path: Self.path(document, format))
    }

    @Test("a comparison, whole, in every text format", arguments: formats)
    func comparison(format: ReportFormat) throws {
        let document = Self.comparison()
        assertGolden(
            try format.render(document, options: RenderOptions(color: false)), path: Self.path(document, format))
    }

    /// (Its terminal report is checked by TerminalReportTests, against `Fixtures/measurement-v1-sample.terminal.txt`.)
    @Test(
        "the sample app's stored report (findings, launch options, a timeline), whole, in Markdown, HTML and JUnit",
        arguments: formats.filter { $0 != .terminal })
    func sample(format: ReportFormat) throws {
        let document = ReportDocument.measurement(try SampleReports.sample())
        let name = "sample.\(format.fileExtension ?? "terminal.txt")"
        assertGolden(
            try format.render(document, options: RenderOptions(color: false)),
            path: Self.directory.appendingPathComponent(name).path)
    }

    @Test("the documents are the same each time they are built")
    func deterministic() throws {
        for format in Self.formats {
            #expect(try format.render(Self.measurement()) == format.render(Self.measurement()))
            #expect(try format.render(Self.comparison()) == format.render(Self.comparison()))
            let sample = ReportDocument.measurement(try SampleReports.sample())
            #expect(try format.render(sample) == format.render(sample))
        }
    }
}
