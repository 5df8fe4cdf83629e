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
            involuntaryContextSwitches: involuntaryContextSwitches.subtractingClamped(
                earlier.involuntaryContextSwitches),
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
    /// True when a boundary of the span was attributed from the thread's readings
    /// around it rather than read, the thread left the CPU between those readings,
    /// and the boundary came 3 µs or more after the reading before it, so the wait
    /// may lie on either side of the boundary: its values are estimates, off by at
    /// most 50 µs of CPU, run-queue or off-CPU time (see ``ResourceAccounting``);
    /// its counters (switches, faults) count from the reading before. (Attributed
    /// across readings between which the thread stayed on the CPU, or less than 3 µs
    /// after its reading, a boundary is exact and not marked.)
    public var isEstimated: Bool

    public init(eventIndex: UInt32, usage: ResourceUsage, isEstimated: Bool = false) {
        self.eventIndex = eventIndex
        self.usage = usage
        self.isEstimated = isEstimated
    }
}

/// Per-span resource accounting, for threads the harness (or a traced launch's
/// main thread) opts in.
///
/// A span boundary on such a thread reads the thread's usage only when the last
/// reading is older than ``granularityNanoseconds`` (40 µs) and either the gaps
/// between the thread's consecutive accounted boundaries since then that could have
/// held a wait (each `LP_OFF_CPU_GAP_NS`, 3 µs, or longer) add up to
/// `LP_ACCOUNTING_WAITABLE_NS` (10 µs), or the last reading is
/// `LP_ACCOUNTING_LONGEST_NS` (0.5 ms) old: then the thread CPU clock (one system
/// call), and `getrusage` and the thread's `schedstat` only when the thread left the
/// CPU since the last reading. Where a switch watch lends the thread's switch count
/// (`lp_account_count_switches`: LaunchHarness's sampler on the main thread), a reading
/// that finds the count where the last reading of the CPU clock left it, less than 2 ms
/// later, takes no system call: the thread has not left the CPU, so its CPU clock is
/// the last reading's plus the wall time since. Any other boundary costs a few compares and a store on
/// the hot path, and is attributed at flush from the readings around it: the thread is
/// taken to have run from the reading before it (it was running at both), which is
/// exact unless it waited in between. A wait lies within one gap between boundaries,
/// so an attributed boundary misses at most the granularity after its reading and
/// less than 10 µs of waitable gaps past it: off by at most 50 µs. Where the thread
/// did leave the CPU between the readings around the boundary, and the boundary came
/// 3 µs or more after the reading before it, the span is marked estimated
/// (``SpanUsage/isEstimated``).
@usableFromInline
enum ResourceAccounting {
    /// How long after a reading a boundary is attributed rather than read.
    static var granularityNanoseconds: UInt64 { UInt64(LP_ACCOUNTING_GRANULARITY_NS) }

    /// False in a launch whose instructions launchprof counts (under valgrind,
    /// `LAUNCHPROF_COUNT_INSTRUCTIONS=1`: see ``InstructionMarks``): accounting stays
    /// off there. A reading is taken when the last one is older than a wall-clock
    /// granularity, and valgrind runs a program 20–50× slower, at a speed that
    /// follows the machine's load: the readings, and so the count, would change
    /// from one identical launch to the next (1.1 % between three counted launches
    /// of 10,000 spans), and there would be 20–50× as many as in a launch not
    /// counted. The times they read would be valgrind's, too. (The sampler is
    /// off in a counted launch for the same reason.)
    static var isAvailable: Bool { lp_instruction_marks_enabled() == 0 }

    /// Turns accounting on or off for spans begun on the calling thread; the next
    /// accounted boundary takes a reading. On stays off where accounting is not
    /// available (``isAvailable``).
    static func setEnabledForCurrentThread(_ enabled: Bool) {
        let buffer = lp_current_buffer() ?? ThreadRegistry.registerCurrentThread()
        buffer.pointee.accounting = enabled && isAvailable ? 1 : 0
        if enabled { lp_account_prepare_switch_counts() }
        lp_account_read_next(buffer)
    }

    /// System calls the calling thread made for accounting since the last reset.
    static func systemCallsOfCurrentThread() -> UInt64 {
        guard let buffer = lp_current_buffer() else { return 0 }
        return lp_account_system_calls(buffer)
    }

