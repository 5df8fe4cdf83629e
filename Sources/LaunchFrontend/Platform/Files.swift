// The files the command looks at, and the output directory it prepares.

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

/// The files the command looks at, and the output directory it prepares
/// (reports are written with `AtomicFile`).
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
        do { try AtomicFile.probeWritable(directory: path) } catch { return error.description }
        return nil
    }

    /// Removes the file at `path` if it is a regular file (never a folder, never
    /// through a link: a link there is left alone); returns the problem, or nil
    /// when it was removed or was not there.
    static func removeRegularFile(_ path: String) -> String? {
        var status = stat()
        guard lstat(path, &status) == 0 else { return nil }
        guard status.st_mode & S_IFMT == S_IFREG else { return nil }
        return unlink(path) == 0 || errno == ENOENT ? nil : SystemError.current.description
    }
}
