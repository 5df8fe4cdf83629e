import Foundation
import LaunchAnalysis
import LaunchTracing
import Testing

/// Timelines built from hand-made traces: exact inputs, exact expectations.
@Suite("Timeline")
struct TimelineTests {
    static let ms = TraceBuilder.ms

    func launch() -> TraceBuilder { TraceBuilder.launch() }

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
        #expect(fetch.blockedNanoseconds[.network] == 39 * Self.ms)
        let index = try #require(spans["Index"])
        #expect(index.selfNanoseconds == 40 * Self.ms)
        #expect(index.selfCPUNanoseconds == 40 * Self.ms)
        #expect(index.blockedNanoseconds.isEmpty)
        #expect(spans["Tokenize"]?.depth == 2)
    }

    @Test func hotLaunchesSplitIntoTimelines() throws {
        var b = launch()
        b.events.append(
            TraceEvent(
                kind: .instant, category: SpanCategory.harness.rawValue,
                nameID: b.id(LaunchContract.hotLaunchInstant.description), beginNanoseconds: 200 * Self.ms,
                endNanoseconds: 200 * Self.ms))
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

    @Test func milestonesAreTypedAndAHotLaunchKnowsWhereItBegan() throws {
        var b = launch()
        b.events.append(
            TraceEvent(
                kind: .instant, category: SpanCategory.harness.rawValue,
                nameID: b.id(LaunchContract.hotLaunchInstant.description), beginNanoseconds: 200 * Self.ms,
                endNanoseconds: 200 * Self.ms))
        b.mark(.willFinishLaunchingBegin, at: 201 * Self.ms)
        b.mark(.firstFrame, at: 211 * Self.ms)
        let timelines = LaunchTimeline.build(from: b.trace())
        #expect(timelines[0].milestones[.firstFrame] == 121 * Self.ms)
        #expect(timelines[0].milestones[.spawn] == 0)
        #expect(timelines[0].hotLaunchBeginNanoseconds == nil)
        #expect(timelines[1].hotLaunchBeginNanoseconds == 200 * Self.ms)
        #expect(timelines[1].milestones[.spawn] == nil)
    }

    @Test func theLaunchOptionsComeFromTheTraceAndSayWhetherItWasInTheBackground() throws {
        var b = launch()
        b.metadata[LaunchContract.MetadataKey.launchOptions] = LaunchOptions(reason: .backgroundFetch).json
        let timeline = try #require(LaunchTimeline.build(from: b.trace()).first)
        #expect(timeline.launchOptions?.reason == .backgroundFetch)
        #expect(timeline.isBackground)
        #expect(timeline.milliseconds(.timeToBackgroundReady) == 120)
        #expect(try #require(LaunchTimeline.build(from: launch().trace()).first).isBackground == false)
    }

    @Test func aTimelineRoundTripsThroughJSON() throws {
        var b = launch()
        b.events.append(
            TraceEvent(
                kind: .instant, category: SpanCategory.harness.rawValue,
                nameID: b.id(LaunchContract.hotLaunchInstant.description), beginNanoseconds: 200 * Self.ms,
                endNanoseconds: 200 * Self.ms))
        b.mark(.willFinishLaunchingBegin, at: 201 * Self.ms)
        for timeline in LaunchTimeline.build(from: b.trace()) {
            let data = try JSONEncoder().encode(timeline)
            #expect(try JSONDecoder().decode(LaunchTimeline.self, from: data) == timeline)
            let object = try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
            let milestones = try #require(object["milestones"] as? [String: Any])
            #expect(milestones.keys.allSatisfy { Milestone(id: $0) != nil })
        }
    }

    @Test func aSchemaOneTimelineWithItsPseudoMilestoneIsRead() throws {
        let json = """
            {"launchIndex": 1, "milestones": {"launch.begin": 200, "firstFrame": 211, "willFinishLaunching.begin": 201},
             "phases": {"timeToFirstFrame": 11}, "mainThreadSpans": [{"name": "Fetch", "category": "network",
             "file": "App/A.swift", "line": 4, "beginNanoseconds": 1, "endNanoseconds": 9, "depth": 0, "isOpen": false,
             "beforeFirstFrame": true, "selfNanoseconds": 8, "blockedNanoseconds": {"network": 6, "unknown": 1}}],
             "otherSpans": [], "isBackground": true, "spawnIsApproximate": false, "sampleCount": 3, "droppedEvents": 0}
            """
        let timeline = try JSONDecoder().decode(LaunchTimeline.self, from: Data(json.utf8))
        #expect(timeline.hotLaunchBeginNanoseconds == 200)
        #expect(timeline.milestones == [.firstFrame: 211, .willFinishLaunchingBegin: 201])
        #expect(timeline.phases == [.timeToFirstFrame: 11])
        #expect(timeline.isBackground)
        #expect(timeline.mainThreadSpans[0].category == .network)
        #expect(timeline.mainThreadSpans[0].blockedNanoseconds == [.network: 6, .unknown: 1])
    }

    @Test func aTraceWithoutLaunchHooksIsOneLaunchOnTheMainThread() throws {
        var b = TraceBuilder()
        b.span("LoadSettings", 8 * Self.ms, 20 * Self.ms, category: .io, cpu: 2 * Self.ms)
        b.mark(.firstFrame, at: 30 * Self.ms)
        let timelines = LaunchTimeline.build(from: b.trace())
        #expect(timelines.count == 1)
        let timeline = try #require(timelines.first)
        #expect(timeline.milliseconds(.timeToFirstFrame) == 30)
        #expect(timeline.milliseconds(.loader) == 5)
        #expect(timeline.mainThreadSpans.map(\.name) == ["LoadSettings"])
        #expect(timeline.mainThreadSpans[0].beforeFirstFrame)
    }
}
