// Files: what a path names, directories, the launch's output files, the kernel's
// sysctl files.

#if canImport(Glibc)
import Glibc
#else
// Launching relies on Linux: pidfd, /proc/sys/vm/drop_caches, glibc's posix_spawn.
#error("Unsupported Platform")
#endif
import LaunchTracing

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

    /// True when something exists at `path` (`access(F_OK)`).
    static func exists(_ path: String) -> Bool {
        access(path, F_OK) == 0
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

    /// Creates `path` and any missing parents (`mkdir -p`), mode 0755.
    static func makeDirectories(_ path: String) throws(SystemError) {
        var prefix = path.hasPrefix("/") ? "/" : ""
        for component in path.split(separator: "/") {
            prefix += component
            if mkdir(prefix, 0o755) != 0 && errno != EEXIST { throw .current }
            prefix += "/"
        }
    }

    /// Opens (creating or truncating) a file for writing; close-on-exec.
    static func createFile(_ path: String) throws(SystemError) -> Int32 {
        let fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o644)
        guard fd >= 0 else { throw .current }
        return fd
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
