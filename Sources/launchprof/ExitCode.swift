/// The process exit codes every `launchprof` command uses (DESIGN.md).
enum ExitCode: Int32 {
    /// Everything measured passed its budget, or no gate was asked for.
    case success = 0
    /// A gate failed: a budget was exceeded or a regression was found.
    case gateFailed = 1
    /// Bad arguments, unreadable input, or a target that could not launch.
    case error = 2
    /// A comparison could not tell.
    case inconclusive = 3
    /// Interrupted by Ctrl-C (128 + SIGINT).
    case interrupted = 130
}
