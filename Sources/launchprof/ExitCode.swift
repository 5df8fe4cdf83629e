/// The process exit codes every `launchprof` command uses (DESIGN.md).
enum ExitCode: Equatable {
    /// Everything measured passed its budget, or no gate was asked for.
    case success
    /// A gate failed: a budget was exceeded or a regression was found.
    case gateFailed
    /// Bad arguments, unreadable input, a target that could not launch, or failed runs.
    case error
    /// A comparison could not tell.
    case inconclusive
    /// Interrupted by Ctrl-C (128 + SIGINT).
    case interrupted
    /// Stopped by another signal (SIGTERM, SIGHUP): 128 + its number.
    case stoppedBySignal(Int32)

    /// The number the process exits with.
    var rawValue: Int32 {
        switch self {
        case .success: return 0
        case .gateFailed: return 1
        case .error: return 2
        case .inconclusive: return 3
        case .interrupted: return 130
        case .stoppedBySignal(let signal): return 128 + signal
        }
    }
}
