import LaunchTracing

/// One launch as it happened: its milestones, phases, and the spans on the
/// main thread with what each one cost in CPU and what it waited on.
///
/// Built from a trace by ``LaunchTimeline/build(from:)``; a trace with hot
/// launches yields one timeline per launch.
public struct LaunchTimeline: Sendable, Codable, Equatable {
    /// 0 for the process's launch, 1… for hot launches.
    public var launchIndex: Int
    /// When each milestone of this launch happened, CLOCK_MONOTONIC nanoseconds (the trace's clock).
    public var milestones: [Milestone: UInt64]
    /// Where a hot launch began (its `hotLaunch` instant, or its
    /// `willFinishLaunching.begin`); nil for the process's own launch, which
    /// begins at ``Milestone/spawn``.
    public var hotLaunchBeginNanoseconds: UInt64?
    /// Phase → duration in nanoseconds, for the phases whose milestones exist.
    public var phases: [Phase: UInt64]
    /// Spans recorded on the main thread during this launch, in begin order.
    public var mainThreadSpans: [SpanRecord]
    /// Spans on other threads (background work), in begin order.
    public var otherSpans: [SpanRecord]
    /// The launch options the harness recorded, if it recorded any.
    public var launchOptions: LaunchOptions?
    /// True when the app was launched into the background.
    public var isBackground: Bool { launchOptions?.isBackground ?? false }
    /// True when LaunchHarness ran the launch: it marks the launch hooks' milestones,
    /// which a program that links the tracer alone does not have.
    public var usesHarness: Bool {
        launchOptions != nil || milestones[.willFinishLaunchingBegin] != nil
            || milestones[.didFinishLaunchingBegin] != nil
    }
    /// The spawn time is the OS's estimate, not the parent's clock.
    public var spawnIsApproximate: Bool
    /// Samples the sampler took of the main thread during this launch.
    public var sampleCount: Int
    /// Events lost to the tracer's memory cap in the whole trace.
    public var droppedEvents: UInt64
    /// The `#filePath` of each call site's `#fileID` in the trace: where the
    /// file was when the app was built. Empty for traces and reports made
    /// before paths were recorded.
    public var filePaths: [String: String] = [:]
    /// The threads that recorded spans in this launch, main thread first
    /// (empty in reports written before threads were recorded).
    public var threads: [TimelineThread] = []
    /// The synchronous file writes and flushes the sampler caught the main
    /// thread in before the first frame (empty when none, and in reports
    /// written before they were recorded).
    public var mainThreadFileWrites: [FileWrite] = []
    /// What the sampler saw the main thread doing between spans, gap by gap:
    /// empty when no sample fell outside a span; nil when the sampler did not
    /// read the main thread in this launch, and in reports written before these
    /// were recorded.
    public var mainThreadGaps: [SampledGap]? = nil

    /// The duration of `phase` in milliseconds, if it happened.
    public func milliseconds(_ phase: Phase) -> Double? {
        phases[phase].map { Double($0) / 1_000_000 }
    }
}

/// One span, with its accounting.
public struct SpanRecord: Sendable, Codable, Equatable {
    /// The span's name.
    public var name: String
    /// What kind of work its author says it does.
    public var category: SpanCategory
    /// The `#fileID` of the call site.
    public var file: String
    /// The line of the call site.
    public var line: Int
    /// When it began, CLOCK_MONOTONIC nanoseconds.
    public var beginNanoseconds: UInt64
    /// When it ended, CLOCK_MONOTONIC nanoseconds (for an open span, when the trace was written).
    public var endNanoseconds: UInt64
    /// Nesting depth on its thread (0 outermost).
    public var depth: Int
    /// True for a span that had not ended when the trace was written.
    public var isOpen: Bool
    /// Before the first frame (or before launch ended, in the background).
    public var beforeFirstFrame: Bool
    /// Wall time minus the wall time of spans nested in it, nanoseconds.
    public var selfNanoseconds: UInt64
    /// The thread's CPU time over the span, minus nested spans', when accounted.
    public var selfCPUNanoseconds: UInt64?
    /// Voluntary context switches over the span (nested spans included), when accounted.
    public var voluntaryContextSwitches: UInt64?
    /// Involuntary context switches over the span (nested spans included), when accounted.
    public var involuntaryContextSwitches: UInt64?
    /// Major page faults over the span (nested spans included), when accounted.
    public var majorFaults: UInt64?
    /// Self time spent waiting, by what it waited on (sampler), nanoseconds.
    public var blockedNanoseconds: [WaitKind: UInt64]
    /// Self time runnable but waiting for a CPU (run-queue wait), nanoseconds, when
    /// known: CPU contention, not blocking.
    public var runQueueNanoseconds: UInt64?
    /// Self time off the CPU by the thread's own doing — wall minus CPU minus
    /// run-queue wait — nanoseconds, when accounted: the time blocked, whether or
    /// not a sample caught it.
    public var offCPUNanoseconds: UInt64?
    /// The sampler's samples in the span's self time, by what they waited on
    /// (only kinds seen); nil when none waited.
    public var waitSamples: [WaitKind: Int]?
    /// What the span waited on, as the sampler named it, the most sampled first (at most 4).
    public var waitTargets: [WaitTarget]?
    /// The OS thread id of the thread it ran on (see ``LaunchTimeline/threads``);
    /// nil in reports written before threads were recorded.
    public var threadID: UInt64?
    /// True when the span's CPU, run-queue and off-CPU times (and its counters)
    /// are estimates: a boundary of it, or of a span nested in it, was attributed
    /// from the tracer's readings of the thread's usage around it rather than read,
    /// and the thread may have waited before it (off by at most 50 µs of time). Nil
    /// when they were read at its boundaries or attributed exactly, or not accounted.
    public var usageIsEstimated: Bool? = nil

