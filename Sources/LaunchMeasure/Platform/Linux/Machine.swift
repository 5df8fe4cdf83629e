// The machine a measurement ran on, and when.

import LaunchAnalysis

#if canImport(Glibc)
    import Glibc
#else
    // Launching relies on Linux: pidfd, /proc/sys/vm/drop_caches, PR_SET_PDEATHSIG.
    #error("The launcher runs on Linux only: see LaunchMeasure.docc/PortingTheLauncher.md")
#endif

extension Platform {
    /// This machine's name (`gethostname`), or `unknown`.
    static var hostname: String { MachineEnvironment.hostName ?? "unknown" }

    /// `uname -s -r -m`.
    static var operatingSystem: String {
        var names = utsname()
        guard uname(&names) == 0 else { return "unknown" }
        return "\(text(names.sysname)) \(text(names.release)) \(text(names.machine))"
    }

    /// The processor's model name, from `/proc/cpuinfo`.
    static var cpuModel: String {
        guard let file = fopen("/proc/cpuinfo", "r") else { return "unknown" }
        defer { fclose(file) }
        var line: UnsafeMutablePointer<CChar>?
        var capacity = 0
        defer { free(line) }
        while getline(&line, &capacity, file) > 0, let line {
            let text = String(cString: line)
            if text.hasPrefix("model name") || text.hasPrefix("Model") || text.hasPrefix("cpu model") {
                let value = text.split(separator: ":", maxSplits: 1).last ?? ""
                return value.trimmingWhitespace()
            }
        }
        return "unknown"
    }

    /// Processors online (`sysconf(_SC_NPROCESSORS_ONLN)`).
    static var cpuCount: Int { Int(sysconf(Int32(_SC_NPROCESSORS_ONLN))) }

    /// The current UTC time as ISO 8601 (`2026-11-22T22:41:18Z`).
    static var utcTimestamp: String {
        var now = time(nil)
        var parts = tm()
        gmtime_r(&now, &parts)
        func two(_ value: Int32) -> String { value < 10 ? "0\(value)" : "\(value)" }
        return "\(parts.tm_year + 1900)-\(two(parts.tm_mon + 1))-\(two(parts.tm_mday))T"
            + "\(two(parts.tm_hour)):\(two(parts.tm_min)):\(two(parts.tm_sec))Z"
    }
}

extension Platform {
    /// The monotonic time `monotonic` on the wall clock: both clocks read
    /// back to back now, the difference carried to `monotonic`.
    static func wallClockAnchor(at monotonic: UInt64) -> WallClockAnchor {
        var wall = timespec()
        var steady = timespec()
        clock_gettime(CLOCK_REALTIME, &wall)
        clock_gettime(CLOCK_MONOTONIC, &steady)
        let unixNow = UInt64(wall.tv_sec) * 1_000_000_000 + UInt64(wall.tv_nsec)
        let monotonicNow = UInt64(steady.tv_sec) * 1_000_000_000 + UInt64(steady.tv_nsec)
        let anchor = WallClockAnchor(monotonicNanoseconds: monotonicNow, unixNanoseconds: unixNow)
        return WallClockAnchor(
            monotonicNanoseconds: monotonic, unixNanoseconds: anchor.unixNanoseconds(atMonotonic: monotonic))
    }
}
