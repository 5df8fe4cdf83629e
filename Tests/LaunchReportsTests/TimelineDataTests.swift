import Foundation
import LaunchAnalysis
import Testing
import _SyntheticReports

@testable import LaunchReports

/// The timeline's data: every span of the drawn run, in columns, a bounded page whatever the run holds.
@Suite("Timeline data")
struct TimelineDataTests {
    /// The `tl-data` JSON of each timeline of `page`, decoded.
    static func data(_ page: String) throws -> [[String: Any]] {
        var result: [[String: Any]] = []
        var rest = page[...]
        let open = "<script type=\"application/json\" class=\"tl-data\">"
        while let start = rest.range(of: open) {
            let end = try #require(rest.range(of: "</script>", range: start.upperBound..<rest.endIndex))
            let json = rest[start.upperBound..<end.lowerBound]
            result.append(try #require(try JSONSerialization.jsonObject(with: Data(json.utf8)) as? [String: Any]))
            rest = rest[end.upperBound...]
        }
        return result
    }

    @Test func aLargeRunCostsAFewDozenBytesASpanAndAFifthOfItsJSONAtMost() throws {
        let report = SyntheticReports.synthetic(runs: 10, spans: 20_000)
        let html = HTMLReport.render(.measurement(report))
        let json = try JSONReport.render(.measurement(report))
        #expect(json.count >= 10_000_000, "the case is about reports of 10 MB or more: \(json.count)")
        #expect(html.utf8.count * 5 <= json.count, "HTML \(html.utf8.count) B, JSON \(json.count) B")
        // Nothing is drawn per span in the markup: the script draws from the columns.
        #expect(html.components(separatedBy: "<rect").count - 1 < 100)
        let data = try #require(try Self.data(html).first)
        #expect(data["n"] as? Int == 20_000)
        #expect(html.utf8.count < 20_000 * 60 + 200_000, "\(html.utf8.count) bytes for 20,000 spans")
    }

    @Test func spansWithAFindingAddNothingDrawnAndNoMoreThanTheirIds() throws {
        var report = SyntheticReports.synthetic(runs: 1, spans: 5_000)
        let plain = HTMLReport.render(.measurement(report))
        // A finding on every span's name: each span is listed once more, by number, and nothing else grows.
        var finding = try #require(try SampleReports.sample().profile.findings.first { $0.file != nil })
        finding.file = nil
        finding.line = nil
        report.profile.findings = (0..<64).map { index in
            var copy = finding
            copy.span = "Work\(index)"
            return copy
        }
        let marked = HTMLReport.render(.measurement(report))
        let data = try #require(try Self.data(marked).first)
        let spansOf = try #require(data["fsp"] as? [[Int]])
        #expect(spansOf.map(\.count).reduce(0, +) == 5_000)
        #expect(marked.utf8.count < plain.utf8.count + 5_000 * 16 + 64 * 2_000)
    }

    @Test func everySpanIsInTheDataWithItsSplitAsStored() throws {
        let report = try SampleReports.sample()
        let page = HTMLReport.render(.measurement(report))
        let data = try #require(try Self.data(page).first)
        let median = try #require(HTMLReport.medianRun(of: report, metric: .timeToFirstFrame))
        let timeline = try #require(median.timeline)
        let layout = TimelineLayout(timeline: timeline, limit: .max)
        let strings = try #require(data["str"] as? [String])
        let names = try #require(data["nm"] as? [Int]).map { strings[$0] }
        #expect(names == layout.placed.map(\.span.name))
        let cpu = try #require(data["cp"] as? [Int])
        let queue = try #require(data["q"] as? [Int])
        let blocked = try #require(data["bk"] as? [Int])
        let kinds = try #require(data["wk"] as? [String])
        for (index, placed) in layout.placed.enumerated() where placed.lane == 0 {
            let split = SpanTimeSplit(placed.span)
            let stored = Dictionary(uniqueKeysWithValues: split.parts.map { ($0.key, $0.milliseconds) })
            #expect(stored["cpu"].map { Int(($0 * 1e6).rounded()) } ?? -1 == cpu[index])
            #expect(stored["runQueue"].map { Int(($0 * 1e6).rounded()) } ?? 0 == queue[index])
            var waits: [String: Int] = [:]
            for at in stride(from: 0, to: blocked.count, by: 3) where blocked[at] == index {
                waits[kinds[blocked[at + 1]]] = blocked[at + 2]
            }
            let storedWaits = split.parts.filter { $0.key != "cpu" && $0.key != "runQueue" }
            #expect(
                waits
                    == Dictionary(
                        uniqueKeysWithValues: storedWaits.map { ($0.key, Int(($0.milliseconds * 1e6).rounded())) }))
        }
    }

