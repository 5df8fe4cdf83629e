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
        let base = "\(path).tmp-\(getpid())"
        var attempt = 0
        while true {
            let candidate = attempt == 0 ? base : "\(base)-\(attempt)"
            let fd = open(candidate, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0o644)
            if fd >= 0 { return (candidate, fd) }
            let failure = SystemError.current
            guard failure.code == EEXIST || failure.code == EINTR, attempt < 100 else { throw failure }
            attempt += 1
        }
    }
}

/// `write(2)` under a name `AtomicFile.write` does not shadow.
private func writeSome(_ fd: Int32, _ bytes: UnsafeRawPointer, _ count: Int) -> Int {
    write(fd, bytes, count)
}
