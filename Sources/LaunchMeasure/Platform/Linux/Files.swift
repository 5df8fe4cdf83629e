// Files: what a path names, directories, the launch's output files, the kernel's
// sysctl files; directories used through descriptors (openat), so that no link is followed.

import LaunchTracing

#if canImport(Glibc)
    import Glibc
#else
    // Launching relies on Linux: pidfd, /proc/sys/vm/drop_caches, PR_SET_PDEATHSIG.
    #error("The launcher runs on Linux only: see LaunchMeasure.docc/PortingTheLauncher.md")
#endif

extension Platform {
    /// What a path names, following symbolic links.
    enum FileKind { case regular, directory, other }

    /// The kind of file at `path`, or nil when nothing is there (`stat`).
    static func fileKind(_ path: String) -> FileKind? {
        var status = stat()
        guard stat(path, &status) == 0 else { return nil }
        switch status.st_mode & S_IFMT {
        case S_IFREG: return .regular
        case S_IFDIR: return .directory
        default: return .other
        }
    }

    /// True when this process may execute `path` (`access(X_OK)`).
    static func isExecutable(_ path: String) -> Bool {
        access(path, X_OK) == 0
    }

    /// True when `path` names anything, a dangling symbolic link included (`lstat`).
    static func entryExists(_ path: String) -> Bool {
        var status = stat()
        return lstat(path, &status) == 0
    }

    /// The size of the file at `path` in bytes, or nil when it cannot be read (`stat`).
    static func fileSize(_ path: String) -> Int? {
        var status = stat()
        return stat(path, &status) == 0 ? Int(status.st_size) : nil
    }

    /// The current working directory (`getcwd`).
    static var currentDirectory: String? {
        var buffer = [CChar](repeating: 0, count: Int(PATH_MAX) + 1)
        guard getcwd(&buffer, buffer.count) != nil else { return nil }
        return buffer.withUnsafeBytes { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) }
    }

    /// Writes `text` to an existing file, as the kernel's sysctl files want (one `write`).
    static func writeExistingFile(_ path: String, _ text: String) throws(SystemError) {
        let fd = open(path, O_WRONLY | O_CLOEXEC)
        guard fd >= 0 else { throw .current }
        defer { Glibc.close(fd) }
        var copy = text
        let written = copy.withUTF8 { write(fd, $0.baseAddress, $0.count) }
        guard written == text.utf8.count else { throw written < 0 ? .current : SystemError(code: EIO) }
    }

    /// Flushes every file system's dirty pages to disk (`sync`).
    static func syncFileSystems() {
        sync()
    }

    /// The last `maxBytes` of a file as text, or nil when it is empty, unreadable
    /// or not a regular file. A launch's output file may have been replaced by the
    /// program: a link is not followed, and a FIFO or device is not read.
    static func tail(of path: String, maxBytes: Int) -> String? {
        let fd = open(path, O_RDONLY | O_CLOEXEC | O_NOFOLLOW | O_NONBLOCK)
        guard fd >= 0 else { return nil }
        defer { Glibc.close(fd) }
        var status = stat()
        guard fstat(fd, &status) == 0, status.st_mode & S_IFMT == S_IFREG else { return nil }
        let size = lseek(fd, 0, SEEK_END)
        guard size > 0 else { return nil }
        let start = max(0, Int(size) - maxBytes)
        lseek(fd, off_t(start), SEEK_SET)
        var bytes = [UInt8](repeating: 0, count: Int(size) - start)
        let count = bytes.withUnsafeMutableBytes { Glibc.read(fd, $0.baseAddress, $0.count) }
        guard count > 0 else { return nil }
        return String(decoding: bytes[0..<count], as: UTF8.self)
    }

    /// Removes the file or empty directory at `path` (`remove`), if there is one.
    static func remove(_ path: String) {
        _ = Glibc.remove(path)
    }
}

extension Platform {
    /// What a directory entry is, the entry itself (a link is not followed).
    enum EntryKind { case directory, symbolicLink, other }

