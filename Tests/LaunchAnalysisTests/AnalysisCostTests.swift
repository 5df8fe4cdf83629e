import Foundation
import LaunchAnalysis
import LaunchTracing
import Testing

/// Analysis grows as n log n in a trace's events, whatever their shape: many hot
/// launches (hook marks), deep nesting, many samples.
///
/// Measured in this thread's CPU time (not wall time, which a loaded machine
/// stretches), against the same work at a quarter of the size in the same run:
/// n log n at 4 × the events is about 4.3 × the time, a quadratic pass 16 ×.
@Suite("analysis cost", .serialized)
struct AnalysisCostTests {
    /// A trace of `launches` hot launches on the main thread, each with its hook
    /// marks, hook spans, a nested span and samples, the way the harness records them.
    static func hotLaunches(_ launches: Int) -> Trace {
        let ms: UInt64 = 1_000_000
        var events: [TraceEvent] = []
        var samples: [ThreadSample] = []
        let strings = ["", "Test/App.swift", "willFinishLaunching", "didFinishLaunching", "Work", "hotLaunch"]
        func mark(_ milestone: Milestone, _ ns: UInt64) {
            events.append(
                TraceEvent(
                    kind: .mark, category: milestone.rawValue, nameID: 0, beginNanoseconds: ns, endNanoseconds: ns))
        }
        func span(_ name: UInt32, _ begin: UInt64, _ end: UInt64) {
            events.append(
                TraceEvent(
                    kind: .span, category: SpanCategory.general.rawValue, nameID: name, fileID: 1, line: 10,
                    beginNanoseconds: begin, endNanoseconds: end))
        }
        mark(.main, 1 * ms)
        for launch in 0..<UInt64(launches) {
            let t = 10 * ms + launch * 10 * ms
            if launch > 0 {
                events.append(
                    TraceEvent(kind: .instant, category: 0, nameID: 5, beginNanoseconds: t, endNanoseconds: t))
            }
            mark(.willFinishLaunchingBegin, t + 1 * ms)
            span(2, t + 1 * ms, t + 2 * ms)
            mark(.willFinishLaunchingEnd, t + 2 * ms)
            mark(.didFinishLaunchingBegin, t + 2 * ms)
            span(3, t + 2 * ms, t + 8 * ms)
            span(4, t + 3 * ms, t + 7 * ms)
            mark(.didFinishLaunchingEnd, t + 8 * ms)
            mark(.firstFrame, t + 9 * ms)
            samples.append(ThreadSample(nanoseconds: t + 5 * ms, osThreadID: 7, state: 83, syscall: 0, wait: .disk))
        }
        let thread = TraceThread(index: 0, osThreadID: 7, isMain: true, events: events)
        return Trace(
            clockSource: .manual, processID: 1, spawn: SpawnTime(nanoseconds: 0, source: .parent),
            runtimeInitNanoseconds: 500_000, flushNanoseconds: 20 * ms + UInt64(launches) * 10 * ms,
            metadata: [:], strings: strings, threads: [thread], samples: samples)
    }

    /// One thread with `depth` spans each nested in the one before.
    static func nested(_ depth: Int) -> Trace {
        let events = (0..<UInt64(depth)).map {
            TraceEvent(
                kind: .span, category: 0, nameID: 2, fileID: 1, line: 1,
                beginNanoseconds: 1_000 + $0, endNanoseconds: 10_000_000 - $0)
        }
        let samples = (0..<UInt64(depth)).map {
            ThreadSample(nanoseconds: 1_000 + $0 * 2, osThreadID: 7, state: 83, syscall: 0, wait: .lock)
        }
        return Trace(
            clockSource: .manual, processID: 1, spawn: SpawnTime(nanoseconds: 0, source: .parent),
            runtimeInitNanoseconds: 500, flushNanoseconds: 20_000_000, metadata: [:],
            strings: ["", "Test/App.swift", "Nested"],
            threads: [TraceThread(index: 0, osThreadID: 7, isMain: true, events: events)],
            samples: samples)
    }

    /// This thread's CPU time spent analysing `trace` (timelines and outline), seconds.
    static func analysisCPUSeconds(_ trace: Trace) -> Double {
        let before = threadCPUSeconds()
        let timelines = LaunchTimeline.build(from: trace)
        let outline = TraceOutline(trace)
        defer { withExtendedLifetime((timelines, outline)) {} }
        return threadCPUSeconds() - before
    }

    /// The least CPU time of five tries of each, the two traces taken in turn: a
    /// machine whose other work evicts caches or slows memory for a while then
    /// weighs on both sizes alike, not on one of them (as three tries of one, then
    /// three of the other, let it).
    static func analysisCPUSeconds(small: Trace, large: Trace) -> (small: Double, large: Double) {
        var best = (small: Double.infinity, large: Double.infinity)
        for _ in 0..<5 {
            best.small = min(best.small, analysisCPUSeconds(small))
            best.large = min(best.large, analysisCPUSeconds(large))
        }
        return best
    }

    static func threadCPUSeconds() -> Double {
        var time = timespec()
        clock_gettime(CLOCK_THREAD_CPUTIME_ID, &time)
        return Double(time.tv_sec) + Double(time.tv_nsec) / 1e9
    }

    @Test func fourTimesTheHotLaunchesCostAtMostFiveTimesTheCPUTime() {
        let small = Self.hotLaunches(4_000)
        let large = Self.hotLaunches(16_000)
        #expect(LaunchTimeline.build(from: large).count == 16_000)
        let (smallCost, largeCost) = Self.analysisCPUSeconds(small: small, large: large)
        #expect(
            largeCost <= 5 * smallCost,
            "4 × the events took \(largeCost / smallCost) × the CPU time (\(smallCost) s, \(largeCost) s)")
    }

    @Test func fourTimesTheNestingCostsAtMostFiveTimesTheCPUTime() {
        let small = Self.nested(4_000)
        let large = Self.nested(16_000)
        let deepest = TraceOutline(large).threads[0].spans.last
        #expect(deepest?.depth == 15_999)
        let (smallCost, largeCost) = Self.analysisCPUSeconds(small: small, large: large)
        #expect(
            largeCost <= 5 * smallCost,
            "4 × the events took \(largeCost / smallCost) × the CPU time (\(smallCost) s, \(largeCost) s)")
    }

    /// A million events (125,000 hot launches) are analysed in bounded CPU time. The
    /// bound here is loose (a debug build, a shared machine); the release figure,
    /// under 10 s, is measured with `launchprof trace` (see the README's limits).
    @Test func aMillionEventTraceIsAnalysedInBoundedCPUTime() {
        let trace = Self.hotLaunches(125_000)
        #expect(trace.eventCount >= 1_000_000)
        let before = Self.threadCPUSeconds()
        let timelines = LaunchTimeline.build(from: trace)
        let cost = Self.threadCPUSeconds() - before
        #expect(timelines.count == 125_000)
        #expect(cost < 60, "a million events took \(cost) s of CPU")
    }
}