    /// Readings the calling thread took without a system call since the last reset.
    static func readingsWithoutSystemCallOfCurrentThread() -> UInt64 {
        guard let buffer = lp_current_buffer() else { return 0 }
        return lp_account_quiet_readings(buffer)
    }

    /// A closed accounted span: its event's index and its boundaries, in ticks and on the
    /// trace's time base (the tick converted, before an end is kept from preceding its begin).
    struct AccountedSpan {
        var index: UInt32
        var begin: UInt64
        var end: UInt64
        var beginNanoseconds: UInt64
        var endNanoseconds: UInt64
    }

    /// One thread's readings, and the usage they give at any tick.
    struct Readings {
        private let readings: [lp_reading]
        private let converter: TickConverter

        /// The readings `buffer`'s thread has published so far (it may be recording:
        /// each one is copied whole).
        init(_ buffer: UnsafeMutablePointer<lp_thread_buffer>, converter: TickConverter) {
            let count = lp_account_reading_count(buffer)
            readings =
                count == 0
                ? []
                : [lp_reading](unsafeUninitializedCapacity: count) { into, initialized in
                    initialized = lp_account_copy_readings(buffer, into.baseAddress, count)
                }
            self.converter = converter
        }

        /// `readings`, oldest first: a recording's readings taken elsewhere (tests replay fixed ones).
        init(_ readings: [lp_reading], converter: TickConverter) {
            self.readings = readings
            self.converter = converter
        }

        var isEmpty: Bool { readings.isEmpty }

        /// The usage of each accounted span and whether a boundary of it was attributed; none
        /// for a span no reading precedes. One pass: a span's boundaries are looked up from
        /// where the previous span's were (begins rise; ends mostly do), not searched for.
        func usage(of spans: [AccountedSpan]) -> [SpanUsage] {
            spans.withUnsafeBufferPointer { spans in
                readings.withUnsafeBufferPointer { readings in
                    [SpanUsage](unsafeUninitializedCapacity: spans.count) { result, written in
                        written = usage(of: spans, in: readings, into: result.baseAddress!)
                    }
                }
            }
        }

        /// ``usage(of:)`` into `result` (room for a usage a span); returns how many it wrote.
        private func usage(
            of spans: UnsafeBufferPointer<AccountedSpan>, in readings: UnsafeBufferPointer<lp_reading>,
            into result: UnsafeMutablePointer<SpanUsage>
        ) -> Int {
            // Readings in tick order (a thread's are) make the first reading after a tick one index,
            // wherever the search starts; otherwise every lookup is the binary search over all.
            var ordered = true
            for index in readings.indices.dropFirst() where readings[index - 1].tick > readings[index].tick {
                ordered = false
                break
            }
            var written = 0
            var afterBegin = 0
            var afterEnd = 0
            // The last boundary converted: a span's begin is mostly attributed from the reading
            // at the end of the span before, whose tick is then not converted again.
            var known = (tick: spans.first?.begin ?? 0, nanoseconds: spans.first?.beginNanoseconds ?? 0)
            for span in spans {
                afterBegin = Self.firstReading(after: span.begin, in: readings, from: ordered ? afterBegin : 0)
                guard afterBegin > 0 else { continue }
                afterEnd = Self.firstReading(after: span.end, in: readings, from: ordered ? afterEnd : 0)
                guard afterEnd > 0 else { continue }  // an end before every reading (a clock set back)
                let start = state(
                    at: span.begin, nanoseconds: span.beginNanoseconds, before: afterBegin, in: readings, known: known)
                known = (span.begin, span.beginNanoseconds)
                let finish = state(
                    at: span.end, nanoseconds: span.endNanoseconds, before: afterEnd, in: readings, known: known)
                known = (span.end, span.endNanoseconds)
                // Attribution moves CPU and run-queue time, never counters: those are the readings'.
                let first = readings.baseAddress! + (afterBegin - 1)
                let last = readings.baseAddress! + (afterEnd - 1)
                let knowsRunQueue = first.pointee.run_queue_ns != UInt64.max && last.pointee.run_queue_ns != UInt64.max
                (result + written).initialize(
                    to: SpanUsage(
                        eventIndex: span.index,
                        usage: ResourceUsage(
                            cpuNanoseconds: finish.cpu.subtractingClamped(start.cpu),
                            voluntaryContextSwitches: last.pointee.voluntary_switches.subtractingClamped(
                                first.pointee.voluntary_switches),
                            involuntaryContextSwitches: last.pointee.involuntary_switches
                                .subtractingClamped(first.pointee.involuntary_switches),
                            minorFaults: last.pointee.minor_faults.subtractingClamped(first.pointee.minor_faults),
                            majorFaults: last.pointee.major_faults.subtractingClamped(first.pointee.major_faults),
                            runQueueNanoseconds: knowsRunQueue
                                ? finish.runQueue.subtractingClamped(start.runQueue) : nil),
                        isEstimated: !(start.read && finish.read)))
                written += 1
            }
            return written
        }