    /// Wall time from begin to end, nanoseconds (0 if the end precedes the begin).
    public var wallNanoseconds: UInt64 { endNanoseconds.subtractingClamped(beginNanoseconds) }

    /// Identifies the same span across runs: name and call site.
    public var key: String { Self.key(name: name, file: file, line: line) }

    /// The key of a span named `name` at `file:line` (`name@file:line`): the one
    /// form every index of spans, findings and file writes by call site uses.
    public static func key(name: String, file: String, line: Int) -> String { "\(name)@\(file):\(line)" }
}

extension LaunchTimeline {
    private enum CodingKeys: String, CodingKey {
        case launchIndex, milestones, hotLaunchBeginNanoseconds, phases, mainThreadSpans, otherSpans
        case launchOptions, isBackground, spawnIsApproximate, sampleCount, droppedEvents, filePaths, threads,
            mainThreadFileWrites, mainThreadGaps
    }

    /// Decodes a timeline; a schema-1 report's string options and its
    /// `launch.begin` pseudo-milestone are read too.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        launchIndex = try container.decode(Int.self, forKey: .launchIndex)
        var milestones: [Milestone: UInt64] = [:]
        var hotBegin = try container.decodeIfPresent(UInt64.self, forKey: .hotLaunchBeginNanoseconds)
        for (id, nanoseconds) in try container.decode([String: UInt64].self, forKey: .milestones) {
            if id == "launch.begin" {
                hotBegin = hotBegin ?? nanoseconds
            } else if let milestone = Milestone(id: id) {
                milestones[milestone] = nanoseconds
            } else {
                throw DecodingError.dataCorruptedError(
                    forKey: .milestones, in: container, debugDescription: "unknown milestone '\(id)'")
            }
        }
        self.milestones = milestones
        hotLaunchBeginNanoseconds = hotBegin
        phases = try container.decode([Phase: UInt64].self, forKey: .phases)
        // A span table from schema 3 on, an array of span objects before.
        mainThreadSpans = try container.decode(SpanTable.self, forKey: .mainThreadSpans).spans
        otherSpans = try container.decode(SpanTable.self, forKey: .otherSpans).spans
        if let options = try container.decodeIfPresent(LaunchOptions.self, forKey: .launchOptions) {
            launchOptions = options
        } else if try container.decodeIfPresent(Bool.self, forKey: .isBackground) == true {
            launchOptions = LaunchOptions(isBackground: true)
        } else {
            launchOptions = nil
        }
        spawnIsApproximate = try container.decode(Bool.self, forKey: .spawnIsApproximate)
        sampleCount = try container.decode(Int.self, forKey: .sampleCount)
        droppedEvents = try container.decode(UInt64.self, forKey: .droppedEvents)
        filePaths = try container.decodeIfPresent([String: String].self, forKey: .filePaths) ?? [:]
        threads = try container.decodeIfPresent([TimelineThread].self, forKey: .threads) ?? []
        mainThreadFileWrites = try container.decodeIfPresent([FileWrite].self, forKey: .mainThreadFileWrites) ?? []
        mainThreadGaps = try container.decodeIfPresent([SampledGap].self, forKey: .mainThreadGaps)
    }

    /// Encodes the timeline, with ``isBackground`` spelled out for readers of the JSON.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(launchIndex, forKey: .launchIndex)
        try container.encode(milestones, forKey: .milestones)
        try container.encodeIfPresent(hotLaunchBeginNanoseconds, forKey: .hotLaunchBeginNanoseconds)
        try container.encode(phases, forKey: .phases)
        try container.encode(SpanTable(mainThreadSpans), forKey: .mainThreadSpans)
        try container.encode(SpanTable(otherSpans), forKey: .otherSpans)
        try container.encodeIfPresent(launchOptions, forKey: .launchOptions)
        try container.encode(isBackground, forKey: .isBackground)
        try container.encode(spawnIsApproximate, forKey: .spawnIsApproximate)
        try container.encode(sampleCount, forKey: .sampleCount)
        try container.encode(droppedEvents, forKey: .droppedEvents)
        if !filePaths.isEmpty { try container.encode(filePaths, forKey: .filePaths) }
        if !threads.isEmpty { try container.encode(threads, forKey: .threads) }
        if !mainThreadFileWrites.isEmpty { try container.encode(mainThreadFileWrites, forKey: .mainThreadFileWrites) }
        try container.encodeIfPresent(mainThreadGaps, forKey: .mainThreadGaps)
    }
}
