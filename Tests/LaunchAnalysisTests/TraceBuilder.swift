import LaunchAnalysis
import LaunchTracing

/// A trace builder: events on a "main" thread at given nanoseconds.
struct TraceBuilder {
    var strings: [String] = ["", "Test/App.swift"]
    var events: [TraceEvent] = []
    var usage: [SpanUsage] = []
    var samples: [ThreadSample] = []
    var metadata: [String: String] = [LaunchContract.MetadataKey.launchOptions: LaunchOptions.userTap.json]

    mutating func id(_ name: String) -> UInt32 {
        if let index = strings.firstIndex(of: name) { return UInt32(index) }
        strings.append(name)
        return UInt32(strings.count - 1)
    }

    mutating func mark(_ milestone: Milestone, at ns: UInt64) {
        events.append(
            TraceEvent(
                kind: .mark, category: milestone.rawValue, nameID: id(milestone.id), beginNanoseconds: ns,
                endNanoseconds: ns))
    }

    mutating func span(
        _ name: String, _ begin: UInt64, _ end: UInt64, line: UInt32 = 10, category: SpanCategory = .general,
        cpu: UInt64? = nil
    ) {
        events.append(
            TraceEvent(
                kind: .span, category: category.rawValue, nameID: id(name), fileID: 1, line: line,
                beginNanoseconds: begin, endNanoseconds: end))
        if let cpu {
            usage.append(SpanUsage(eventIndex: UInt32(events.count - 1), usage: ResourceUsage(cpuNanoseconds: cpu)))
        }
    }

    /// A span with its whole usage: CPU, run-queue wait, major faults.
    mutating func span(
        _ name: String, _ begin: UInt64, _ end: UInt64, line: UInt32 = 10, usage: ResourceUsage, estimated: Bool = false
    ) {
        events.append(
            TraceEvent(
                kind: .span, category: SpanCategory.general.rawValue, nameID: id(name), fileID: 1, line: line,
                beginNanoseconds: begin, endNanoseconds: end))
        self.usage.append(SpanUsage(eventIndex: UInt32(events.count - 1), usage: usage, isEstimated: estimated))
    }

    mutating func samples(
        _ wait: ThreadSample.Wait, from: UInt64, to: UInt64, every: UInt64 = 1_000_000, target: WaitTarget? = nil
    ) {
        var t = from
        while t < to {
            samples.append(
                ThreadSample(
                    nanoseconds: t, osThreadID: 7, state: wait == .none ? 82 : 83, syscall: wait == .none ? -1 : 0,
                    wait: wait, target: target))
            t += every
        }
    }

    func trace(spawn: UInt64 = 0) -> Trace {
        let sorted = events.enumerated().sorted { $0.element.beginNanoseconds < $1.element.beginNanoseconds }
        var remap: [Int: Int] = [:]
        for (new, old) in sorted.enumerated() { remap[old.offset] = new }
        let thread = TraceThread(
            index: 0, osThreadID: 7, isMain: true, events: sorted.map(\.element),
            usage: usage.map {
                SpanUsage(eventIndex: UInt32(remap[Int($0.eventIndex)]!), usage: $0.usage, isEstimated: $0.isEstimated)
            })
        return Trace(
            clockSource: .manual, processID: 1, spawn: SpawnTime(nanoseconds: spawn, source: .parent),
            runtimeInitNanoseconds: spawn + 5_000_000, flushNanoseconds: 1_000_000_000,
            metadata: metadata,
            strings: strings, threads: [thread], samples: samples.sorted { $0.nanoseconds < $1.nanoseconds })
    }

    static let ms: UInt64 = 1_000_000

    /// spawn 0, runtimeInit 5, main 7, willFinish 10–20, didFinish 20–120, firstFrame 121.
    /// In didFinish: `Fetch` (App.swift:42) waits 39 ms on the network; `Index`
    /// (App.swift:77) spends 50 ms of CPU, 10 of them in a nested `Tokenize`.
    static func launch() -> TraceBuilder {
        var b = hooks()
        // Network wait: 40 ms of wall, 1 ms of CPU.
        b.span("Fetch", 21 * ms, 61 * ms, line: 42, category: .network, cpu: 1 * ms)
        b.samples(.network, from: 22 * ms, to: 61 * ms)
        // CPU work: 50 ms of wall, 50 ms of CPU, with a nested 10 ms CPU child.
        b.span("Index", 62 * ms, 112 * ms, line: 77, category: .compute, cpu: 50 * ms)
        b.span("Tokenize", 70 * ms, 80 * ms, line: 80, category: .compute, cpu: 10 * ms)
        b.samples(.none, from: 62 * ms, to: 112 * ms)
        return b
    }

    /// The launch's milestones and hooks alone (first frame at 121 ms): add spans in didFinish (20–120).
    static func hooks() -> TraceBuilder {
        var b = TraceBuilder()
        b.mark(.main, at: 7 * ms)
        b.mark(.willFinishLaunchingBegin, at: 10 * ms)
        b.span("willFinishLaunching", 10 * ms, 20 * ms, category: .harness, cpu: 10 * ms)
        b.mark(.willFinishLaunchingEnd, at: 20 * ms)
        b.mark(.didFinishLaunchingBegin, at: 20 * ms)
        b.span("didFinishLaunching", 20 * ms, 120 * ms, category: .harness, cpu: 55 * ms)
        b.mark(.didFinishLaunchingEnd, at: 120 * ms)
        b.mark(.firstFrame, at: 121 * ms)
        return b
    }
}
