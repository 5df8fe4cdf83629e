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

    /// Starts a detached thread with a name.
    static func startThread(name: String, _ body: @escaping @Sendable () -> Void) {
        final class Box {
            let body: @Sendable () -> Void
            init(_ body: @escaping @Sendable () -> Void) { self.body = body }
        }
        let box = Unmanaged.passRetained(
            Box({
                lp_set_current_thread_name(name)
                body()
            })
        ).toOpaque()
        var thread = pthread_t()
        #if os(Linux)
            pthread_create(
                &thread, nil,
                { raw in
                    let box = Unmanaged<Box>.fromOpaque(raw!).takeRetainedValue()
                    box.body()
                    return nil
                }, box)
            pthread_detach(thread)
        #else
            var optional: pthread_t?
            pthread_create(
                &optional, nil,
                { raw in
                    let box = Unmanaged<Box>.fromOpaque(raw).takeRetainedValue()
                    box.body()
                    return nil
                }, box)
            if let optional { pthread_detach(optional) }
            _ = thread
        #endif
    }
}