    /// The kind of the entry `name` in the open directory `directory`, or nil
    /// when there is none (`fstatat` with `AT_SYMLINK_NOFOLLOW`).
    static func entryKind(_ name: String, in directory: Int32) -> EntryKind? {
        var status = stat()
        guard fstatat(directory, name, &status, AT_SYMLINK_NOFOLLOW) == 0 else { return nil }
        switch status.st_mode & S_IFMT {
        case S_IFDIR: return .directory
        case S_IFLNK: return .symbolicLink
        default: return .other
        }
    }

    /// True when `path` itself is a symbolic link (`lstat`).
    static func isSymbolicLink(_ path: String) -> Bool {
        var status = stat()
        return lstat(path, &status) == 0 && status.st_mode & S_IFMT == S_IFLNK
    }

    /// Opens the directory at `path` for use with the `*at` calls; its last
    /// component must not be a link (`O_DIRECTORY | O_NOFOLLOW`), close-on-exec.
    static func openDirectoryNoFollow(_ path: String) throws(SystemError) -> Int32 {
        let fd = open(path, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC)
        guard fd >= 0 else { throw .current }
        return fd
    }

    /// Opens the directory at `path` for use with the `*at` calls, following
    /// links on the way (a path the user gave): `O_DIRECTORY`, close-on-exec.
    static func openDirectory(_ path: String) throws(SystemError) -> Int32 {
        let fd = open(path, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        guard fd >= 0 else { throw .current }
        return fd
    }

    /// Makes the new directory `name` in `directory` (it must not exist: `EEXIST`
    /// otherwise, a link included) and opens it without following a link
    /// (`mkdirat`, then `openat` with `O_DIRECTORY | O_NOFOLLOW`), mode 0755.
    static func makeDirectory(_ name: String, in directory: Int32) throws(SystemError) -> Int32 {
        guard mkdirat(directory, name, 0o755) == 0 else { throw .current }
        let fd = openat(directory, name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC)
        guard fd >= 0 else { throw .current }
        return fd
    }

    /// Renames `from` to `to`, both in `directory`. With `exchange`, the two
    /// entries swap atomically (`renameat2` with `RENAME_EXCHANGE`); otherwise `to`
    /// must not exist (`RENAME_NOREPLACE`). Where the kernel or the file system has
    /// no `renameat2`, throws `EINVAL` for an exchange and falls back to `renameat`.
    static func rename(_ from: String, to: String, in directory: Int32, exchange: Bool) throws(SystemError) {
        if let renameat2 = Self.renameat2 {
            // RENAME_EXCHANGE : RENAME_NOREPLACE
            if renameat2(directory, from, directory, to, exchange ? 2 : 1) == 0 { return }
            let failure = SystemError.current
            guard !exchange, failure.code == EINVAL || failure.code == ENOSYS else { throw failure }
        } else if exchange {
            throw SystemError(code: EINVAL)
        }
        guard renameat(directory, from, directory, to) == 0 else { throw .current }
    }

    /// glibc's `renameat2` (2.28 and later), which Swift's Glibc module does not
    /// declare: looked up once by name.
    private static let renameat2:
        (@convention(c) (Int32, UnsafePointer<CChar>, Int32, UnsafePointer<CChar>, UInt32) -> Int32)? = {
            // RTLD_DEFAULT
            guard let symbol = dlsym(UnsafeMutableRawPointer(bitPattern: 0), "renameat2") else { return nil }
            return unsafeBitCast(
                symbol,
                to: (@convention(c) (Int32, UnsafePointer<CChar>, Int32, UnsafePointer<CChar>, UInt32) -> Int32).self)
        }()

    /// Removes the entry `name` in `directory` and, when it is a directory,
    /// everything in it, through descriptors: a link is removed, never followed.
    /// Best effort: what cannot be removed stays.
    static func removeTree(_ name: String, in directory: Int32) {
        if unlinkat(directory, name, 0) == 0 { return }
        guard errno == EISDIR || errno == EPERM else { return }
        let fd = openat(directory, name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC)
        guard fd >= 0 else { return }
        guard let stream = fdopendir(fd) else {
            Glibc.close(fd)
            return
        }
        var names: [String] = []
        while let entry = readdir(stream) {
            let entryName = text(entry.pointee.d_name)
            if entryName != "." && entryName != ".." { names.append(entryName) }
        }
        for entryName in names { removeTree(entryName, in: dirfd(stream)) }
        closedir(stream)
        unlinkat(directory, name, AT_REMOVEDIR)
    }

    /// Makes a new directory `<TMPDIR or /tmp>/<prefix>XXXXXX` (`mkdtemp`, mode
    /// 0700) and returns its path.
    static func makeTemporaryDirectory(prefix: String) throws(SystemError) -> String {
        let base = ProcessEnvironment.value("TMPDIR").flatMap { $0.isEmpty ? nil : $0 } ?? "/tmp"
        var template = Array(((base.hasSuffix("/") ? base : base + "/") + prefix + "XXXXXX").utf8CString)
        guard let made = mkdtemp(&template) else { throw .current }
        return String(cString: made)
    }

    /// Holds an exclusive lock on the open directory `directory` (`flock`) while
    /// `body` runs; other launchprof processes that lock it wait. A lock that
    /// cannot be taken is not waited for.
    static func withLock<Result, Failure: Error>(on directory: Int32, _ body: () throws(Failure) -> Result)
        throws(Failure) -> Result
    {
        var locked = flock(directory, LOCK_EX)
        while locked != 0 && errno == EINTR { locked = flock(directory, LOCK_EX) }
        defer { if locked == 0 { flock(directory, LOCK_UN) } }
        return try body()
    }
}

extension Platform {
    /// What tells one file apart from every other on the machine: its device and inode.
    struct FileIdentity: Equatable {
        var device: UInt64
        var inode: UInt64
    }

