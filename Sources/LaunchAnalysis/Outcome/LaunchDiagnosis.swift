/// What went wrong with one launch, as a value with its data: the session
/// classifies a launch into one of these and words it in one place
/// (``LaunchDiagnosis/text``), and a run's status follows from it (``status``).
/// A run record keeps it beside its prose (``RunRecord/diagnosis``), so renderers
/// word the value and a reader of the JSON can switch on its `kind`.
///
/// ```swift
/// let diagnosis = LaunchDiagnosis.failedExit(code: 3)
/// diagnosis.status   // .failedExit
/// diagnosis.text     // "exited with code 3"
/// ```
public enum LaunchDiagnosis: Sendable, Equatable {
    /// It ended (exit 0, or stopped at ready) before `ready` held.
    case exitedBeforeReady(ReadyCondition)
    /// It exited without writing the `ready` word, and the default ready point does not accept its exit instead.
    case exitedWithoutAnnouncing(ReadyCondition)
    /// launchprof was told to stop during the launch and ended it.
    case stopped
    /// It exited by itself with a code other than 0.
    case failedExit(code: Int32)
    /// A signal launchprof did not send ended it (`signalName`: its name without `SIG`, where known).
    case crashed(signal: Int32, signalName: String?)
    /// It was not ready within `seconds`; `silentStdout` when a `stdout:REGEX`
    /// condition saw nothing at all on a stdout that was not a terminal (it may buffer).
    case timedOut(seconds: Double, silentStdout: Bool)
    /// Its trace could not be read, or disagrees with launchprof's own clock: `reason`.
    case invalidTrace(reason: String)
    /// An instrumented launch into the background, measured to its first frame: it draws none.
    case backgroundDrawsNoFrame
    /// An instrumented app that exited without drawing its first frame.
    case noFirstFrame
    /// An instrumented app measured to `fullyDrawn` that never reported it.
    case neverFullyDrawn
    /// Hot mode on a program whose trace holds no launch hooks.
    case hotModeNeedsHooks
    /// Hot mode on a program that ran its hooks once, not `launches` more times.
    case hotLaunchesNotRun(launches: Int)
    /// A launch counted under valgrind wrote no count that could be read: `reason` (valgrind's
    /// own failure, with what to do, when its log names one).
    case countsMissing(reason: String)

    /// The status a run with this diagnosis gets.
    public var status: RunRecord.Status {
        switch self {
        case .exitedBeforeReady, .exitedWithoutAnnouncing, .backgroundDrawsNoFrame, .noFirstFrame, .neverFullyDrawn:
            return .neverReady
        case .stopped: return .interrupted
        case .failedExit, .countsMissing: return .failedExit
        case .crashed: return .crashed
        case .timedOut: return .timedOut
        case .invalidTrace, .hotModeNeedsHooks, .hotLaunchesNotRun: return .invalidTrace
        }
    }
}

/// A diagnosis and the last line the program wrote on stderr, when the
/// diagnosis comes from how the program ended (a line there often says why).
public struct LaunchProblem: Sendable, Equatable, Codable {
    /// What went wrong.
    public var diagnosis: LaunchDiagnosis
    /// The last non-empty line of the program's stderr (at most 200 characters), if any.
    public var stderrLine: String?
    /// True for a launch counted under valgrind (`--metric instructions`): its
    /// ending is valgrind's, and a timeout is the counted launches' longer one.
    public var isCounted: Bool

    /// Makes a problem.
    public init(_ diagnosis: LaunchDiagnosis, stderrLine: String? = nil, isCounted: Bool = false) {
        self.diagnosis = diagnosis
        self.stderrLine = stderrLine
        self.isCounted = isCounted
    }
}
