/// One launch of the measured program, as measured: its raw numbers, kept in the
/// JSON report so that every other format can be regenerated from it.
public struct RunRecord: Sendable, Codable, Equatable {
    /// How the run ended.
    public enum Status: String, Sendable, Codable, Equatable {
        /// Reached readiness (and, for instrumented programs, wrote a valid trace).
        case ok
        /// Exited with a non-zero status before it was ready.
        case failedExit
        /// Killed by a signal (a crash) before it was ready.
        case crashed
        /// Killed at the timeout.
        case timedOut
        /// Its trace could not be read.
        case invalidTrace
        /// It ended without its ready condition holding (an explicit `--ready
        /// first-frame` from a program that never reported one, a `stdout:` line
        /// that never came…).
        case neverReady
        /// launchprof was told to stop while it ran; such runs are not kept.
        case interrupted
    }

    /// 1-based index among counted runs; 0 for warm-ups.
    public var index: Int
    /// True for a warm-up run, which is kept in the report but not counted.
    public var isWarmup: Bool
    /// How the run ended.
    public var status: Status
    /// A one-line explanation for a run that did not succeed, in words (kept for
    /// readers of older reports; ``problemText`` words ``diagnosis`` where there is one).
    public var problem: String?
    /// Why the run did not succeed, as a value (JSON `diagnosis`: a `kind` and its
    /// values); nil for a run that succeeded and in reports written before it was recorded.
    public var diagnosis: LaunchProblem?
    /// The non-zero exit status of a run that ended ``Status/failedExit``.
    public var exitCode: Int32?
    /// The signal that killed a run that ended ``Status/crashed``.
    public var signal: Int32?
    /// spawn → ready, milliseconds, by the parent's clock; for an instrumented
    /// program with the default ready condition, the time to first frame (or,
    /// launched into the background, to the end of the hooks) from the trace
    /// instead, and for a hot launch its time to first frame from the trace.
    public var timeToReadyMs: Double?
    /// spawn → exit, milliseconds, by the parent's clock, when the process ended
    /// by itself (an exit or a crash); nil when launchprof ended it (at ready, at
    /// the timeout) and for hot launches.
    public var timeToExitMs: Double?
    /// The launch's timeline, when the program was instrumented: its phases,
    /// milestones and spans (``milliseconds(_:)`` reads its phases).
    public var timeline: LaunchTimeline?
    /// Where the run's standard output was kept.
    public var stdoutPath: String?
    /// Where the run's standard error was kept.
    public var stderrPath: String?
    /// Where the run's trace was kept, when the program wrote one.
    public var tracePath: String?
    /// Processes the launch left running outside its process group (`setsid`,
    /// a double fork), found by the spawn stamp in their environment and ended.
    public var leftoverProcesses: Int?
    /// True when the program exited by itself but what it left running (its process
    /// group's other members, descendants with its spawn stamp) still ran at the
    /// launch's timeout and was ended there: their work after it is not counted.
    public var childrenCutOff: Bool?
    /// True when launchprof saw the launch ready itself (`--ready port:`, `stdout:`, `file:`),
    /// asked the tracer for its trace, and no answer came within the wait (5 s): the
    /// program was ended without it, so the run has no spans.
    public var flushUnanswered: Bool?
    /// For a `port:N` ready condition, the loopback address that answered
    /// (`127.0.0.1` or `::1`).
    public var readyAddress: String?
    /// The machine key of the machine the run was made on, in a report pooled
    /// from several machines (`launchprof merge`); nil when it is the report's
    /// own (``MeasurementReport/machine(of:)`` reads either).
    public var machine: String?
    /// The session the run was made in, in a report pooled from several sessions
    /// (`launchprof merge`); nil when it is the report's own
    /// (``MeasurementReport/session(of:)`` reads either).
    public var session: String?
    /// The run's spawn on the monotonic and the wall clock, read together, to
    /// place its times in calendar time; nil in reports written before it was
    /// recorded (an exporter then estimates it from the report's `createdAt`).
    public var wallClock: WallClockAnchor?
    /// The user and system CPU time of the launched process tree, from spawn until
    /// it ended (so, for a program ended at its ready condition, until then); nil for
    /// hot launches, which share one process, and in reports written before it was recorded.
    public var cpuTime: CPUTime?
    /// The instructions the launch ran, when it was counted under valgrind
    /// (``InstructionCounts``); nil for timed launches.
    public var instructions: InstructionCounts?

    /// Makes a record; everything not given is unknown (nil or empty).

    public init(
        index: Int, isWarmup: Bool, status: Status, problem: String? = nil, exitCode: Int32? = nil,
        signal: Int32? = nil, timeToReadyMs: Double? = nil, timeToExitMs: Double? = nil,
        timeline: LaunchTimeline? = nil, stdoutPath: String? = nil,
        stderrPath: String? = nil, tracePath: String? = nil
    ) {
        self.index = index
        self.isWarmup = isWarmup
        self.status = status
        self.problem = problem
        self.exitCode = exitCode
        self.signal = signal
        self.timeToReadyMs = timeToReadyMs
        self.timeToExitMs = timeToExitMs
        self.timeline = timeline
        self.stdoutPath = stdoutPath
        self.stderrPath = stderrPath
        self.tracePath = tracePath
    }

    /// Why the run did not succeed, in words: its ``diagnosis`` worded, else the
    /// stored ``problem`` (an older report), else its status.
    public var problemText: String { diagnosis?.text ?? problem ?? status.rawValue }

    /// The value of `phase` in this run, milliseconds, if measured.
    public func milliseconds(_ phase: Phase) -> Double? {
        switch phase {
        case .timeToReady: return timeToReadyMs
        case .timeToExit: return timeToExitMs
        default: return timeline?.milliseconds(phase)
        }
    }
}
