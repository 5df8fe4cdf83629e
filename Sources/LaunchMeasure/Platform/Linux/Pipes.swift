// Descriptors: the ready and stdout pipes, the stdout pseudo-terminal, read
// without blocking, and poll.

import LaunchTracing
import _LaunchMeasureShims
import _LaunchSystem

#if canImport(Glibc)
    import Glibc
#else
    // Launching relies on Linux: pidfd, /proc/sys/vm/drop_caches, PR_SET_PDEATHSIG.
    #error("The launcher runs on Linux only: see LaunchMeasure.docc/PortingTheLauncher.md")
#endif

extension Platform {
    /// A pipe whose ends are close-on-exec and numbered 10 or above, so that
    /// moving them onto fds 0–3 in the child can never overwrite one another.
    /// The read end is non-blocking (the write end, the child's, is not).
    static func makePipe() throws(SystemError) -> (read: Int32, write: Int32) {
        var ends: [Int32] = [-1, -1]
        guard pipe(&ends) == 0 else { throw .current }
        return try raised(read: ends[0], write: ends[1])
    }

    /// A pseudo-terminal for a child's stdout, as a pipe's two ends: `read` is
    /// the master (non-blocking), `write` the slave the child writes to; both
    /// close-on-exec and numbered 10 or above, like ``makePipe()``'s. The slave
    /// is not made anyone's controlling terminal, and output processing is off
    /// (no `\r` before each `\n`), so what is read is what was written.
    /// Once every copy of the slave is closed, reading the master gives `EIO`:
    /// the end of the stream.
    static func makePseudoTerminal() throws(SystemError) -> (read: Int32, write: Int32) {
        var master: Int32 = -1
        var slave: Int32 = -1
        let result = lp_open_pseudo_terminal(&master, &slave)
        guard result == 0 else { throw SystemError(code: result) }
        return try raised(read: master, write: slave)
    }

    /// `read` and `write` moved to descriptors numbered 10 or above, close-on-exec,
    /// the read end non-blocking; the originals are closed.
    private static func raised(read: Int32, write: Int32) throws(SystemError) -> (read: Int32, write: Int32) {
        defer {
            Glibc.close(read)
            Glibc.close(write)
        }
        let readEnd = fcntl(read, F_DUPFD_CLOEXEC, 10)
        guard readEnd >= 0 else { throw .current }
        let writeEnd = fcntl(write, F_DUPFD_CLOEXEC, 10)
        guard writeEnd >= 0 else {
            let failure = SystemError.current
            Glibc.close(readEnd)
            throw failure
        }
        _ = fcntl(readEnd, F_SETFL, fcntl(readEnd, F_GETFL) | O_NONBLOCK)
        return (readEnd, writeEnd)
    }

    /// Closes a descriptor this module opened.
    static func close(_ fd: Int32) {
        SystemCalls.close(FileDescriptor(rawValue: fd))
    }

    /// What a read of a non-blocking descriptor gave.
    enum ReadResult { case bytes(Int), endOfFile, wouldBlock }

    /// Reads what is available into `buffer` (retried after signals).
    /// Errors other than `EAGAIN` count as the end of the stream.
    static func read(_ fd: Int32, into buffer: inout [UInt8]) -> ReadResult {
        while true {
            let count = buffer.withUnsafeMutableBytes { Glibc.read(fd, $0.baseAddress, $0.count) }
            if count > 0 { return .bytes(count) }
            if count == 0 { return .endOfFile }
            switch errno {
            case EINTR: continue
            case EAGAIN, EWOULDBLOCK: return .wouldBlock
            default: return .endOfFile
            }
        }
    }

    /// The index of the first `\n` in `bytes` (`memchr`), or nil.
    static func firstNewline(in bytes: ArraySlice<UInt8>) -> Int? {
        bytes.withUnsafeBytes { buffer in
            guard let base = buffer.baseAddress, let found = memchr(base, 0x0A, buffer.count) else { return nil }
            return bytes.startIndex + (UnsafeRawPointer(found) - base)
        }
    }

    /// Writes all of `bytes` (retrying partial writes); false on an error.
    @discardableResult
    static func writeAll(_ fd: Int32, _ bytes: ArraySlice<UInt8>) -> Bool {
        var rest = bytes
        while !rest.isEmpty {
            let written = rest.withUnsafeBytes { write(fd, $0.baseAddress, $0.count) }
            if written < 0 {
                if errno == EINTR { continue }
                return false
            }
            rest = rest.dropFirst(written)
        }
        return true
    }

    /// Waits until one of `fds` is readable or hung up, or `milliseconds` pass
    /// (`poll`; -1 waits forever, 0 only looks). Returns one flag per descriptor,
    /// all false on a timeout or a signal.
    static func waitForInput(_ fds: [Int32], milliseconds: Int32) -> [Bool] {
        var entries = fds.map { pollfd(fd: $0, events: Int16(POLLIN), revents: 0) }
        let count = poll(&entries, nfds_t(entries.count), milliseconds)
        guard count > 0 else { return Array(repeating: false, count: fds.count) }
        return entries.map { $0.revents != 0 }
    }
}
