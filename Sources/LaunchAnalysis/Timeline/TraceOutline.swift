import LaunchTracing

/// One trace file laid out for reading: its threads, each with its spans
/// (nested, in the order they began) and instants, and its milestones, every
/// time an offset from one origin.
///
/// The origin is the process's spawn when the trace knows it, else the moment
/// its runtime started. Spans are the ``SpanRecord``s the reports use, built by
/// the same code, so `depth`, self time and blocked time agree with them.
///
/// ```swift
/// let outline = TraceOutline(try Trace.read(from: "launch.lptrace"))
/// for thread in outline.threads {
///     for span in thread.spans { print(span.depth, span.name, outline.offset(span.beginNanoseconds)) }
/// }
/// ```
public struct TraceOutline: Sendable, Equatable {
    /// One thread that recorded.
    public struct Thread: Sendable, Equatable {
        /// The tracer's index: the order in which threads first recorded.
        public var index: Int
        /// The OS thread id (Linux `gettid`).
        public var osThreadID: UInt64
        public var name: String?
        public var isMain: Bool
        /// Events lost because the thread's buffer was full.
        public var dropped: UInt64
        /// Its spans in begin order; a parent comes before its children.
        public var spans: [SpanRecord]
        /// Its instants, in time order.
        public var instants: [Instant]
    }

    /// A point event a thread recorded (`LaunchTracer.instant`).
    public struct Instant: Sendable, Equatable {
        public var name: String
        public var category: SpanCategory
        /// The call site's `#fileID` and line.
        public var file: String
        public var line: Int
        public var nanoseconds: UInt64
    }

    /// Time 0, nanoseconds on the trace's clock.
    public var originNanoseconds: UInt64
    /// What time 0 is: `spawn` or `runtimeInit`.
    public var origin: Milestone
    /// Every milestone in time order (the first of each, and the spawn when known).
    public var milestones: [(milestone: Milestone, nanoseconds: UInt64)]
    public var threads: [Thread]

    public init(_ trace: Trace) {
        origin = trace.spawn == nil ? .runtimeInit : .spawn
        originNanoseconds = trace.spawn?.nanoseconds ?? trace.runtimeInitNanoseconds
        var marks: [(milestone: Milestone, nanoseconds: UInt64)] = []
        if let spawn = trace.spawn { marks.append((.spawn, spawn.nanoseconds)) }
        marks.append((.runtimeInit, trace.runtimeInitNanoseconds))
        marks += trace.milestones.map { (milestone: $0.milestone, nanoseconds: $0.nanoseconds) }
        milestones = marks.sorted { $0.nanoseconds < $1.nanoseconds }
        let firstFrame = milestones.first { $0.milestone == .firstFrame }?.nanoseconds ?? .max
        let mainOSThread = trace.threads.first(where: \.isMain)?.osThreadID
        threads = trace.threads.map { thread in
            let accountant = SpanAccountant(
                trace: trace, thread: thread,
                samples: trace.samples.filter {
                    $0.osThreadID == thread.osThreadID && thread.osThreadID == mainOSThread
                })
            let instants = thread.events.filter { $0.kind == .instant }.map {
                Instant(
                    name: trace.name(of: $0), category: SpanCategory(rawValue: $0.category), file: trace.file(of: $0),
                    line: Int($0.line), nanoseconds: $0.beginNanoseconds)
            }
            return Thread(
                index: Int(thread.index), osThreadID: thread.osThreadID, name: thread.name, isMain: thread.isMain,
                dropped: thread.dropped, spans: accountant.records(from: 0, to: .max, firstFrame: firstFrame),
                instants: instants)
        }
    }

    /// `nanoseconds` as milliseconds after the origin (negative before it).
    public func offset(_ nanoseconds: UInt64) -> Double {
        nanoseconds >= originNanoseconds
            ? Double(nanoseconds - originNanoseconds) / 1e6 : -Double(originNanoseconds - nanoseconds) / 1e6
    }

    public static func == (lhs: TraceOutline, rhs: TraceOutline) -> Bool {
        lhs.originNanoseconds == rhs.originNanoseconds && lhs.origin == rhs.origin && lhs.threads == rhs.threads
            && lhs.milestones.map(\.milestone) == rhs.milestones.map(\.milestone)
            && lhs.milestones.map(\.nanoseconds) == rhs.milestones.map(\.nanoseconds)
    }
}
