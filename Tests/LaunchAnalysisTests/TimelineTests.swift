import LaunchAnalysis
import LaunchTracing
import Testing

/// Timelines built from hand-made traces: exact inputs, exact expectations.
@Suite("Timeline")
struct TimelineTests {
    /// A trace builder: events on a "main" thread at given nanoseconds.
    struct Builder {
        var strings: [String] = ["", "Test/App.swift"]
        var events: [TraceEvent] = []
        var usage: [SpanUsage] = []
        var samples: [ThreadSample] = []

        mutating func id(_ name: String) -> UInt32 {
            if let index = strings.firstIndex(of: name) { return UInt32(index) }
            strings.append(name)
            return UInt32(strings.count - 1)
        }

        mutating func mark(_ milestone: Milestone, at ns: UInt64) {
            events.append(TraceEvent(kind: .mark, category: milestone.rawValue, nameID: id(milestone.id), beginNanoseconds: ns, endNanoseconds: ns))
        }

        mutating func span(_ name: String, _ begin: UInt64, _ end: UInt64, line: UInt32 = 10, category: SpanCategory = .general, cpu: UInt64? = nil) {
            events.append(TraceEvent(kind: .span, category: category.rawValue, nameID: id(name), fileID: 1, line: line, beginNanoseconds: begin, endNanoseconds: end))
            if let cpu { usage.append(SpanUsage(eventIndex: UInt32(events.count - 1), usage: ResourceUsage(cpuNanoseconds: cpu))) }
        }

        mutating func samples(_ wait: ThreadSample.Wait, from: UInt64, to: UInt64, every: UInt64 = 1_000_000) {
            var t = from
            while t < to {
                samples.append(ThreadSample(nanoseconds: t, osThreadID: 7, state: wait == .none ? 82 : 83, syscall: wait == .none ? -1 : 0, wait: wait))
                t += every
            }
        }

        func trace(spawn: UInt64 = 0) -> Trace {
            let sorted = events.enumerated().sorted { $0.element.beginNanoseconds < $1.element.beginNanoseconds }
            var remap: [Int: Int] = [:]
            for (new, old) in sorted.enumerated() { remap[old.offset] = new }
            let thread = TraceThread(
                index: 0, osThreadID: 7, isMain: true, events: sorted.map(\.element),
                usage: usage.map { SpanUsage(eventIndex: UInt32(remap[Int($0.eventIndex)]!), usage: $0.usage) })
            return Trace(
                clockSource: .manual, processID: 1, spawn: SpawnTime(nanoseconds: spawn, source: .parent),
                runtimeInitNanoseconds: spawn + 5_000_000, flushNanoseconds: 1_000_000_000,
                metadata: ["launch.options": "{\"background\":false,\"reason\":\"userTap\"}"],
                strings: strings, threads: [thread], samples: samples.sorted { $0.nanoseconds < $1.nanoseconds })
        }
    }

    static let ms: UInt64 = 1_000_000

    /// spawn 0, runtimeInit 5, main 7, willFinish 10–20, didFinish 20–120, firstFrame 121.
    func launch() -> Builder {
        var b = Builder()
        b.mark(.main, at: 7 * Self.ms)
        b.mark(.willFinishLaunchingBegin, at: 10 * Self.ms)
        b.span("willFinishLaunching", 10 * Self.ms, 20 * Self.ms, category: .harness, cpu: 10 * Self.ms)
        b.mark(.willFinishLaunchingEnd, at: 20 * Self.ms)
        b.mark(.didFinishLaunchingBegin, at: 20 * Self.ms)
        b.span("didFinishLaunching", 20 * Self.ms, 120 * Self.ms, category: .harness, cpu: 55 * Self.ms)
        // Network wait: 40 ms of wall, 1 ms of CPU.
        b.span("Fetch", 21 * Self.ms, 61 * Self.ms, line: 42, category: .network, cpu: 1 * Self.ms)
        b.samples(.network, from: 22 * Self.ms, to: 61 * Self.ms)
        // CPU work: 50 ms of wall, 50 ms of CPU, with a nested 10 ms CPU child.
        b.span("Index", 62 * Self.ms, 112 * Self.ms, line: 77, category: .compute, cpu: 50 * Self.ms)
        b.span("Tokenize", 70 * Self.ms, 80 * Self.ms, line: 80, category: .compute, cpu: 10 * Self.ms)
        b.samples(.none, from: 62 * Self.ms, to: 112 * Self.ms)
        b.mark(.didFinishLaunchingEnd, at: 120 * Self.ms)
        b.mark(.firstFrame, at: 121 * Self.ms)
        return b
    }

