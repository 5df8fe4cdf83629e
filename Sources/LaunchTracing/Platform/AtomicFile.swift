// Whole files written through a temporary file renamed over the target.

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#else
#error("Unsupported Platform")
#endif

/// Writes a whole file so that a reader sees the old contents or the new, never
/// half of them.
///
/// The bytes go to a new temporary file beside `path` (`<path>.tmp-<pid>`),
/// created with `O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC` so that a file or
/// symbolic link planted under that name is never written through (another
/// name is tried instead), then `rename`d over `path`. Writes are retried after
/// `EINTR`; on any failure the temporary file is removed. Mode 0644 (less the umask).
///
/// ```swift
/// try AtomicFile.write(Array("{}".utf8), to: "Reports/app.json")
/// ```
package enum AtomicFile {
    /// Writes `bytes` to `path`, replacing what is there.
    ///
    /// - Throws: the `SystemError` of the call that failed (`open`, `write` or `rename`).
    package static func write(_ bytes: [UInt8], to path: String) throws(SystemError) {
        let (temporary, fd) = try createTemporary(beside: path)
        let failure: SystemError? = bytes.withUnsafeBytes { raw in
            var written = 0
            while written < raw.count {
                let result = writeSome(fd, raw.baseAddress! + written, raw.count - written)
                if result < 0 {
                    if errno == EINTR { continue }
                    return .current
                }
                written += result
            }
            return nil
        }
        close(fd)
        if let failure {
            unlink(temporary)
            throw failure
        }
        guard rename(temporary, path) == 0 else {
            let failure = SystemError.current
            unlink(temporary)
            throw failure
        }
    }

    /// Creates a new, empty temporary file beside `path`; a name that is taken
    /// (a leftover, another writer's, a planted link) is passed over for the next.
    private static func createTemporary(beside path: String) throws(SystemError) -> (path: String, fd: Int32) {
        let created = try uniqueName(beside: path) { candidate throws(SystemError) in try createNew(candidate) }
        return (created.path, created.made)
    }

    /// Creates a new, empty file at `path` (in `directory` when given, an open
    /// directory descriptor `path` is relative to) for writing, mode 0644 less the
    /// umask: `O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC`, so anything already
    /// there — a file, a directory, a symbolic link — is an error (`EEXIST`),
    /// never written through. Returns the descriptor; the caller closes it.
    ///
    /// - Throws: the `SystemError` of `open` (`openat`).
    package static func createNew(_ path: String, in directory: Int32? = nil) throws(SystemError) -> Int32 {
        let fd = openat(directory ?? AT_FDCWD, path, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0o644)
        guard fd >= 0 else { throw .current }
        return fd
    }

    /// Makes something new under a name of its own beside `path`:
    /// `<path>.tmp-<pid>`, else `<path>.tmp-<pid>-1`, `-2`… `make` creates it
    /// exclusively and throws `EEXIST` when the name is taken (a leftover of an
    /// earlier process with this pid, another writer's, a planted link), and the
    /// next name is tried; any other error, or 100 names taken, is thrown.
    ///
    /// ```swift
    /// let (path, fd) = try AtomicFile.uniqueName(beside: "Reports/app.json") { try AtomicFile.createNew($0) }
    /// ```
    package static func uniqueName<Made>(
        beside path: String, _ make: (String) throws(SystemError) -> Made
    ) throws(SystemError) -> (path: String, made: Made) {
        let base = "\(path).tmp-\(getpid())"
        var attempt = 0
        while true {
            let candidate = attempt == 0 ? base : "\(base)-\(attempt)"
            do {
                return (candidate, try make(candidate))
            } catch {
                guard error.code == EEXIST || error.code == EINTR, attempt < 100 else { throw error }
            }
            attempt += 1
        }
    }

    /// Proves that files can be created in `directory`: creates a new file there
    /// (`.launchprof-write-test.tmp-<pid>`, exclusively, never through a link) and
    /// removes it.
    ///
    /// - Throws: the `SystemError` of `open`.
    package static func probeWritable(directory: String) throws(SystemError) {
        let (path, fd) = try uniqueName(beside: directory + "/.launchprof-write-test") { candidate throws(SystemError) in
            try createNew(candidate)
        }
        close(fd)
        unlink(path)
    }
}

/// `write(2)` under a name `AtomicFile.write` does not shadow.
private func writeSome(_ fd: Int32, _ bytes: UnsafeRawPointer, _ count: Int) -> Int {
    write(fd, bytes, count)
}
