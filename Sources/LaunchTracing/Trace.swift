/// A decoded trace: everything one process recorded, on one time base.
///
/// Timestamps are nanoseconds on CLOCK_MONOTONIC (Linux) or the continuous
/// monotonic clock (Darwin), so they compare directly with a parent process's
/// clock. Names and source files are interned: use ``name(of:)`` and
/// ``file(of:)`` to read them.
///
/// ```swift
/// let trace = try Trace.read(from: "launch.lptrace")
/// for thread in trace.threads where thread.isMain {
///     for event in thread.events { print(trace.name(of: event), event.durationNanoseconds) }
/// }
/// ```
public struct Trace: Sendable, Equatable {
    /// The format version the trace was read from or will be written as.
    public var formatVersion: UInt16 = TraceFormat.version
    /// How timestamps were read.
    public var clockSource: TraceClockSource
    /// The calibration pairs used to convert CPU ticks (start, flush).
    public var calibration: [CalibrationPair]
    /// The traced process.
    public var processID: Int32
    public var executablePath: String
    /// When the process was spawned, if known.
    public var spawn: SpawnTime?
    /// The earliest moment user code ran (`runtimeInit`).
    public var runtimeInitNanoseconds: UInt64
    /// When the trace was taken.
    public var flushNanoseconds: UInt64
    /// Free-form key/value pairs (launch options, variant, harness settings).
    public var metadata: [String: String]
    /// Interned strings; events refer to them by index.
    public var strings: [String]
    /// The `#filePath` of each call site's file: the string id of a `#fileID`
    /// to the string id of its path. Empty in traces written before paths were
    /// recorded.
    public var filePaths: [UInt32: UInt32]
    /// One entry per thread that recorded, in registration order.
    public var threads: [TraceThread]
    /// What the sampler saw the main thread doing, if it ran.
    public var samples: [ThreadSample]

    public init(
        clockSource: TraceClockSource, calibration: [CalibrationPair] = [], processID: Int32 = 0,
        executablePath: String = "", spawn: SpawnTime? = nil, runtimeInitNanoseconds: UInt64 = 0,
        flushNanoseconds: UInt64 = 0, metadata: [String: String] = [:], strings: [String] = [],
        filePaths: [UInt32: UInt32] = [:], threads: [TraceThread] = [], samples: [ThreadSample] = []
    ) {
        self.clockSource = clockSource
        self.calibration = calibration
        self.processID = processID
        self.executablePath = executablePath
        self.spawn = spawn
        self.runtimeInitNanoseconds = runtimeInitNanoseconds
        self.flushNanoseconds = flushNanoseconds
        self.metadata = metadata
        self.strings = strings
        self.filePaths = filePaths
        self.threads = threads
        self.samples = samples
    }

    /// The event's name (for a mark, the milestone id).
    public func name(of event: TraceEvent) -> String { string(event.nameID) }

    /// The event's `#fileID`, such as `MyApp/Settings.swift`.
    public func file(of event: TraceEvent) -> String { string(event.fileID) }

    /// The `#filePath` of the event's call site, when the trace recorded it.
    public func filePath(of event: TraceEvent) -> String? { filePaths[event.fileID].map(string) }

    /// The interned string at `index`, or `""` when out of range.
    public func string(_ index: UInt32) -> String {
        Int(index) < strings.count ? strings[Int(index)] : ""
    }

    /// Events recorded, summed over threads.
    public var eventCount: Int { threads.reduce(0) { $0 + $1.events.count } }

    /// Events dropped because the trace memory was at its cap, summed over threads.
    public var droppedCount: UInt64 { threads.reduce(0) { $0 + $1.dropped } }

    /// Every milestone mark in time order, with the thread it was marked on.
    public var milestones: [(milestone: Milestone, nanoseconds: UInt64)] {
        var marks: [(Milestone, UInt64)] = []
        for thread in threads {
            for event in thread.events where event.kind == .mark {
                marks.append((Milestone(rawValue: event.category), event.beginNanoseconds))
            }
        }
        return marks.sorted { $0.1 < $1.1 }
    }
}

/// When the process was spawned, and how that is known.
public struct SpawnTime: Sendable, Hashable {
    public enum Source: UInt8, Sendable, Hashable {
        /// The parent's clock just before it made the process, from `LAUNCHPROF_SPAWN_NS`: exact.
        case parent = 1
        /// The OS's record of the process start (Linux `/proc/self/stat`): to 10 ms.
        case operatingSystem = 2
    }

    public var nanoseconds: UInt64
    public var source: Source

