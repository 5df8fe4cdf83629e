// The system calls more than one module of the profiler makes (LaunchMeasure,
// LaunchExport, LaunchFrontend), each written once here with a Swift name, as
// swift-system wraps each C function once. A module's own Platform home keeps
// the calls only it makes. LaunchTracing keeps its own: it is linked into apps,
// and its calls are the tracer's hot path.

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

/// An open file descriptor, typed: the raw `Int32` only where a C function takes it.
///
/// ```swift
/// SystemCalls.close(FileDescriptor(rawValue: fd))
/// ```
package struct FileDescriptor: RawRepresentable, Hashable, Sendable {
    /// The descriptor number.
    package let rawValue: Int32

    /// Wraps `rawValue`.
    package init(rawValue: Int32) {
        self.rawValue = rawValue
    }
}

/// The shared system-call wrappers.
///
/// ```swift
/// if SystemCalls.exists(path) { SystemCalls.sleep(nanoseconds: 10_000_000) }
/// ```
package enum SystemCalls {
    /// True when something exists at `path`, following links. The corresponding C call is `access(path, F_OK)`.
    package static func exists(_ path: String) -> Bool {
        access(path, F_OK) == 0
    }

    /// True when `path` is a directory, following links (`stat`).
    package static func isDirectory(_ path: String) -> Bool {
        var status = stat()
        return stat(path, &status) == 0 && status.st_mode & S_IFMT == S_IFDIR
    }

    /// Creates `path` and any missing parents (`mkdir -p`), mode 0755.
    package static func makeDirectories(_ path: String) throws(SystemError) {
        var prefix = path.hasPrefix("/") ? "/" : ""
        for component in path.split(separator: "/") {
            prefix += component
            if mkdir(prefix, 0o755) != 0 && errno != EEXIST { throw .current }
            prefix += "/"
        }
    }

    /// Removes the file at `path` if it is a regular file: never a folder, never
    /// through a link (a link there is left alone); nothing to do when nothing is there.
    package static func removeRegularFile(_ path: String) throws(SystemError) {
        var status = stat()
        guard lstat(path, &status) == 0, status.st_mode & S_IFMT == S_IFREG else { return }
        if unlink(path) != 0 && errno != ENOENT { throw .current }
    }

    /// Sleeps at least `nanoseconds`, restarted after signals (`nanosleep`).
    package static func sleep(nanoseconds: UInt64) {
        var remaining = timespec(tv_sec: Int(nanoseconds / 1_000_000_000), tv_nsec: Int(nanoseconds % 1_000_000_000))
        var left = timespec()
        while nanosleep(&remaining, &left) == -1 && errno == EINTR { remaining = left }
    }

    /// Closes `descriptor` (`close`; not retried after EINTR, as Linux has already freed it).
    package static func close(_ descriptor: FileDescriptor) {
        #if canImport(Glibc)
            _ = Glibc.close(descriptor.rawValue)
        #elseif canImport(Musl)
            _ = Musl.close(descriptor.rawValue)
        #else
            _ = Darwin.close(descriptor.rawValue)
        #endif
    }
}
