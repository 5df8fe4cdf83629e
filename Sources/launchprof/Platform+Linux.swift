// Every platform-specific call the launchprof command makes, in one place.

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#else
#error("Unsupported Platform")
#endif

/// The command's terminal: standard error, colour, exit.
enum Terminal {
    /// Writes one line to standard error.
    static func standardError(_ line: String) {
        var text = line + "\n"
        text.withUTF8 { bytes in _ = write(2, bytes.baseAddress, bytes.count) }
    }

    /// True when standard output is a terminal.
    static var isInteractive: Bool { isatty(1) == 1 }

    static func exit(_ code: ExitCode) -> Never {
        fflush(nil)
        #if canImport(Glibc)
        Glibc.exit(code.rawValue)
        #else
        Darwin.exit(code.rawValue)
        #endif
    }
}
