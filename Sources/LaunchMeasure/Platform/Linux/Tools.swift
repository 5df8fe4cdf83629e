// Running a helper tool to its end and reading what it printed (valgrind
// --version, objcopy, swift-demangle), listing a folder by path, and making links.

import LaunchTracing

#if canImport(Glibc)
    import Glibc
#else
    #error("The launcher runs on Linux only: see LaunchMeasure.docc/PortingTheLauncher.md")
#endif

extension Platform {
    /// Runs `path` with `arguments` (argv[0] included) to its end, with stdin from
    /// /dev/null and stderr discarded; returns its exit status and at most
    /// `limit` bytes of its stdout, or nil when it could not be started.
    static func runTool(_ path: String, _ arguments: [String], limit: Int = 4 << 20) -> (
        status: ExitStatus, stdout: [UInt8]
    )? {
        guard let output = try? makePipe() else { return nil }
        defer { close(output.read) }
        let null = open("/dev/null", O_WRONLY | O_CLOEXEC)
        defer { if null >= 0 { Glibc.close(null) } }
        guard
            let spawned = try? spawn(
                path: path, arguments: arguments, environment: ProcessEnvironment.entries, stampName: nil,
                descriptors: [(output.write, 1), (null >= 0 ? null : output.write, 2)])
        else {
            close(output.write)
            return nil
        }
        close(output.write)
        var bytes: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 65_536)
        reading: while true {
            switch read(output.read, into: &chunk) {
            case .bytes(let count): if bytes.count < limit { bytes += chunk[0..<min(count, limit - bytes.count)] }
            case .endOfFile: break reading
            case .wouldBlock: _ = waitForInput([output.read], milliseconds: 100)
            }
        }
        guard let status = try? reap(spawned.pid).status else { return nil }
        return (status, bytes)
    }

    /// The names in folder `path` (not `.` and `..`), or nil when it cannot be opened.
    static func folderEntries(_ path: String) -> [String]? {
        guard let fd = try? openDirectory(path) else { return nil }
        defer { close(fd) }
        return entryNames(in: fd)
    }

    /// Makes `link` a symbolic link to `target`.
    static func makeSymbolicLink(_ target: String, at link: String) throws(SystemError) {
        guard symlink(target, link) == 0 else { throw .current }
    }

    /// `count` bytes of the file at `path` from `offset`, or nil when it is shorter.
    static func bytes(of path: String, at offset: UInt64, count: Int) -> [UInt8]? {
        let fd = open(path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { return nil }
        defer { Glibc.close(fd) }
        var bytes = [UInt8](repeating: 0, count: count)
        let read = bytes.withUnsafeMutableBytes {
            Glibc.pread(fd, $0.baseAddress, count, off_t(truncatingIfNeeded: offset))
        }
        return read == count ? bytes : nil
    }
}

extension Platform {
    /// True when this process runs as root (`geteuid() == 0`).
    static var isRoot: Bool { geteuid() == 0 }
}