    /// True unless the time came from the parent.
    public var isApproximate: Bool { source != .parent }

    public init(nanoseconds: UInt64, source: Source) {
        self.nanoseconds = nanoseconds
        self.source = source
    }
}

/// One thread's recorded events.
public struct TraceThread: Sendable, Equatable {
    /// A small stable index: the order in which threads first recorded.
    public var index: UInt32
    /// The OS thread id (Linux `gettid`).
    public var osThreadID: UInt64
    /// The thread's name, if it had one: its name when the trace was taken, or,
    /// for a thread that had exited, the name it had then (Linux; elsewhere only
    /// an exited thread's name is known).
    public var name: String?
    public var isMain: Bool
    /// Events lost because the trace memory was at its cap (``LaunchTracer/bufferLimitBytes``).
    public var dropped: UInt64
    /// Events in the order they began.
    public var events: [TraceEvent]
    /// Resource usage of the spans that were accounted (main thread, under the harness).
    public var usage: [SpanUsage]

    public init(
        index: UInt32, osThreadID: UInt64, name: String? = nil, isMain: Bool, dropped: UInt64 = 0,
        events: [TraceEvent] = [], usage: [SpanUsage] = []
    ) {
        self.index = index
        self.osThreadID = osThreadID
        self.name = name
        self.isMain = isMain
        self.dropped = dropped
        self.events = events
        self.usage = usage
    }
}

/// One recorded span, instant or milestone.
public struct TraceEvent: Sendable, Hashable {
    public enum Kind: UInt8, Sendable, Hashable {
        case span = 1
        case instant = 2
        case mark = 3
    }

    public var kind: Kind
    /// The ``SpanCategory`` raw value, or for a mark the ``Milestone`` raw value.
    public var category: UInt8
    /// True for a span still open when the trace was taken; its end is the flush time.
    public var isOpen: Bool
    public var nameID: UInt32
    public var fileID: UInt32
    public var line: UInt32
    public var beginNanoseconds: UInt64
    /// Equal to ``beginNanoseconds`` for instants and marks.
    public var endNanoseconds: UInt64

    public init(
        kind: Kind, category: UInt8 = 0, isOpen: Bool = false, nameID: UInt32, fileID: UInt32 = 0,
        line: UInt32 = 0, beginNanoseconds: UInt64, endNanoseconds: UInt64
    ) {
        self.kind = kind
        self.category = category
        self.isOpen = isOpen
        self.nameID = nameID
        self.fileID = fileID
        self.line = line
        self.beginNanoseconds = beginNanoseconds
        self.endNanoseconds = endNanoseconds
    }

    public var durationNanoseconds: UInt64 { endNanoseconds.subtractingClamped(beginNanoseconds) }
}

/// What a sampler saw one thread doing at one moment.
public struct ThreadSample: Sendable, Hashable {
    /// What the thread was waiting on, judged from the system call and the kind
    /// of file descriptor it was blocked in.
    public enum Wait: UInt8, Sendable, Hashable, CaseIterable {
        /// Running or runnable: not waiting.
        case none = 0
        case disk = 1
        case network = 2
        case lock = 3
        case sleep = 4
        /// Blocked on something else (a pipe, a poll on several kinds).
        case other = 5
        /// Waiting for a child process (`wait4`, `waitid`) or for one to start.
        case process = 6
        /// Reading or writing a pipe or a local (Unix-domain) socket.
        case ipc = 7
        /// Waiting in an event loop (`poll`, `epoll_wait`, `select`).
        case event = 8

        /// The kind the `samples` section stores: the first six kinds as they
        /// are, the later ones as ``other`` (their exact kind is in the
        /// `sampleDetails` section, which older readers skip).
        var storedInSamples: Wait { rawValue <= Wait.other.rawValue ? self : .other }
    }

    public var nanoseconds: UInt64
    public var osThreadID: UInt64
    /// The scheduler state letter (`R`, `S`, `D`…) as an ASCII code.
    public var state: UInt8
    /// The system call number the thread was in, or -1 when running in user space.
    public var syscall: Int32
    public var wait: Wait
    /// What the thread waited on, when the sampler could name it.
    public var target: WaitTarget?

    public init(
        nanoseconds: UInt64, osThreadID: UInt64, state: UInt8, syscall: Int32, wait: Wait, target: WaitTarget? = nil
    ) {
        self.nanoseconds = nanoseconds
        self.osThreadID = osThreadID
        self.state = state
        self.syscall = syscall
        self.wait = wait
        self.target = target
    }
}
