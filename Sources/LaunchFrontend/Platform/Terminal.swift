// The command's terminal: standard error, whether output goes to a terminal, exit.

import LaunchAnalysis
import LaunchReports
import LaunchTracing

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#else
    #error("Unsupported Platform")
#endif

/// The command's terminal: standard output and error, whether output goes to a
/// terminal, exit.
///
/// Everything the command prints goes through here. A failed write to standard
/// output (a full disk, `> /dev/full`) is remembered, and ``exit(_:)`` turns it
/// into exit code 2 with one line on standard error: output that was asked for
/// and lost is an error, not a pass.
enum Terminal {
    /// Writes one line to standard error, its control characters escaped
    /// (``ControlCharacters``): an error's reason may quote the measured program.
    static func standardError(_ line: String) {
        standardErrorRaw(ControlCharacters.escaped(line) + "\n")
    }

    /// Writes text to standard error as it is (progress lines).
    static func standardErrorRaw(_ text: String) {
        var text = text
        text.withUTF8 { bytes in _ = Descriptor.writeAll(2, UnsafeRawBufferPointer(bytes)) }
    }

    /// Writes `text` and a newline (unless `terminator` says otherwise) to standard output.
    /// Text from a measured program cannot start a CI workflow command there
    /// (``WorkflowCommands``); annotations go through ``printWorkflowCommands(_:)``.
    static func print(_ text: String, terminator: String = "\n") {
        standardOutput(WorkflowCommands.neutralized(Array((text + terminator).utf8), as: .text))
    }

    /// Writes CI annotations (`::error file=…::`), the workflow commands launchprof means to issue, as they are.
    static func printWorkflowCommands(_ text: String) {
        standardOutput(Array(text.utf8))
    }

    /// Writes a document (a report, a trace listing, an export) to standard
    /// output: neutralised as `syntax` allows, and under `GITHUB_ACTIONS=true`
    /// between `::stop-commands::TOKEN` and `::TOKEN::`, so nothing in it is
    /// taken for a workflow command.
    static func standardOutputDocument(_ bytes: [UInt8], syntax: WorkflowCommands.Syntax) {
        let document = WorkflowCommands.neutralized(bytes, as: syntax)
        guard ProcessEnvironment.value("GITHUB_ACTIONS") == "true" else { return standardOutput(document) }
        let token = WorkflowCommands.randomToken()
        var wrapped = Array(WorkflowCommands.stopCommands(token: token).utf8) + document
        if wrapped.last != 0x0A { wrapped.append(0x0A) }
        standardOutput(wrapped + Array(WorkflowCommands.resumeCommands(token: token).utf8))
    }

    /// Writes `bytes` to standard output; a failure is kept for ``exit(_:)``, and
    /// nothing more is written after one.
    static func standardOutput(_ bytes: [UInt8]) {
        guard standardOutputFailure == nil else { return }
        standardOutputFailure = bytes.withUnsafeBytes { Descriptor.writeAll(1, $0) }
    }

    /// Why a write to standard output failed, if one did. Standard output is
    /// written from the main thread only.
    nonisolated(unsafe) private static var standardOutputFailure: SystemError?

    /// The one line for a write to standard output that failed after the
    /// command reached `verdict`.
    static func lostOutputLine(_ failure: SystemError, verdict: ExitCode) -> String {
        "launchprof: cannot write to standard output: \(failure); exit 2 for the lost output, where the verdict was exit "
            + "\(verdict.rawValue) (any report written keeps that outcome)"
    }

    /// True when standard output is a terminal.
    static var isInteractive: Bool { isatty(1) == 1 }

    /// True when standard error is a terminal.
    static var isStandardErrorInteractive: Bool { isatty(2) == 1 }

    /// Exits with `code`, or with ``ExitCode/error`` when a write to standard
    /// output failed (saying so on standard error, unless the command already
    /// failed with its own line). That line names the verdict's own exit code,
    /// which the reports written keep as their `outcome`: exit 2 is for the lost
    /// output, not a changed verdict.
    static func exit(_ code: ExitCode) -> Never {
        fflush(nil)
        var code = code
        if let failure = standardOutputFailure, [.success, .gateFailed, .inconclusive].contains(code) {
            standardError(lostOutputLine(failure, verdict: code))
            code = .error
        }
        #if canImport(Glibc)
            Glibc.exit(code.rawValue)
        #else
            Darwin.exit(code.rawValue)
        #endif
    }
}
