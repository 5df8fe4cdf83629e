// The command's terminal: standard error, whether output goes to a terminal, exit.

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#else
#error("Unsupported Platform")
#endif
import LaunchAnalysis

/// The command's terminal: standard error, whether output goes to a terminal, exit.
enum Terminal {
    /// Writes one line to standard error.
    static func standardError(_ line: String) {
        standardErrorRaw(line + "\n")
    }

    /// Writes text to standard error as it is (progress lines).
    static func standardErrorRaw(_ text: String) {
        var text = text
        text.withUTF8 { bytes in _ = write(2, bytes.baseAddress, bytes.count) }
    }

    /// True when standard output is a terminal.
    static var isInteractive: Bool { isatty(1) == 1 }

    /// True when standard error is a terminal.
    static var isStandardErrorInteractive: Bool { isatty(2) == 1 }

    /// Flushes standard output and exits with `code`.
    static func exit(_ code: ExitCode) -> Never {
        fflush(nil)
        #if canImport(Glibc)
        Glibc.exit(code.rawValue)
        #else
        Darwin.exit(code.rawValue)
        #endif
    }
}

