import _LaunchTracingShims

/// What a thread consumed over a span: CPU time, time waiting for a CPU, context
/// switches, page faults.
///
/// Wall time minus CPU time minus run-queue wait is time the thread was off the
/// CPU by its own doing: blocked. The harness's sampler says on what.
public struct ResourceUsage: Sendable, Hashable {
    /// The thread's CPU time, nanoseconds: exact from the thread CPU clock
    /// (`CLOCK_THREAD_CPUTIME_ID`) on Linux; `getrusage`'s user plus system time elsewhere.
    public var cpuNanoseconds: UInt64
    /// The thread gave up the CPU (it blocked). The C field is `ru_nvcsw`.
    public var voluntaryContextSwitches: UInt64
    /// The thread was preempted. The C field is `ru_nivcsw`.
    public var involuntaryContextSwitches: UInt64
    /// Page faults served without I/O (`ru_minflt`).
    public var minorFaults: UInt64
    /// Page faults that needed I/O (`ru_majflt`).
    public var majorFaults: UInt64
    /// Time the thread was runnable but waiting for a CPU (the run-queue wait of
    /// `/proc/self/task/<tid>/schedstat`), nanoseconds; nil where it is not known.
    /// It is CPU contention, not blocking.
    public var runQueueNanoseconds: UInt64?

    public init(
        cpuNanoseconds: UInt64 = 0, voluntaryContextSwitches: UInt64 = 0,
        involuntaryContextSwitches: UInt64 = 0, minorFaults: UInt64 = 0, majorFaults: UInt64 = 0,
        runQueueNanoseconds: UInt64? = nil
    ) {
        self.runQueueNanoseconds = runQueueNanoseconds
        self.cpuNanoseconds = cpuNanoseconds
        self.voluntaryContextSwitches = voluntaryContextSwitches
        self.involuntaryContextSwitches = involuntaryContextSwitches
        self.minorFaults = minorFaults
        self.majorFaults = majorFaults
    }

    /// The calling thread's usage so far (the thread CPU clock and `getrusage(RUSAGE_THREAD)`;
    /// no run-queue wait).
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
            majorFaults: majorFaults.subtractingClamped(earlier.majorFaults),
            runQueueNanoseconds: runQueueNanoseconds.flatMap { now in
                earlier.runQueueNanoseconds.map { now.subtractingClamped($0) }
            })
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

/// The slow path for spans begun on a thread with accounting on: at begin and at
/// end, the thread CPU clock, one `getrusage`, and a read of the thread's
/// `schedstat` (kept open, one descriptor per accounted thread) when the thread
/// was switched out since the last one. Only threads the harness opts in pay it.
@usableFromInline
enum ResourceAccounting {
    private struct State {
        var open: [UInt: (thread: UInt64, usage: ResourceUsage)] = [:]
        var closed: [UInt: ResourceUsage] = [:]
        /// Each accounted thread's open `schedstat` (-1: none), and its last reading:
        /// the thread's context switches when it was read, and its run-queue wait.
        var scheduleStatistics: [UInt64: (fd: Int32, switches: UInt64, runQueue: UInt64?)] = [:]

        /// `thread`'s usage now. The run-queue wait only grows after the thread
        /// was switched out (it waits on a run queue to run again), so while its
        /// context switches have not changed the last reading still holds and
        /// `schedstat` is not read again: a span that ran undisturbed pays no read.
        mutating func usage(of thread: UInt64) -> ResourceUsage {
            var usage = Platform.threadUsage()
            let switches = usage.voluntaryContextSwitches &+ usage.involuntaryContextSwitches
            if let last = scheduleStatistics[thread], last.switches == switches, last.runQueue != nil {
                usage.runQueueNanoseconds = last.runQueue
                return usage
            }
            let fd = scheduleStatistics[thread]?.fd ?? Platform.openScheduleStatistics(thread: thread)
            usage.runQueueNanoseconds = Platform.runQueueWait(fd)
            scheduleStatistics[thread] = (fd, switches, usage.runQueueNanoseconds)
            return usage
        }
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
        let thread = lp_thread_id()
        lock.withLock { state.open[UInt(bitPattern: event)] = (thread, state.usage(of: thread)) }
        event.pointee.kind |= UInt8(LP_EVENT_FLAG_USAGE)
        // The begin tick is taken again so the getrusage call is outside the span.
        event.pointee.begin = lp_now_ticks()
    }

    @usableFromInline @inline(never)
    static func spanEnded(_ event: UnsafeMutablePointer<lp_event>) {
        let thread = lp_thread_id()
        lock.withLock {
            let usage = state.usage(of: thread)
            guard let began = state.open.removeValue(forKey: UInt(bitPattern: event)),
                  began.thread == thread else { return }
            state.closed[UInt(bitPattern: event)] = usage.since(began.usage)
        }
    }

    /// The usage of every closed, accounted span, by event address.
    static func closedSpans() -> [UInt: ResourceUsage] {
        lock.withLock { state.closed }
    }

    /// Forgets every span; keeps the threads' open `schedstat` descriptors.
    static func reset() {
        lock.withLock {
            let descriptors = state.scheduleStatistics
            state = State()
            state.scheduleStatistics = descriptors
        }
    }
}
