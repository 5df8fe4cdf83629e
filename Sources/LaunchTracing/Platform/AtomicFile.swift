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
        try write(bytes, to: path, in: nil)
    }

    /// Writes `bytes` to `name` in the folder at `folder`, replacing what is
    /// there, through a descriptor of the folder opened with `O_DIRECTORY |
    /// O_NOFOLLOW`: a folder that is a symbolic link is refused (`ELOOP`), and
    /// nothing is written through it. Links before its last component are followed.
    ///
    /// - Throws: the `SystemError` of the call that failed (`open`, `write` or `rename`).
    package static func write(_ bytes: [UInt8], named name: String, inFolder folder: String) throws(SystemError) {
        let directory = open(folder, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC)
        guard directory >= 0 else { throw .current }
        defer { close(directory) }
        try write(bytes, to: name, in: directory)
    }

    /// True when `path` itself is a symbolic link (`lstat`), a dangling one included.
    package static func isSymbolicLink(_ path: String) -> Bool {
        var status = stat()
        return lstat(path, &status) == 0 && status.st_mode & S_IFMT == S_IFLNK
    }

    /// Writes the chunks `produce` hands its `write` to `path`, replacing what
    /// is there, as ``write(_:to:)`` writes one array: a writer that renders a
    /// large file in pieces keeps one piece in memory, not the whole file.
    /// After a chunk fails to be written the others are ignored, and the error is thrown.
    ///
    /// ```swift
    /// try AtomicFile.write(to: "Reports/app.trace.json") { write in
    ///     for chunk in chunks { chunk.withUnsafeBytes(write) }
    /// }
    /// ```
    package static func write(to path: String, _ produce: (_ write: (UnsafeRawBufferPointer) -> Void) -> Void)
        throws(SystemError)
    {
        try write(to: path, in: nil, produce)
    }

    /// Writes the chunks `produce` hands its `write` to `name` in the folder at
    /// `folder`, as ``write(_:named:inFolder:)`` writes one array.
    package static func write(
        named name: String, inFolder folder: String, _ produce: (_ write: (UnsafeRawBufferPointer) -> Void) -> Void
    ) throws(SystemError) {
        let directory = open(folder, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC)
        guard directory >= 0 else { throw .current }
        defer { close(directory) }
        try write(to: name, in: directory, produce)
    }

    /// Writes `bytes` to `path` (relative to `directory` when given).
    private static func write(_ bytes: [UInt8], to path: String, in directory: Int32?) throws(SystemError) {
        try write(to: path, in: directory) { write in bytes.withUnsafeBytes(write) }
    }

    /// Writes what `produce` hands its `write` to `path` (relative to `directory` when given).
    private static func write(
        to path: String, in directory: Int32?, _ produce: (_ write: (UnsafeRawBufferPointer) -> Void) -> Void
    ) throws(SystemError) {
        let staged = try stage(to: path, in: directory, produce)
        try staged.commit()
    }

    /// A whole file written under a temporary name beside its target and not
    /// yet renamed over it (``stage(to:in:_:)``): ``commit()`` puts it in place,
    /// ``discard()`` removes it. A set of files is written whole or not at all
    /// by staging every one before committing any.
    package struct Staged: Sendable {
        /// The temporary name the bytes are under (relative to ``folder`` when given).
        package let temporary: String
        /// The name it is to have (relative to ``folder`` when given).
        package let target: String
        /// The open folder both names are relative to; nil for names relative to the working directory.
        package let folder: Int32?

        /// Renames the temporary file over the target; on failure the temporary file is removed.
        ///
        /// - Throws: the `SystemError` of `rename`.
        package func commit() throws(SystemError) {
            let at = folder ?? AT_FDCWD
            guard renameat(at, temporary, at, target) == 0 else {
                let failure = SystemError.current
                unlinkat(at, temporary, 0)
                throw failure
            }
        }

        /// Removes the temporary file; the target is left as it is.
        package func discard() {
            unlinkat(folder ?? AT_FDCWD, temporary, 0)
        }
    }

    /// Writes what `produce` hands its `write` to a new temporary file beside
    /// `path` (relative to `directory`, an open folder, when given) and closes it,
    /// without renaming it: nothing at `path` changes until the result is
    /// committed. A write or close that fails (a full disk) removes the file and throws.
    ///
    /// - Throws: the `SystemError` of `open`, `write` or `close`.
    package static func stage(
        to path: String, in directory: Int32?, _ produce: (_ write: (UnsafeRawBufferPointer) -> Void) -> Void
    ) throws(SystemError) -> Staged {
        let created = try uniqueName(beside: path) { candidate throws(SystemError) in
            try createNew(candidate, in: directory)
        }
        let (temporary, fd) = (created.path, created.made)
        var failure: SystemError?
        produce { raw in
            var written = 0
            while failure == nil, written < raw.count {
                let result = writeSome(fd, raw.baseAddress! + written, raw.count - written)
                if result < 0 {
                    if errno == EINTR { continue }
                    failure = .current
                } else {
                    written += result
                }
            }
        }
        if close(fd) != 0, failure == nil, errno != EINTR { failure = .current }
        let staged = Staged(temporary: temporary, target: path, folder: directory)
        if let failure {
            staged.discard()
            throw failure
        }
        return staged
    }

    /// True when `name` (relative to `folder` when given) is absent or a regular
    /// file, not followed when a link: what a staged file may be renamed over.
    package static func isAbsentOrRegularFile(_ name: String, in folder: Int32?) -> Bool {
        var status = stat()
        guard fstatat(folder ?? AT_FDCWD, name, &status, AT_SYMLINK_NOFOLLOW) == 0 else { return errno == ENOENT }
        return status.st_mode & S_IFMT == S_IFREG
    }

    /// Keeps the file at `name` (relative to `folder` when given) under a second
    /// name, a hard link `<name>.old.tmp-<pid>…`, so that it can be put back after
    /// `name` is replaced; nil when there is no file there or it cannot be linked.
    package static func keepAside(_ name: String, in folder: Int32?) -> String? {
        let at = folder ?? AT_FDCWD
        guard faccessat(at, name, F_OK, AT_SYMLINK_NOFOLLOW) == 0 else { return nil }
        let made = try? uniqueName(beside: name + ".old") { candidate throws(SystemError) in
            guard linkat(at, name, at, candidate, 0) == 0 else { throw .current }
        }
        return made?.path
    }

    /// Puts back what ``keepAside(_:in:)`` kept under `aside` as `name`, or
    /// removes `name` when nothing was kept (it did not exist before); true when done.
    @discardableResult
    package static func putBack(_ aside: String?, as name: String, in folder: Int32?) -> Bool {
        let at = folder ?? AT_FDCWD
        guard let aside else { return unlinkat(at, name, 0) == 0 }
        return renameat(at, aside, at, name) == 0
    }

    /// Removes the file `name` (relative to `folder` when given), ignoring failure.
    package static func remove(_ name: String, in folder: Int32?) {
        unlinkat(folder ?? AT_FDCWD, name, 0)
    }

    /// Opens the folder at `folder` for ``stage(to:in:_:)``, `O_DIRECTORY |
    /// O_NOFOLLOW`: a folder that is a symbolic link is refused (`ELOOP`). The caller closes it.
    ///
    /// - Throws: the `SystemError` of `open`.
    package static func openFolder(_ folder: String) throws(SystemError) -> Int32 {
        let directory = open(folder, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC)
        guard directory >= 0 else { throw .current }
        return directory
    }

    /// Closes a folder ``openFolder(_:)`` opened.
    package static func closeFolder(_ folder: Int32) {
        close(folder)
    }

    /// Runs `body` holding an exclusive `flock` on the folder at `folder` (the
    /// lock a runs folder's commit takes on its output folder, so report sets and
    /// runs of one name are put in place one launchprof at a time); when the folder
    /// cannot be opened, `body` runs unlocked and its own writes report the problem.
    package static func withFolderLock<Result>(_ folder: String, _ body: () throws -> Result) rethrows -> Result {
        let directory = open(folder, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        guard directory >= 0 else { return try body() }
        defer { close(directory) }
        var locked = flock(directory, LOCK_EX)
        while locked != 0 && errno == EINTR { locked = flock(directory, LOCK_EX) }
        defer { if locked == 0 { flock(directory, LOCK_UN) } }
        return try body()
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
        let (path, fd) = try uniqueName(beside: directory + "/.launchprof-write-test") {
            candidate throws(SystemError) in
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
