import Foundation
import LaunchAnalysis
import LaunchTracing
import Testing

/// The sampler's readings that fall between the main thread's spans are kept,
/// gap by gap, with the gap's bounds; readings inside a span stay the span's.
@Suite("Sampled gaps between spans")
struct SampledGapTests {
    let ms = TraceBuilder.ms

    @Test func samplesOutsideEverySpanAreKeptByGapWithItsBounds() throws {
        var b = TraceBuilder.hooks()
        b.span("Fetch", 30 * ms, 40 * ms, line: 42, category: .network)
        b.samples(.network, from: 31 * ms, to: 40 * ms)
        // Before the hooks (7–10 ms): running; between the two hooks' spans nothing;
        // after didFinishLaunching (120–125 ms): blocked on the disk, then running.
        b.samples(.none, from: 7 * ms, to: 10 * ms)
        b.samples(.disk, from: 120_500_000, to: 123 * ms)
        b.samples(.none, from: 123 * ms, to: 125 * ms)
        let timeline = try #require(LaunchTimeline.build(from: b.trace()).first)
        let gaps = try #require(timeline.mainThreadGaps)
        try #require(gaps.count == 2, "\(gaps)")
        // No span before the first gap: it begins at its first sample and ends where willFinishLaunching begins.
        #expect(gaps[0].beginNanoseconds == 7 * ms)
        #expect(gaps[0].endNanoseconds == 10 * ms)
        #expect(gaps[0].runningSamples == 3)
        #expect(gaps[0].waitSamples.isEmpty)
        // No span after the last gap: it begins where didFinishLaunching ended and ends at its last sample.
        #expect(gaps[1].beginNanoseconds == 120 * ms)
        #expect(gaps[1].endNanoseconds == 124 * ms)
        #expect(gaps[1].waitSamples == [.disk: 3])
        #expect(gaps[1].runningSamples == 2)
        // The samples inside Fetch are Fetch's, not a gap's.
        let fetch = try #require(timeline.mainThreadSpans.first { $0.name == "Fetch" })
        #expect(fetch.waitSamples?[.network] == 9)
        #expect(gaps.map(\.sampleCount).reduce(0, +) == 8)
    }

    @Test func aGapIsKeptInTheJSONAndAnOlderReportReadsWithout() throws {
        var b = TraceBuilder.hooks()
        b.samples(.sleep, from: 121 * ms, to: 124 * ms)
        let timeline = try #require(LaunchTimeline.build(from: b.trace()).first)
        #expect(timeline.mainThreadGaps?.map(\.waitSamples) == [[.sleep: 3]])
        let data = try JSONEncoder().encode(timeline)
        let decoded = try JSONDecoder().decode(LaunchTimeline.self, from: data)
        #expect(decoded.mainThreadGaps == timeline.mainThreadGaps)
        var none = timeline
        none.mainThreadGaps = nil
        let older = try JSONEncoder().encode(none)
        #expect(!String(decoding: older, as: UTF8.self).contains("mainThreadGaps"))
        #expect(try JSONDecoder().decode(LaunchTimeline.self, from: older).mainThreadGaps == nil)
    }

    @Test func aThreadNeverSampledHasNoGapRecordAndOneSampledOnlyInSpansAnEmptyOne() throws {
        let timeline = try #require(LaunchTimeline.build(from: TraceBuilder.hooks().trace()).first)
        #expect(timeline.sampleCount == 0)
        #expect(timeline.mainThreadGaps == nil)
        var b = TraceBuilder.hooks()
        b.samples(.none, from: 11 * ms, to: 19 * ms)
        let sampled = try #require(LaunchTimeline.build(from: b.trace()).first)
        #expect(sampled.sampleCount == 8)
        #expect(sampled.mainThreadGaps == [])
    }
}
