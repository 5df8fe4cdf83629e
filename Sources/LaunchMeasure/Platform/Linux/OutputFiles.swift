// A launch's output files: created for reading and writing, their head freed
// while the program writes, and cut to their last bytes once it has ended.

import LaunchTracing
import _LaunchMeasureShims

#if canImport(Glibc)
    import Glibc
#else
    // Launching relies on Linux: pidfd, /proc/sys/vm/drop_caches, PR_SET_PDEATHSIG.
    #error("The launcher runs on Linux only: see LaunchMeasure.docc/PortingTheLauncher.md")
#endif

extension Platform {
    /// Creates the new file `name` in `directory` for reading and writing
    /// (`O_RDWR | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC`, mode 0644 less the
    /// umask): anything already there, a link included, is an error (`EEXIST`).
    static func createOutputFile(_ name: String, in directory: Int32) throws(SystemError) -> Int32 {
        let fd = openat(directory, name, O_RDWR | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0o644)
        guard fd >= 0 else { throw .current }
        return fd
    }

    /// The size of the open file `fd` in bytes (`fstat`), or nil.
    static func size(of fd: Int32) -> Int? {
        var status = stat()
        guard fstat(fd, &status) == 0, status.st_mode & S_IFMT == S_IFREG else { return nil }
        return Int(status.st_size)
    }

    /// Frees the disk blocks of the open file `fd` from `from` to what lies more
    /// than `keep` bytes before its end (`fallocate` with `FALLOC_FL_PUNCH_HOLE |
    /// FALLOC_FL_KEEP_SIZE`, in whole 64 KiB steps): its size and the writer's
    /// offset stay, the head reads as zeros. Returns where the freed part now
    /// ends (`from` when nothing was freed, or the file system cannot).
    static func freeHead(of fd: Int32, from: Int, keep: Int) -> Int {
        guard let size = size(of: fd), size - keep - from >= 1 << 20 else { return from }
        let end = (size - keep) & ~0xFFFF
        guard end > from else { return from }
        return lp_punch_hole(fd, Int64(from), Int64(end - from)) == 0 ? end : from
    }

    /// Cuts the open file `fd` (readable and writable) to its last `keep` bytes
    /// when it is longer, after a first line that says so: `header(dropped, size)`.
    /// Copies at most `keep` bytes, 1 MiB at a time, towards the start. Returns
    /// the bytes dropped (0 when the file was short enough or not a regular file).
    @discardableResult
    static func keepTail(of fd: Int32, keep: Int, header: (_ dropped: Int, _ size: Int) -> String) -> Int {
        guard let size = size(of: fd), size > keep else { return 0 }
        let line = Array(header(size - keep, size).utf8)
        let start = size - keep
        guard line.count <= start else { return 0 }
        var chunk = [UInt8](repeating: 0, count: min(keep, 1 << 20))
        var copied = 0
        while copied < keep {
            let count = chunk.withUnsafeMutableBytes {
                pread(fd, $0.baseAddress, min($0.count, keep - copied), off_t(start + copied))
            }
            if count < 0 && errno == EINTR { continue }
            guard count > 0 else { break }
            guard writeAll(fd, chunk[0..<count], at: line.count + copied) else { return 0 }
            copied += count
        }
        guard writeAll(fd, line[...], at: 0) else { return 0 }
        _ = ftruncate(fd, off_t(line.count + copied))
        return size - keep
    }

    /// Writes all of `bytes` at `offset` (`pwrite`, retried); false on an error.
    private static func writeAll(_ fd: Int32, _ bytes: ArraySlice<UInt8>, at offset: Int) -> Bool {
        var rest = bytes
        var position = offset
        while !rest.isEmpty {
            let written = rest.withUnsafeBytes { pwrite(fd, $0.baseAddress, $0.count, off_t(position)) }
            if written < 0 {
                if errno == EINTR { continue }
                return false
            }
            rest = rest.dropFirst(written)
            position += written
        }
        return true
    }
}