    /// The identity of the open file `fd` (`fstat`), or nil when it cannot be read.
    static func identity(of fd: Int32) -> FileIdentity? {
        var status = stat()
        guard fstat(fd, &status) == 0 else { return nil }
        return FileIdentity(device: UInt64(status.st_dev), inode: UInt64(status.st_ino))
    }

    /// The identity of the directory `name` in `directory`, read through a
    /// descriptor opened with `O_DIRECTORY | O_NOFOLLOW` (nil when it is a link,
    /// not a directory, or missing).
    static func directoryIdentity(_ name: String, in directory: Int32) -> FileIdentity? {
        let fd = openat(directory, name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC)
        guard fd >= 0 else { return nil }
        defer { Glibc.close(fd) }
        return identity(of: fd)
    }

    /// Takes an exclusive lock on the open file `fd` without waiting (`flock`
    /// with `LOCK_EX | LOCK_NB`); true when it was taken. The lock goes with the
    /// open file: it is released when every descriptor of it is closed, also when
    /// the process is killed.
    static func tryLock(_ fd: Int32) -> Bool {
        while true {
            if flock(fd, LOCK_EX | LOCK_NB) == 0 { return true }
            if errno != EINTR { return false }
        }
    }

    /// The names in the open directory `directory` (`.` and `..` left out), read
    /// through a descriptor of its own so that `directory`'s offset is untouched.
    static func entryNames(in directory: Int32) -> [String] {
        let fd = openat(directory, ".", O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        guard fd >= 0 else { return [] }
        guard let stream = fdopendir(fd) else {
            Glibc.close(fd)
            return []
        }
        defer { closedir(stream) }
        var names: [String] = []
        while let entry = readdir(stream) {
            let name = text(entry.pointee.d_name)
            if name != "." && name != ".." { names.append(name) }
        }
        return names
    }

    /// What ``removeIfUnlocked(_:in:)`` found.
    enum Unlocked { case removed, locked, notADirectory }

    /// Removes the directory `name` in `directory` (and everything in it, no
    /// link followed) when an exclusive lock on it can be taken at once, that is
    /// when no live process holds one; a symbolic link by that name is removed
    /// itself. Something else (a file) is left alone.
    static func removeIfUnlocked(_ name: String, in directory: Int32) -> Unlocked {
        let fd = openat(directory, name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC)
        guard fd >= 0 else {
            if errno == ELOOP || errno == ENOTDIR, entryKind(name, in: directory) == .symbolicLink {
                unlinkat(directory, name, 0)
                return .removed
            }
            return .notADirectory
        }
        defer { Glibc.close(fd) }
        guard tryLock(fd) else { return .locked }
        removeTree(name, in: directory)
        return .removed
    }
}