        /// The index of the first reading after `tick` (`readings.count` when none is): a few
        /// steps from `hint` when the answer is at or just past it, else a binary search of
        /// the side of `hint` it is on (of all the readings for `hint` 0).
        @inline(__always)
        private static func firstReading(
            after tick: UInt64, in readings: UnsafeBufferPointer<lp_reading>, from hint: Int
        ) -> Int {
            var low = 0
            var high = readings.count
            if hint > 0, readings[hint - 1].tick > tick {
                high = hint - 1
            } else if hint > 0 {
                low = hint
                for _ in 0..<4 {
                    guard low < high, readings[low].tick <= tick else { return low }
                    low += 1
                }
            }
            while low < high {
                let middle = (low + high) / 2
                if readings[middle].tick <= tick { low = middle + 1 } else { high = middle }
            }
            return low
        }

        /// The thread's usage at `tick` (`nanoseconds` on the trace's time base; `known`, a tick
        /// already converted), the reading before it at `after - 1`: the reading taken there, or attributed from the reading
        /// before it (the thread ran from there on, for as long as the next reading's CPU and
        /// run-queue time allow). `read` is false for an attribution across readings between
        /// which the thread left the CPU (it may have done so before `tick` or after), unless
        /// `tick` came less than `LP_OFF_CPU_GAP_NS` after the reading (no wait fits in
        /// between, as the tracer judges a reading): only then is it an estimate.
        @inline(__always)
        private func state(
            at tick: UInt64, nanoseconds: UInt64, before after: Int, in readings: UnsafeBufferPointer<lp_reading>,
            known: (tick: UInt64, nanoseconds: UInt64)
        ) -> (cpu: UInt64, runQueue: UInt64, read: Bool) {
            let before = readings.baseAddress! + (after - 1)
            var cpu = before.pointee.cpu_ns
            var runQueue = before.pointee.run_queue_ns  // UInt64.max: unknown
            if before.pointee.tick == tick { return (cpu, runQueue, true) }
            let reading =
                before.pointee.tick == known.tick ? known.nanoseconds : converter.nanoseconds(before.pointee.tick)
            let elapsed = nanoseconds.subtractingClamped(reading)
            let settled = elapsed < UInt64(LP_OFF_CPU_GAP_NS)
            if after < readings.count {
                let after = readings.baseAddress! + after
                // The thread never left the CPU between the two readings: running all along is what happened.
                let exact =
                    (after.pointee.wall_ns &- before.pointee.wall_ns)
                    .subtractingClamped(after.pointee.cpu_ns &- before.pointee.cpu_ns) < UInt64(LP_OFF_CPU_GAP_NS)
                let ran = after.pointee.cpu_ns.subtractingClamped(cpu)
                let queued =
                    runQueue != UInt64.max && after.pointee.run_queue_ns != UInt64.max
                    ? after.pointee.run_queue_ns.subtractingClamped(runQueue) : 0
                let busy = min(elapsed, ran &+ queued)
                cpu &+= min(busy, ran)
                if runQueue != UInt64.max { runQueue &+= busy - min(busy, ran) }
                return (cpu, runQueue, exact || settled)
            }
            cpu &+= elapsed  // (wrapping: a damaged file's readings may hold anything)
            return (cpu, runQueue, settled)
        }
    }
}
