// Threads: their names, their resource usage, and the lock the slow paths take.

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
    /// The name of thread `tid` of this process, read at flush (Linux only).
    static func threadName(tid: UInt64) -> String? {
        #if os(Linux)
            guard let text = readSmallFile("/proc/self/task/\(tid)/comm") else { return nil }
            let name = text.trimmingSuffix("\n")
            return name.isEmpty ? nil : name
        #else
            return nil
        #endif
    }

    /// The calling thread's resource usage: its exact CPU time from the thread CPU
    /// clock (`CLOCK_THREAD_CPUTIME_ID`, not `getrusage`'s tick-scaled estimate),
    /// context switches and page faults from `getrusage(RUSAGE_THREAD)`; no
    /// run-queue wait (the C shim's accounting reads `schedstat`). Darwin: the process's usage,
    /// which is what the platform offers cheaply.
    static func threadUsage() -> ResourceUsage {
        var usage = rusage()
        lp_thread_rusage(&usage)
        func ns(_ time: timeval) -> UInt64 {
            UInt64(max(0, time.tv_sec)) * 1_000_000_000 + UInt64(max(0, Int(time.tv_usec))) * 1_000
        }
        var cpu = ns(usage.ru_utime) + ns(usage.ru_stime)
        #if os(Linux)
            var clock = timespec()
            if clock_gettime(CLOCK_THREAD_CPUTIME_ID, &clock) == 0 {
                cpu = UInt64(max(0, clock.tv_sec)) * 1_000_000_000 + UInt64(max(0, clock.tv_nsec))
            }
        #endif
        return ResourceUsage(
            cpuNanoseconds: cpu,
            voluntaryContextSwitches: UInt64(max(0, usage.ru_nvcsw)),
            involuntaryContextSwitches: UInt64(max(0, usage.ru_nivcsw)),
            minorFaults: UInt64(max(0, usage.ru_minflt)),
            majorFaults: UInt64(max(0, usage.ru_majflt)))
    }
}

/// A minimal mutual-exclusion lock for slow paths (registration, flush; the
/// analysis's caches).
package final class Lock: @unchecked Sendable {
    private let mutex: UnsafeMutablePointer<pthread_mutex_t>

    package init() {
        mutex = .allocate(capacity: 1)
        pthread_mutex_init(mutex, nil)
    }

    deinit {
        pthread_mutex_destroy(mutex)
        mutex.deallocate()
    }

    package func withLock<T>(_ body: () throws -> T) rethrows -> T {
        pthread_mutex_lock(mutex)
        defer { pthread_mutex_unlock(mutex) }
        return try body()
    }
}

extension String {
    func trimmingSuffix(_ suffix: String) -> String {
        hasSuffix(suffix) ? String(dropLast(suffix.count)) : self
    }
}
