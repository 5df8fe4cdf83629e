/// The process exit codes every `launchprof` command uses, and that a report's
/// ``ReportOutcome`` records.
public enum ExitCode: Sendable, Hashable {
    /// Everything measured passed its budget (or no regression was found).
    case success
    /// A gate failed: a budget was exceeded or a regression was found.
    case gateFailed
    /// Bad arguments, unreadable input, a target that could not launch, or failed runs.
    case error
    /// A comparison could not tell.
    case inconclusive
    /// Stopped by a signal: 128 + its number (130 for Ctrl-C's SIGINT).
    case stoppedBySignal(Int32)

    /// The number the process exits with: 0, 1, 2, 3, or 128 + the signal.
    public var rawValue: Int32 {
        switch self {
        case .success: return 0
        case .gateFailed: return 1
        case .error: return 2
        case .inconclusive: return 3
        case .stoppedBySignal(let signal): return 128 + signal
        }
    }

    /// The code a number stands for: 0, 1 and 3 as themselves, above 128 a
    /// signal, anything else an error.
    public init(rawValue: Int32) {
        switch rawValue {
        case 0: self = .success
        case 1: self = .gateFailed
        case 3: self = .inconclusive
        case let code where code > 128: self = .stoppedBySignal(code - 128)
        default: self = .error
        }
    }
}
