import Foundation
import LaunchAnalysis
import Testing

@testable import LaunchReports

/// What to fix leads with a call site and says what kind of time each cost is;
/// a comparison names each span once and says how sure each change is.
@Suite("What to fix first")
struct WhatToFixFirstTests {
    @Test func theFirstItemHasACallSiteEvenWhenTheCostliestFindingHasNone() throws {
        var report = try SampleReports.sample()
        var hook = try #require(report.profile.findings.first)
        hook.rule = .hookOverBudget
        hook.span = "didFinishLaunching"
        hook.file = nil
        hook.line = nil
        hook.medianMs = 10_000
        report.profile.findings.insert(hook, at: 0)
        let page = HTMLReport.render(.measurement(report))
        let top = try #require(page.range(of: "<section id=\"top\">"))
        let first = try #require(page.range(of: "<li class=\"finding", range: top.upperBound..<page.endIndex))
        let end = try #require(page.range(of: "</li>", range: first.upperBound..<page.endIndex))
        let item = String(page[first.lowerBound..<end.lowerBound])
        #expect(item.contains("<code>"), "\(item)")
        #expect(!item.contains("hook-over-budget"))
        // Each cost says what kind of time it is.
        #expect(item.contains("<span class=\"muted\">CPU · "))
        #expect(FindingText.costKind(.mainThreadDiskWrite) == "blocked on disk")
        #expect(FindingText.costKind(.hookOverBudget) == "wall")
    }

    @Test func durationsUnderAMillisecondAreInMicroseconds() {
        #expect(ms(0.5) == "500 µs")
        #expect(ms(0.0412) == "41.2 µs")
        #expect(ms(0.00412) == "4.12 µs")
        #expect(ms(0) == "0.00 ms")
        #expect(ms(1.5) == "1.50 ms")
        #expect(signedMs(-0.25) == "−250 µs")
    }

    @Test func aPhaseUnderTheResolutionIsNeverAnImprovement() throws {
        let base = try SampleReports.uninstrumented(SampleReports.around(0.004, 20))
        let head = try SampleReports.uninstrumented(SampleReports.around(0.002, 20))
        let report = SampleReports.comparison(base, head)
        let metric = try #require(report.metrics.first)
        #expect(metric.verdict != .improvement, "\(metric.summary)")
        // Over the resolution, the same halving is one.
        let slow = SampleReports.comparison(
            try SampleReports.uninstrumented(SampleReports.around(40, 20)),
            try SampleReports.uninstrumented(SampleReports.around(20, 20)))
        #expect(slow.metrics.first?.verdict == .improvement)
    }

    @Test func aComparisonNamesEachSpanOnceWithItsInterval() throws {
        let (report, finding, slower) = try ComparisonWhatToFixTests().comparison()
        let markdown = MarkdownReport.render(.comparison(report))
        for name in [finding.span, slower.name] {
            #expect(markdown.components(separatedBy: "**\(name)**").count - 1 == 1, "\(name):\n\(markdown)")
        }
        let interval = try #require(report.changes.spanInterval)
        #expect(interval.adjustment == "bonferroni" && interval.confidence == 0.95)
        #expect(
            markdown.contains("95 % intervals of each span's shift, simultaneous over the \(interval.spansCompared)"))
        let change = try #require(report.changes.spans.first { $0.name == slower.name })
        let lower = try #require(change.lowerMs)
        #expect(lower > 0 && lower <= change.deltaMs)
        #expect(markdown.contains("95 % interval \(signedMs(lower)) to "))
        // Within the noise sorts last.
        let noise = report.changes.spans.map(\.isWithinNoise)
        #expect(noise == noise.sorted { !$0 && $1 })
    }
}
