import LaunchAnalysis
import LaunchTracing

/// What happened in one launch, with CLOCK_MONOTONIC nanosecond timestamps.
///
/// All times share the tracer's time base, so they can be set against the
/// events in the child's own trace. `spawnNanoseconds` is the value the child
/// received as `LAUNCHPROF_SPAWN_NS`.
///
/// ```swift
/// let outcome = try Launcher.launch(request)
/// if let ready = outcome.readyNanoseconds {
///     print("ready after \(Double(ready - outcome.spawnNanoseconds) / 1e6) ms")
/// }
/// ```
public struct LaunchResult: Sendable, Equatable {
    /// One line the program wrote to the ready pipe (fd 3), and when it arrived.
    public struct ReadyLine: Sendable, Equatable {
        /// The line without its newline, such as `firstFrame 12345678901`, `fullyDrawn` or `done`.
        public var text: String
        /// When the launcher read it (CLOCK_MONOTONIC, parent side).
        public var nanoseconds: UInt64

        /// Makes a ready line.
        public init(text: String, nanoseconds: UInt64) {
            self.text = text
            self.nanoseconds = nanoseconds
        }

        /// The word of the contract the line carries, with the time the program
        /// says it reached it; nil for any other line.
        public var announcement: LaunchContract.ReadyAnnouncement? { .init(line: text) }
    }

    /// The process id the child had (also its process group id).
    public var processID: Int32
    /// CLOCK_MONOTONIC read immediately before the child was made.
    public var spawnNanoseconds: UInt64
    /// When the ready condition became true; nil when it never did (a timeout,
    /// or an exit before a `stdout`/`port`/`file` condition held).
    ///
    /// For `.exit` it is the exit time. For `.firstFrame`/`.fullyDrawn`, a program
    /// that exits without writing the line is ready at its exit, and
    /// `readyIsExitFallback` is true; the caller decides what that means.
    public var readyNanoseconds: UInt64?
    /// True when `readyNanoseconds` is the exit time standing in for a
    /// `firstFrame`/`fullyDrawn` line that never came.
    public var readyIsExitFallback: Bool
    /// When the process exited (noticed through a pidfd the moment it happened),
    /// whether by itself or because it was killed. `Launcher.launch` always sets it.
    public var exitNanoseconds: UInt64?
    /// How the process ended.
    public var termination: Termination
    /// The file holding the child's stdout.
    public var stdoutPath: String
    /// The file holding the child's stderr.
    public var stderrPath: String
    /// Every line written to the ready pipe, in order of arrival.
    public var readyLines: [ReadyLine]
    /// For a `port:N` condition, the loopback address that answered: `127.0.0.1` or `::1`.
    public var readyAddress: String?
    /// The user and system CPU time of the launched process tree, from its spawn
    /// until it ended (`wait4`'s resource usage of the process, of the descendants
    /// it reaped, and of the orphans left in its process group, which launchprof reaps).
    public var cpuTime: CPUTime?
    /// True when the program exited by itself but what it left running (the rest of
    /// its group, descendants with its spawn stamp) was still running at the launch's
    /// timeout, and was ended there: their work after that is not counted.
    public var childrenCutOff: Bool
    /// True when launchprof, having seen the launch ready itself, asked the tracer for its
    /// trace (it had said `listening`) and no `flushed` came within
    /// ``Launcher/flushWaitSeconds``: the program was ended without the trace it asked for.
    public var flushUnanswered = false

    /// ``spawnNanoseconds`` as the child's `LAUNCHPROF_SPAWN_NS` holds it: 20 digits,
    /// zero-padded, so that the environment's size is the same at every launch.
    public var spawnStamp: String { Self.spawnStamp(spawnNanoseconds) }

    /// `nanoseconds` as a launch's `LAUNCHPROF_SPAWN_NS` holds it: 20 digits, zero-padded.
    public static func spawnStamp(_ nanoseconds: UInt64) -> String {
        let digits = String(nanoseconds)
        return String(repeating: "0", count: max(0, 20 - digits.count)) + digits
    }

    /// Makes an outcome; the launcher does this, tests and callers may too.
    public init(
        processID: Int32, spawnNanoseconds: UInt64, readyNanoseconds: UInt64?, readyIsExitFallback: Bool = false,
        exitNanoseconds: UInt64?, termination: Termination, stdoutPath: String, stderrPath: String,
        readyLines: [ReadyLine] = [], readyAddress: String? = nil, cpuTime: CPUTime? = nil, childrenCutOff: Bool = false
    ) {
        self.processID = processID
        self.spawnNanoseconds = spawnNanoseconds
        self.readyNanoseconds = readyNanoseconds
        self.readyIsExitFallback = readyIsExitFallback
        self.exitNanoseconds = exitNanoseconds
        self.termination = termination
        self.stdoutPath = stdoutPath
        self.stderrPath = stderrPath
        self.readyLines = readyLines
        self.readyAddress = readyAddress
        self.cpuTime = cpuTime
        self.childrenCutOff = childrenCutOff
    }

}