    @Test func aNameThatCouldEndTheScriptIsEscaped() throws {
        var report = try SampleReports.sample()
        for index in report.runs.indices {
            report.runs[index].timeline?.mainThreadSpans[0].name = "</script><b>x</b>\u{2028}"
        }
        let page = HTMLReport.render(.measurement(report))
        #expect(!page.contains("</script><b>"))
        let data = try #require(try Self.data(page).first)
        #expect((data["str"] as? [String])?.contains("</script><b>x</b>\u{2028}") == true)
    }

    /// The drawn run with one sampled gap between spans (half its samples on the disk), or with none read at all.
    static func withGap(_ gaps: [SampledGap]?, sampleCount: Int) throws -> (page: String, origin: UInt64) {
        var report = try SampleReports.sample()
        let metric = report.profile.primaryPhase ?? .timeToFirstFrame
        let drawn = try #require(HTMLReport.medianRun(of: report, metric: metric)?.index)
        let index = try #require(report.runs.firstIndex { $0.index == drawn })
        var timeline = try #require(report.runs[index].timeline)
        timeline.mainThreadGaps = gaps
        timeline.sampleCount = sampleCount
        report.runs[index].timeline = timeline
        let origin = TimelineLayout(timeline: timeline, limit: .max).originNanoseconds
        return (HTMLReport.render(.measurement(report)), origin)
    }

    @Test func theSamplesBetweenSpansAreInTheDataAndTheNoteSaysWhatTheLaneShows() throws {
        let probe = try Self.withGap([], sampleCount: 40)
        let origin = probe.origin
        let gap = SampledGap(
            beginNanoseconds: origin + 2_000_000, endNanoseconds: origin + 4_500_000, runningSamples: 2,
            waitSamples: [.disk: 1, .event: 1])
        let page = try Self.withGap([gap], sampleCount: 40).page
        let data = try #require(try Self.data(page).first)
        let gaps = try #require(data["gp"] as? [[Any]])
        try #require(gaps.count == 1)
        #expect((gaps[0][0] as? NSNumber)?.doubleValue == 2)
        #expect((gaps[0][1] as? NSNumber)?.doubleValue == 4.5)
        // Running or runnable as kind 0, the disk as 2, an event loop among the other waits (6).
        #expect((gaps[0][2] as? [[Int]]) == [[0, 2], [2, 1], [6, 1]])
        #expect(data["sm"] as? Int == 1)
        #expect(
            page.contains("between spans the thread-state lane shows the sampler&#39;s 4 of 40 samples that fell there")
        )
        // Sampled, none between spans; never sampled: the lane has nothing there, and the page says why.
        #expect(probe.page.contains("none of the sampler&#39;s 40 samples fell outside a span"))
        let older = try Self.withGap(nil, sampleCount: 40).page
        #expect(
            older.contains("this report was written before launchprof kept the sampler&#39;s readings between spans"))
        let unsampled = try Self.withGap(nil, sampleCount: 0).page
        #expect(unsampled.contains("no sampler read the main thread in this launch"))
        #expect(try #require(try Self.data(unsampled).first)["sm"] as? Int == 0)
    }
}
