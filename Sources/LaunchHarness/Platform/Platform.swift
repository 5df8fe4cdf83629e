// The process the harness runs in: its output lines, its exit, the files it
// reads. The other files in this folder hold the harness's other system calls,
// one concern a file; logic files need no `#if`.

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

/// Namespace for the system calls LaunchHarness wraps.
enum Platform {
    /// Writes `message` on standard error and exits with status 2.
    static func fail(_ message: String) -> Never {
        StandardError.writeLine(message)
        exit(2)
    }

    static func exitProcess(_ code: Int32) -> Never {
        exit(code)
    }

}
