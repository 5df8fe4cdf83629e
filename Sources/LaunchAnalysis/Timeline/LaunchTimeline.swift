import LaunchTracing

/// One launch as it happened: its milestones, phases, and the spans on the
/// main thread with what each one cost in CPU and what it waited on.
///
/// Built from a trace by ``LaunchTimeline/build(from:)``; a trace with hot
/// launches yields one timeline per launch.
public struct LaunchTimeline: Sendable, Codable, Equatable {
    /// 0 for the process's launch, 1… for hot launches.
    public var launchIndex: Int
    /// Milestone id → CLOCK_MONOTONIC nanoseconds (the trace's clock).
    public var milestones: [String: UInt64]
    /// Phase → duration in nanoseconds, for the phases whose milestones exist.
    public var phases: [Phase: UInt64]
    /// Spans recorded on the main thread during this launch, in begin order.
    public var mainThreadSpans: [SpanRecord]
    /// Spans on other threads (background work), in begin order.
    public var otherSpans: [SpanRecord]
    /// True when the app was launched into the background.
    public var isBackground: Bool
    /// The spawn time is the OS's estimate, not the parent's clock.
    public var spawnIsApproximate: Bool
    /// Samples the sampler took of the main thread during this launch.
    public var sampleCount: Int
    /// Events lost to full buffers in the whole trace.
    public var droppedEvents: UInt64

    /// The duration of `phase` in milliseconds, if it happened.
    public func milliseconds(_ phase: Phase) -> Double? {
        phases[phase].map { Double($0) / 1_000_000 }
    }
}

/// One span, with its accounting.
public struct SpanRecord: Sendable, Codable, Equatable {
    /// The span's name.
    public var name: String
    /// Its ``SpanCategory``'s name (`io`, `network`, `harness`…).
    public var category: String
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
    public var blockedNanoseconds: [String: UInt64]

    /// Wall time from begin to end, nanoseconds (0 if the end precedes the begin).
    public var wallNanoseconds: UInt64 { endNanoseconds >= beginNanoseconds ? endNanoseconds - beginNanoseconds : 0 }

    /// Identifies the same span across runs: name and call site.
    public var key: String { "\(name)@\(file):\(line)" }
}
