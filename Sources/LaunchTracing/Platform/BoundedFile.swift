// Whole input files read with a bound: regular files only, a size limit, no
// blocking open.

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#else
    #error("Unsupported Platform")
#endif

/// Reads a whole input file (a budget, a trace, a report) so that no file can
/// make the reader hang or grow without limit.
///
/// The path is opened once, with `O_NONBLOCK` (a FIFO with no writer does not
/// block the open) and, when links are not followed, `O_NOFOLLOW`; the open
/// descriptor is then checked with `fstat`, so what is read is what was checked.
/// Anything but a regular file (a device such as `/dev/zero`, a FIFO, a socket,
/// a directory) is refused, and so is a file larger than `limit` bytes, whether
/// it was that large when opened or grew while being read.
///
/// ```swift
/// let bytes = try BoundedFile.read("launchprof.json", limit: 1 << 20)
/// ```
package enum BoundedFile {
    /// Reads the regular file at `path`, at most `limit` bytes.
    ///
    /// - Parameters:
    ///   - followLinks: false to refuse a symbolic link at `path` itself (`O_NOFOLLOW`),
    ///     for files another program could have replaced.
    ///   - prefix: true to read the first `limit` bytes of a larger file instead of refusing it.
    /// - Throws: ``BoundedFileError``.
    package static func read(_ path: String, limit: Int, followLinks: Bool = true, prefix: Bool = false)
        throws(BoundedFileError) -> [UInt8]
    {
        let flags = O_RDONLY | O_CLOEXEC | O_NONBLOCK | (followLinks ? 0 : O_NOFOLLOW)
        let fd = open(path, flags)
        guard fd >= 0 else {
            let failure = SystemError.current
            if !followLinks, failure.code == ELOOP, isLink(path) { throw .symbolicLink }
            throw .cannotOpen(failure)
        }
        defer { close(fd) }
        var info = stat()
        guard fstat(fd, &info) == 0 else { throw .cannotRead(.current) }
        let type = info.st_mode & S_IFMT
        guard type == S_IFREG else { throw .notRegular(kind: kindName(type)) }
        let size = Int(info.st_size)
        guard size <= limit || prefix else { throw .tooLarge(limit: limit) }

        // One byte past the limit tells a file that grew from one that ended there.
        var bytes = [UInt8](repeating: 0, count: min(max(size, 4096), limit) + (prefix ? 0 : 1))
        var filled = 0
        while true {
            if filled == bytes.count {
                if prefix { break }
                guard bytes.count <= limit else { throw .tooLarge(limit: limit) }
                bytes.append(contentsOf: repeatElement(0, count: min(bytes.count, limit + 1 - bytes.count)))
            }
            let count = bytes.withUnsafeMutableBytes { readSome(fd, $0.baseAddress! + filled, $0.count - filled) }
            if count < 0 {
                if errno == EINTR { continue }
                throw .cannotRead(.current)
            }
            if count == 0 { break }
            filled += count
        }
        guard filled <= limit else { throw .tooLarge(limit: limit) }
        bytes.removeSubrange(filled...)
        return bytes
    }

    /// True when `path` itself is a symbolic link (`lstat`).
    private static func isLink(_ path: String) -> Bool {
        var info = stat()
        return lstat(path, &info) == 0 && info.st_mode & S_IFMT == S_IFLNK
    }

    private static func kindName(_ type: mode_t) -> String {
        switch type {
        case S_IFDIR: return "a directory"
        case S_IFCHR: return "a character device"
        case S_IFBLK: return "a block device"
        case S_IFIFO: return "a FIFO"
        case S_IFSOCK: return "a socket"
        default: return "a special file"
        }
    }
}

/// Why ``BoundedFile`` refused or could not read a file. Its description is a
/// short lowercase phrase that follows the file's name: "is a FIFO, not a regular file".
package enum BoundedFileError: Error, Sendable, Equatable, CustomStringConvertible {
    /// `open` failed.
    case cannotOpen(SystemError)
    /// The path is a symbolic link and links were not to be followed.
    case symbolicLink
    /// The path names a directory, device, FIFO or socket.
    case notRegular(kind: String)
    /// The file holds more than `limit` bytes.
    case tooLarge(limit: Int)
    /// `fstat` or `read` failed.
    case cannotRead(SystemError)

    package var description: String {
        switch self {
        case .cannotOpen(let error), .cannotRead(let error): return error.description
        case .symbolicLink: return "it is a symbolic link (not followed)"
        case .notRegular(let kind): return "it is \(kind), not a regular file"
        case .tooLarge(let limit): return "it is larger than \(Self.bytes(limit)), the most read of such a file"
        }
    }

    /// True when nothing is at the path (`ENOENT`).
    package var isMissing: Bool {
        if case .cannotOpen(let error) = self { return error.code == ENOENT }
        return false
    }

    /// `1 MiB`, `1 GiB`, or a byte count.
    static func bytes(_ count: Int) -> String {
        if count >= 1 << 30, count % (1 << 30) == 0 { return "\(count >> 30) GiB" }
        if count >= 1 << 20, count % (1 << 20) == 0 { return "\(count >> 20) MiB" }
        if count >= 1 << 10, count % (1 << 10) == 0 { return "\(count >> 10) KiB" }
        return "\(count) bytes"
    }
}

/// `read(2)` under a name `BoundedFile.read` does not shadow.
private func readSome(_ fd: Int32, _ buffer: UnsafeMutableRawPointer, _ count: Int) -> Int {
    read(fd, buffer, count)
}
