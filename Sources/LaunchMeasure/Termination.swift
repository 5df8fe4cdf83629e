/// How a launched program ended.
///
/// `.stoppedAtReady` is the normal end of a launch measured to a ready point
/// other than exit: the launcher ended the program on purpose, so it is not a
/// failure. A program that exits by itself after becoming ready (an instrumented
/// app that writes `done` and exits) reports its real status instead.
///
/// ```swift
/// switch outcome.termination {
/// case .exited(0), .stoppedAtReady: break
/// default: print("launch failed: \(outcome.termination)")
/// }
/// ```
public enum Termination: Sendable, Equatable, CustomStringConvertible {
    /// The program exited by itself with this status (0–255).
    case exited(code: Int32)
    /// A signal the launcher did not send ended the program (a crash: SIGSEGV is 11, SIGABRT 6 on Linux).
    case signaled(signal: Int32)
    /// The program was not ready within the timeout; its process group was killed.
    case timedOut
    /// The launcher ended the program's process group after it became ready.
    case stoppedAtReady
    /// The launcher ended the program's process group because launchprof itself
    /// was told to stop (a second Ctrl-C, SIGTERM or SIGHUP).
    case interrupted

    /// "exited with code 3", "killed by signal 11 (SIGSEGV)", "timed out", "stopped at ready", "interrupted".
    public var description: String {
        switch self {
        case .exited(let code):
            return "exited with code \(code)"
        case .signaled(let signal):
            return "killed by signal \(signal)" + (Platform.signalName(signal).map { " (SIG\($0))" } ?? "")
        case .timedOut:
            return "timed out"
        case .stoppedAtReady:
            return "stopped at ready"
        case .interrupted:
            return "interrupted"
        }
    }
}
