import _LaunchTracingShims

/// What a thread consumed over a span: CPU time, context switches, page faults.
///
/// Wall time much larger than CPU time, with voluntary context switches, means
/// the thread was blocked; the harness's sampler says on what.
public struct ResourceUsage: Sendable, Hashable {
    /// User plus system CPU time of the thread, nanoseconds.
    public var cpuNanoseconds: UInt64
    /// The thread gave up the CPU (it blocked). The C field is `ru_nvcsw`.
    public var voluntaryContextSwitches: UInt64
    /// The thread was preempted. The C field is `ru_nivcsw`.
    public var involuntaryContextSwitches: UInt64
    /// Page faults served without I/O (`ru_minflt`).
    public var minorFaults: UInt64
    /// Page faults that needed I/O (`ru_majflt`).
    public var majorFaults: UInt64

    public init(
        cpuNanoseconds: UInt64 = 0, voluntaryContextSwitches: UInt64 = 0,
        involuntaryContextSwitches: UInt64 = 0, minorFaults: UInt64 = 0, majorFaults: UInt64 = 0
    ) {
        self.cpuNanoseconds = cpuNanoseconds
        self.voluntaryContextSwitches = voluntaryContextSwitches
        self.involuntaryContextSwitches = involuntaryContextSwitches
        self.minorFaults = minorFaults
        self.majorFaults = majorFaults
    }

    /// The calling thread's usage so far (`getrusage(RUSAGE_THREAD)`).
    public static func currentThread() -> ResourceUsage {
        Platform.threadUsage()
    }

    /// The difference `self - earlier`, clamped at zero.
    public func since(_ earlier: ResourceUsage) -> ResourceUsage {
        ResourceUsage(
            cpuNanoseconds: cpuNanoseconds.subtractingClamped(earlier.cpuNanoseconds),
            voluntaryContextSwitches: voluntaryContextSwitches.subtractingClamped(earlier.voluntaryContextSwitches),
            involuntaryContextSwitches: involuntaryContextSwitches.subtractingClamped(earlier.involuntaryContextSwitches),
            minorFaults: minorFaults.subtractingClamped(earlier.minorFaults),
            majorFaults: majorFaults.subtractingClamped(earlier.majorFaults))
    }
}

/// The resource usage of one span, by its index in its thread's events.
public struct SpanUsage: Sendable, Hashable {
    public var eventIndex: UInt32
    public var usage: ResourceUsage

    public init(eventIndex: UInt32, usage: ResourceUsage) {
        self.eventIndex = eventIndex
        self.usage = usage
    }
}

/// The slow path for spans begun on a thread with accounting on: one
/// `getrusage` at begin and at end. Only threads the harness opts in pay it.
@usableFromInline
enum ResourceAccounting {
    private struct State {
        var open: [UInt: (thread: UInt64, usage: ResourceUsage)] = [:]
        var closed: [UInt: ResourceUsage] = [:]
    }

    private static let lock = Lock()
    nonisolated(unsafe) private static var state = State()

    /// Turns accounting on or off for spans begun on the calling thread.
    static func setEnabledForCurrentThread(_ enabled: Bool) {
        let buffer = lp_current_buffer() ?? ThreadRegistry.registerCurrentThread()
        buffer.pointee.accounting = enabled ? 1 : 0
    }

    @usableFromInline @inline(never)
    static func spanBegan(_ event: UnsafeMutablePointer<lp_event>) {
        let usage = Platform.threadUsage()
        let thread = lp_thread_id()
        lock.withLock { state.open[UInt(bitPattern: event)] = (thread, usage) }
        event.pointee.kind |= UInt8(LP_EVENT_FLAG_USAGE)
        // The begin tick is taken again so the getrusage call is outside the span.
        event.pointee.begin = lp_now_ticks()
    }

    @usableFromInline @inline(never)
    static func spanEnded(_ event: UnsafeMutablePointer<lp_event>) {
        let usage = Platform.threadUsage()
        let thread = lp_thread_id()
        lock.withLock {
            guard let began = state.open.removeValue(forKey: UInt(bitPattern: event)),
                  began.thread == thread else { return }
            state.closed[UInt(bitPattern: event)] = usage.since(began.usage)
        }
    }

    /// The usage of every closed, accounted span, by event address.
    static func closedSpans() -> [UInt: ResourceUsage] {
        lock.withLock { state.closed }
    }

    static func reset() {
        lock.withLock { state = State() }
    }
}
