// The process the harness runs in: its output lines, its exit, the files it
// reads. The other files in this folder hold the harness's other system calls,
// one concern a file; logic files need no `#if`.

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
    /// Writes one line to a descriptor, ignoring a closed reader.
    static func writeLine(_ line: String, to fd: Int32) {
        var text = line + "\n"
        text.withUTF8 { bytes in _ = write(fd, bytes.baseAddress, bytes.count) }
    }

    static func fail(_ message: String) -> Never {
        writeLine(message, to: 2)
        exit(2)
    }

    static func exitProcess(_ code: Int32) -> Never {
        exit(code)
    }

}
