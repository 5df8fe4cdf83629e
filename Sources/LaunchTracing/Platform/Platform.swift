// The process LaunchTracing runs in: its id, executable, start time, standard
// error and exit. The other files in this folder hold the other system calls
// LaunchTracing makes, one concern a file; logic files need no `#if`.

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#else
    #error("Unsupported Platform")
#endif

/// Namespace for the system calls LaunchTracing wraps.
enum Platform {
    static var processID: Int32 { getpid() }

    /// The running executable's path, when the OS tells it.
    static var executablePath: String {
        #if os(Linux)
            // Not zeroed: only what `readlink` wrote is read.
            var count = 0
            let bytes = [UInt8](unsafeUninitializedCapacity: 4096) { buffer, initialized in
                count = readlink(
                    "/proc/self/exe",
                    UnsafeMutableRawPointer(buffer.baseAddress!)
                        .assumingMemoryBound(to: CChar.self), buffer.count - 1)
                initialized = max(0, count)
            }
            if count > 0 { return String(decoding: bytes, as: UTF8.self) }
            return CommandLine.arguments.first ?? ""
        #else
            return CommandLine.arguments.first ?? ""
        #endif
    }

    /// The process's start time on the CLOCK_MONOTONIC base, as the OS records it.
    ///
    /// Linux: field 22 of `/proc/self/stat` (clock ticks since boot, on the
    /// boot-time clock), moved onto CLOCK_MONOTONIC by the current offset between
    /// the two clocks. Its resolution is one clock tick (10 ms), so it is approximate.
    static func processStartMonotonicNanoseconds() -> UInt64? {
        #if os(Linux)
            guard let stat = readSmallFile("/proc/self/stat"),
                let close = stat.lastIndex(of: ")")
            else { return nil }
            let fields = stat[stat.index(after: close)...].split(separator: " ")
            // fields[0] is field 3 (state); starttime is field 22.
            guard fields.count > 19, let startTicks = UInt64(fields[19]) else { return nil }
            let hertz = UInt64(max(1, sysconf(Int32(_SC_CLK_TCK))))
            var boot = timespec()
            clock_gettime(CLOCK_BOOTTIME, &boot)
            let monotonicNs = MonotonicClock.nanoseconds
            let bootNs = UInt64(boot.tv_sec) * 1_000_000_000 + UInt64(boot.tv_nsec)
            let startBootNs = Int64(startTicks * (1_000_000_000 / hertz))
            // The clocks differ by time spent suspended; read back to back they may
            // also differ by a few hundred nanoseconds either way.
            let offset = Int64(bitPattern: bootNs &- monotonicNs)
            return UInt64(max(0, startBootNs - max(0, offset)))
        #else
            return nil
        #endif
    }

    /// The length of the NUL-terminated bytes at `address` (`strlen`).
    static func stringLength(_ address: UnsafeRawPointer) -> Int {
        strlen(address.assumingMemoryBound(to: CChar.self))
    }

    static func writeStandardError(_ text: String) {
        var text = text
        text.withUTF8 { bytes in _ = write(2, bytes.baseAddress, bytes.count) }
    }

    /// Registers `handler` to run at normal process exit.
    static func atExit(_ handler: @escaping @convention(c) () -> Void) {
        atexit(handler)
    }
}
