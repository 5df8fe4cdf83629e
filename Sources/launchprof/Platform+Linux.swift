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

    /// Writes text to standard error as it is (progress lines).
    static func standardErrorRaw(_ text: String) {
        var text = text
        text.withUTF8 { bytes in _ = write(2, bytes.baseAddress, bytes.count) }
    }

    /// True when standard output is a terminal.
    static var isInteractive: Bool { isatty(1) == 1 }

    /// True when standard error is a terminal.
    static var isStandardErrorInteractive: Bool { isatty(2) == 1 }

    static func environment(_ name: String) -> String? {
        getenv(name).map { String(cString: $0) }
    }

    static func exit(_ code: ExitCode) -> Never {
        fflush(nil)
        #if canImport(Glibc)
        Glibc.exit(code.rawValue)
        #else
        Darwin.exit(code.rawValue)
        #endif
    }
}

/// This executable's path, to launch itself as the sample app.
enum SelfExecutable {
    static var path: String {
        #if os(Linux)
        var buffer = [CChar](repeating: 0, count: 4096)
        let count = readlink("/proc/self/exe", &buffer, buffer.count - 1)
        if count > 0 { return String(decoding: buffer[0..<count].map { UInt8(bitPattern: $0) }, as: UTF8.self) }
        #endif
        return CommandLine.arguments[0]
    }
}
