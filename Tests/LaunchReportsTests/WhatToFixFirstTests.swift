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

    /// A phase that moved by less than a millisecond reads in µs in the metric table, and one that did not move, `0 ms`.
    @Test func theMetricTableWritesSubMillisecondChangesInMicroseconds() {
        let moved = MetricComparison(
            name: "phase:appInit", gated: false, baseMs: [1.85, 1.85, 1.86], headMs: [0.165, 0.166, 0.164],
            shiftMs: -1.64, shiftPercent: -88.7, intervalMs: [-1.7, -1.6], intervalPercent: [-90, -86],
            mannWhitneyU: 0, pValue: 0.99, adjustedPValue: 0.99, verdict: .pass, method: .exact)
        let small = ComparisonText.Row(moved)
        #expect(
            small.medianDifference.hasPrefix("−1.6") && small.medianDifference.contains(" ms ("),
            "\(small.medianDifference)")
        let tiny = MetricComparison(
            name: "phase:initialFrame", gated: false, baseMs: [0.00473, 0.00473], headMs: [0.00337, 0.00337],
            shiftMs: -0.00136, shiftPercent: -28.8, intervalMs: [-0.002, 0], intervalPercent: [-40, 0],
            mannWhitneyU: 0, pValue: 0.99, adjustedPValue: 0.99, verdict: .pass, method: .exact)
        let row = ComparisonText.Row(tiny)
        #expect(row.medianDifference.hasPrefix("−1.36 µs"), "\(row.medianDifference)")
        #expect(row.shift == "−28.8% (−1.36 µs)", "\(row.shift)")
        let still = MetricComparison(
            name: "phase:loader", gated: false, baseMs: [2, 2], headMs: [2, 2], shiftMs: 0, shiftPercent: 0,
            intervalMs: [0, 0], intervalPercent: [0, 0], mannWhitneyU: 0, pValue: 1, adjustedPValue: 1, verdict: .pass,
            method: .exact)
        #expect(ComparisonText.Row(still).medianDifference == "0 ms (0.0%)")
    }
}
