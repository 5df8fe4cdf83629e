import Foundation
import LaunchAnalysis
import LaunchReports
import Testing

/// A stored report can hold any number: every format renders it, never traps.
@Suite("extreme values in every format")
struct ExtremeValueRenderingTests {
    static let extremes: [Double] = [1e308, -1e308, 1e19, 9.3e18, .infinity, .nan, .greatestFiniteMagnitude]

    /// Every format of `document`, each non-empty; the text formats never show an
    /// integer a conversion clamped to (`Int.max`), which would state a wrong value.
    func renderEveryFormat(_ document: ReportDocument, sourceLocation: SourceLocation = #_sourceLocation) throws {
        for format in ReportFormat.allCases {
            let bytes = try format.render(document)
            #expect(!bytes.isEmpty, "\(format)", sourceLocation: sourceLocation)
            if [.terminal, .markdown, .html, .junit].contains(format) {
                #expect(
                    !String(decoding: bytes, as: UTF8.self).contains("9223372036854775807"), "\(format)",
                    sourceLocation: sourceLocation)
            }
        }
    }

    @Test(arguments: extremes) func aMeasurementWithAnExtremeTimeRendersInEveryFormat(_ value: Double) throws {
        var report = try SampleReports.uninstrumented([value, 12, value, 13])
        report.runs[0].timeToExitMs = value
        try renderEveryFormat(.measurement(report))
        let terminal = String(decoding: try ReportFormat.terminal.render(.measurement(report)), as: UTF8.self)
        if value.isFinite { #expect(!terminal.contains("9223372036854775807"), "a clamped integer shown as the value") }
    }

    @Test(arguments: extremes) func aSampleReportWithExtremeBudgetsAndShareRendersInEveryFormat(_ value: Double) throws
    {
        var report = try SampleReports.sample()
        report.configuration.budget.timeToFirstFrameMs = value
        report.configuration.budget.spansMs["Huge"] = value
        for index in report.profile.findings.indices { report.profile.findings[index].budgetShare = value }
        try renderEveryFormat(.measurement(report))
    }

    @Test(arguments: extremes) func aComparisonWithAnExtremeShiftRendersInEveryFormat(_ value: Double) throws {
        let base = try SampleReports.uninstrumented(SampleReports.around(20))
        let head = try SampleReports.uninstrumented(SampleReports.around(30))
        var comparison = SampleReports.comparison(base, head)
        for index in comparison.metrics.indices {
            comparison.metrics[index].shiftMs = value
            comparison.metrics[index].shiftPercent = value
        }
        try renderEveryFormat(.comparison(comparison))
    }
}
