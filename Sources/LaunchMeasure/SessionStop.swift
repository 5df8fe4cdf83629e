import LaunchAnalysis

/// Why a session ended before its last launch, as a value with its data; its
/// words are made in one place (``text``) and kept as the collected launches'
/// `stopReason`.
///
/// ```swift
/// SessionStop.couldNotStart(.run(2, of: 10), .spawnFailed(path: "/app", code: 13)).text
/// // "run 2 of 10 could not be started: cannot start '/app': permission denied"
/// ```
public enum SessionStop: Sendable, Equatable {
    /// Which launch of a session.
    public enum Launch: Sendable, Equatable, CustomStringConvertible {
        /// A warm-up, counted from 1.
        case warmup(Int)
        /// A counted run, from 1, of the session's `of`.
        case run(Int, of: Int)
        /// The one process of hot mode.
        case hot
        /// A launch counted under valgrind, from 1 (`--metric instructions`).
        case counted(Int)

        /// "warm-up 1", "run 2 of 10", "the hot launch", "counted launch 3".
        public var description: String {
            switch self {
            case .warmup(let number): return "warm-up \(number)"
            case .run(let number, let total): return "run \(number) of \(total)"
            case .hot: return "the hot launch"
            case .counted(let number): return "counted launch \(number)"
            }
        }
    }

    /// A launch could not be started after others were measured.
    case couldNotStart(Launch, LaunchError)
    /// A warm-up failed (`problem`: its run's problem): every run would fail the same way.
    case warmupFailed(Int, problem: String)
    /// `--prepare` failed before a launch.
    case prepareFailed(LaunchError, before: Launch)
    /// `--cleanup` failed at the end (every launch was made).
    case cleanupFailed(LaunchError)
    /// The program could not be made ready to count under valgrind (``InstructionCounter/prepare(program:in:)``).
    case cannotCount(LaunchError)

    /// The sentence the collected launches' `stopReason` holds.
    public var text: String {
        switch self {
        case .couldNotStart(let launch, let error):
            return "\(launch) could not be started: \(error)"
        case .warmupFailed(let number, let problem):
            return "warm-up \(number) failed (\(problem)); no counted run was made (--ignore-failures goes on regardless)"
        case .prepareFailed(let failure, let launch):
            return "\(failure) (before \(launch))"
        case .cleanupFailed(let failure):
            return failure.description
        case .cannotCount(let error):
            return "instructions could not be counted: \(error)"
        }
    }
}
