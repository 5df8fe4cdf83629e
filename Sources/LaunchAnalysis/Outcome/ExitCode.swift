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

extension ExitCode: CustomStringConvertible {
    /// The number, as the shell shows it: `1`.
    public var description: String { String(rawValue) }
}

extension ExitCode: Codable {
    /// True for a number launchprof ends with: 0 to 3, or 128 + a signal (1 to 64).
    public static func isUsed(_ number: Int32) -> Bool { (0...3).contains(number) || (129...192).contains(number) }

    /// Reads the number a report stores (`"exitCode": 1`); a number launchprof never
    /// ends with is refused, not read as an error: what was stored is what is read.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        let number = try container.decode(Int32.self)
        guard Self.isUsed(number) else {
            throw DecodingError.dataCorruptedError(
                in: container,
                debugDescription: "exit code \(number) is none launchprof ends with (0 to 3, or 128 + a signal)")
        }
        self.init(rawValue: number)
    }

    /// Writes the number, as reports always have.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(rawValue)
    }
}

extension ExitCode {
    /// The signals that stop a measurement, comparison or calibration (the report
    /// keeps the runs so far); the command then exits with 128 + the signal's
    /// number. The numbers are the same on Linux and Darwin.
    public enum StopSignal: Int32, Sendable, CaseIterable {
        /// `SIGINT`, Ctrl-C: exit code 130.
        case interrupt = 2
        /// `SIGTERM`, a CI cancelling its job: exit code 143.
        case terminate = 15
        /// `SIGHUP`, the terminal went away: exit code 129.
        case hangUp = 1

        /// `SIGINT`, `SIGTERM`, `SIGHUP`.
        public var name: String {
            switch self {
            case .interrupt: return "SIGINT"
            case .terminate: return "SIGTERM"
            case .hangUp: return "SIGHUP"
            }
        }
    }

    /// The code a stop signal ends a command with (130 for Ctrl-C).
    public static func stopped(by signal: StopSignal) -> ExitCode { .stoppedBySignal(signal.rawValue) }

    /// Every code a `launchprof` command can exit with, in the order help lists
    /// them: 0, 1, 2, 3, then 130, 143 and 129 for the stop signals.
    public static let all: [ExitCode] =
        [.success, .gateFailed, .error, .inconclusive]
        + StopSignal.allCases.map(stopped(by:))

    /// What the code means, in a few words, for help: "passed", "stopped by SIGINT (Ctrl-C)".
    public var meaning: String {
        switch self {
        case .success: return "passed"
        case .gateFailed: return "budget exceeded or regression"
        case .error: return "error"
        case .inconclusive: return "inconclusive"
        case .stoppedBySignal(let number):
            switch StopSignal(rawValue: number) {
            case .interrupt: return "Ctrl-C (SIGINT)"
            case .terminate: return "SIGTERM"
            case .hangUp: return "SIGHUP"
            case nil: return "signal \(number)"
            }
        }
    }

    /// An `EXIT CODES:` help section: `codes` with their meanings (or the ones
    /// given in `meanings`), several to a line, each line at most about 80 columns.
    ///
    /// ```swift
    /// ExitCode.helpSection([.success, .error], meanings: [.success: "rendered"])
    /// // "EXIT CODES: 0 rendered, 2 error"
    /// ```
    public static func helpSection(_ codes: [ExitCode] = all, meanings: [ExitCode: String] = [:]) -> String {
        let items = codes.map { "\($0.rawValue) \(meanings[$0] ?? $0.meaning)" }
        var lines: [String] = []
        var line = "EXIT CODES:"
        for (index, item) in items.enumerated() {
            let piece = item + (index == items.count - 1 ? "" : ",")
            if line.count + 1 + piece.count > 80, line != "EXIT CODES:" {
                lines.append(line)
                line = String(repeating: " ", count: "EXIT CODES:".count)
            }
            line += " " + piece
        }
        lines.append(line)
        return lines.joined(separator: "\n")
    }
}
