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
import LaunchTracing

/// The command's terminal: standard error, colour, exit.
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

extension Terminal {
    /// SIGINT's number (Ctrl-C).
    static let interruptSignal = SIGINT
}

/// The files the command writes: its output directory and its reports.
enum Files {
    /// True when something exists at `path`.
    static func exists(_ path: String) -> Bool { access(path, F_OK) == 0 }

    /// True when `path` is a directory.
    static func isDirectory(_ path: String) -> Bool {
        var status = stat()
        return stat(path, &status) == 0 && status.st_mode & S_IFMT == S_IFDIR
    }

    /// Creates `path` and its parents if needed and proves it writable; returns the problem, or nil.
    static func prepareWritableDirectory(_ path: String) -> String? {
        if exists(path) {
            if !isDirectory(path) { return "it is a file, not a directory" }
        } else {
            var prefix = path.hasPrefix("/") ? "/" : ""
            for component in path.split(separator: "/") {
                prefix += component
                if mkdir(prefix, 0o755) != 0 && errno != EEXIST { return SystemError.current.description }
                prefix += "/"
            }
        }
        let probe = path + "/.launchprof-write-test-\(getpid())"
        let fd = open(probe, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o644)
        guard fd >= 0 else { return SystemError.current.description }
        close(fd)
        unlink(probe)
        return nil
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
