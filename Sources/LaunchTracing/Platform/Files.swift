// Files: trace files read and written whole, and small procfs files.

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
    /// Reads a small text file in one go (procfs files report a size of 0).
    static func readSmallFile(_ path: String) -> String? {
        let fd = open(path, O_RDONLY)
        guard fd >= 0 else { return nil }
        defer { close(fd) }
        // Not zeroed: only what `read` wrote is read (zeroing costs an instruction a byte under valgrind).
        var count = 0
        let bytes = [UInt8](unsafeUninitializedCapacity: 4096) { buffer, initialized in
            count = read(fd, buffer.baseAddress, buffer.count)
            initialized = max(0, count)
        }
        guard count > 0 else { return nil }
        return String(decoding: bytes, as: UTF8.self)
    }

    /// Writes `bytes` to `path` (created or replaced), all or nothing as far as
    /// the caller can tell (``AtomicFile``).
    static func writeFile(_ path: String, bytes: [UInt8]) throws(TraceFileError) {
        do {
            try AtomicFile.write(bytes, to: path)
        } catch {
            throw .cannotWrite(path: path, reason: error.systemMessage)
        }
    }

    /// Writes `head`, `middle` and `tail`, one after the other, to `path` as ``writeFile(_:bytes:)``
    /// writes one array: a flush's thread sections are written where they are, not copied.
    static func writeFile(_ path: String, _ head: ByteWriter, _ middle: ByteWriter, _ tail: ByteWriter)
        throws(TraceFileError)
    {
        do {
            try AtomicFile.write(to: path) { write in
                head.withBytes(write)
                middle.withBytes(write)
                tail.withBytes(write)
            }
        } catch {
            throw .cannotWrite(path: path, reason: error.systemMessage)
        }
    }
}

extension Platform {
    /// Writes `line` and a newline to `fd`, retrying interrupted writes; errors are ignored
    /// (a reader that went away must not stop the app). The C function is `write`.
    static func writeLine(_ line: String, to fd: Int32) {
        let bytes = Array(line.utf8) + [0x0A]
        _ = bytes.withUnsafeBytes { Descriptor.writeAll(fd, $0) }
    }
}

/// Writes to an open file descriptor.
package enum Descriptor {
    /// Writes all of `bytes` to `fd`, retrying after `EINTR` and short writes;
    /// returns the error of the `write` that failed, or nil.
    package static func writeAll(_ fd: Int32, _ bytes: UnsafeRawBufferPointer) -> SystemError? {
        var offset = 0
        while offset < bytes.count {
            let written = write(fd, bytes.baseAddress! + offset, bytes.count - offset)
            if written < 0 {
                if errno == EINTR { continue }
                return .current
            }
            if written == 0 { return SystemError(code: EIO) }
            offset += written
        }
        return nil
    }
}

/// Standard error, for the one-line messages of code that links the tracer.
package enum StandardError {
    /// Writes `line` and a newline on standard error.
    package static func writeLine(_ line: String) { Platform.writeStandardError(line + "\n") }
}
