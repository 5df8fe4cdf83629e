// Threads: their ids, starting one, sleeping on the monotonic clock.

import LaunchTracing
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
    /// The calling thread's OS id (Linux `gettid`).
    static var currentThreadID: UInt64 {
        lp_thread_id()
    }

    /// The CPU the calling thread runs on now, or -1 where that is not known.
    static var currentCPU: Int32 { lp_current_cpu() }

    /// Starts the tracer's populater from the calling thread (`lp_populater_start_ahead`):
    /// the thread that records would otherwise pay for its start at its first request.
    static func startTracePopulater() { lp_populater_start_ahead() }

    static func sleep(untilMonotonic deadline: UInt64) {
        var target = timespec(tv_sec: Int(deadline / 1_000_000_000), tv_nsec: Int(deadline % 1_000_000_000))
        #if os(Linux)
            while clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &target, nil) == EINTR {}
        #else
            let now = MonotonicClock.nanoseconds
            if deadline > now { usleep(UInt32((deadline - now) / 1_000)) }
            _ = target
        #endif
    }
}