    @Test func phasesFromMilestones() throws {
        let timeline = try #require(LaunchTimeline.build(from: launch().trace()).first)
        #expect(timeline.milliseconds(.loader) == 5)
        #expect(timeline.milliseconds(.staticInit) == 2)
        #expect(timeline.milliseconds(.appInit) == 3)
        #expect(timeline.milliseconds(.willFinishLaunching) == 10)
        #expect(timeline.milliseconds(.didFinishLaunching) == 100)
        #expect(timeline.milliseconds(.initialFrame) == 1)
        #expect(timeline.milliseconds(.timeToFirstFrame) == 121)
        #expect(timeline.milliseconds(.extended) == nil)
    }

    @Test func selfTimeAndWaitsAreAttributedToTheInnermostSpan() throws {
        let timeline = try #require(LaunchTimeline.build(from: launch().trace()).first)
        let spans = Dictionary(uniqueKeysWithValues: timeline.mainThreadSpans.map { ($0.name, $0) })
        let fetch = try #require(spans["Fetch"])
        #expect(fetch.depth == 1)
        #expect(fetch.blockedNanoseconds["network"] == 39 * Self.ms)
        let index = try #require(spans["Index"])
        #expect(index.selfNanoseconds == 40 * Self.ms)
        #expect(index.selfCPUNanoseconds == 40 * Self.ms)
        #expect(index.blockedNanoseconds.isEmpty)
        #expect(spans["Tokenize"]?.depth == 2)
    }

    @Test func advisorSeparatesBlockingFromCPU() throws {
        let timeline = try #require(LaunchTimeline.build(from: launch().trace()).first)
        let findings = Advisor.findings(for: [timeline, timeline], budget: LaunchBudget(requiredForFirstFrame: []))
        let network = try #require(findings.first { $0.rule == "main-thread-network" })
        #expect(network.span == "Fetch")
        #expect(network.line == 42)
        #expect(network.medianMs == 39)
        #expect(network.runsAppeared == 2 && network.runsTotal == 2)
        #expect(network.recommendation.contains("Fetch (App.swift:42)"))
        let cpu = try #require(findings.first { $0.rule == "deferrable-cpu-work" && $0.span == "Index" })
        #expect(cpu.medianMs == 40)
        #expect(cpu.line == 77)
        #expect(!findings.contains { $0.span == "Fetch" && $0.rule.contains("cpu") })
        #expect(!findings.contains { $0.span == "Index" && $0.rule.hasPrefix("main-thread") })
        // Declared as needed for the first frame: move it or make it cheaper instead.
        let required = Advisor.findings(for: [timeline], budget: LaunchBudget(requiredForFirstFrame: ["Index"]))
        #expect(required.contains { $0.rule == "slow-required-work" && $0.span == "Index" })
    }

    @Test func hookOverBudget() throws {
        let timeline = try #require(LaunchTimeline.build(from: launch().trace()).first)
        let findings = Advisor.findings(for: [timeline], budget: LaunchBudget(hooksMs: ["didFinishLaunching": 50]))
        let hook = try #require(findings.first { $0.rule == "hook-over-budget" })
        #expect(hook.span == "didFinishLaunching")
        #expect(hook.medianMs == 100)
        #expect(hook.severity == .critical)
    }

    @Test func hotLaunchesSplitIntoTimelines() throws {
        var b = launch()
        b.events.append(TraceEvent(kind: .instant, category: SpanCategory.harness.rawValue, nameID: b.id("hotLaunch"), beginNanoseconds: 200 * Self.ms, endNanoseconds: 200 * Self.ms))
        b.mark(.willFinishLaunchingBegin, at: 201 * Self.ms)
        b.mark(.willFinishLaunchingEnd, at: 202 * Self.ms)
        b.mark(.didFinishLaunchingBegin, at: 202 * Self.ms)
        b.mark(.didFinishLaunchingEnd, at: 210 * Self.ms)
        b.mark(.firstFrame, at: 211 * Self.ms)
        let timelines = LaunchTimeline.build(from: b.trace())
        #expect(timelines.count == 2)
        #expect(timelines[1].milliseconds(.timeToFirstFrame) == 11)
        #expect(timelines[1].milliseconds(.didFinishLaunching) == 8)
        #expect(timelines[1].milliseconds(.loader) == nil)
        #expect(timelines[0].milliseconds(.timeToFirstFrame) == 121)
    }
}
