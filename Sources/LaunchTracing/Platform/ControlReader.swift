// The control descriptor: a detached thread that reads launchprof's requests.

import _LaunchTracingShims

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#else
    #error("Unsupported Platform")
#endif

extension Platform {
    /// Makes `fd` a descriptor to wait on: close-on-exec, so that programs this one
    /// runs do not inherit it, and blocking (a pipe's end may come non-blocking:
    /// the flag is shared with the descriptor it was duplicated from).
    static func prepareToWait(on fd: Int32) {
        _ = fcntl(fd, F_SETFD, fcntl(fd, F_GETFD) | FD_CLOEXEC)
        _ = fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) & ~O_NONBLOCK)
    }

    /// Reads `fd` (blocking) until a whole line has arrived and returns it without
    /// its newline; nil at the end of the stream or on an error other than `EINTR`.
    static func readLine(_ fd: Int32, pending: inout [UInt8]) -> String? {
        var chunk = [UInt8](repeating: 0, count: 256)
        while true {
            if let newline = pending.firstIndex(of: 0x0A) {
                let line = String(decoding: pending[..<newline], as: UTF8.self)
                pending.removeSubrange(...newline)
                return line
            }
            let count = chunk.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
            if count > 0 {
                pending += chunk[0..<count]
                if pending.count > 4_096 { pending.removeFirst(pending.count - 4_096) }
            } else if count < 0, errno == EINTR {
                continue
            } else {
                return nil
            }
        }
    }
}
