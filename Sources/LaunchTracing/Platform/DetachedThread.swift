// Detached threads of launchprof's own, started with every signal blocked.

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

/// A detached thread of the tracer or the harness (the control reader, the sampler).
package enum DetachedThread {
    /// Starts a detached thread named `name` that runs `body`, with every signal
    /// blocked: a program that waits for its signals (`sigwait`) or handles them on
    /// a thread of its own must never have one delivered to the tracer's thread.
    /// With `avoidingCPU` (Linux), the thread never runs on that CPU where the process
    /// has others: it is not placed there to start, so it does not preempt the thread
    /// running there (a thread created on its creator's CPU runs first there).
    package static func start(name: String, avoidingCPU: Int32 = -1, _ body: @escaping @Sendable () -> Void) {
        // A new thread inherits its creator's mask: block all for the creation, then restore.
        var all = sigset_t()
        var previous = sigset_t()
        sigfillset(&all)
        pthread_sigmask(SIG_SETMASK, &all, &previous)
        defer { pthread_sigmask(SIG_SETMASK, &previous, nil) }
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
        #if os(Linux)
            guard
                lp_thread_start_detached(
                    { raw in
                        Unmanaged<Box>.fromOpaque(raw!).takeRetainedValue().body()
                        return nil
                    }, box, avoidingCPU) == 0
            else {
                Unmanaged<Box>.fromOpaque(box).release()
                return
            }
        #else
            var thread: pthread_t?
            guard
                pthread_create(
                    &thread, nil,
                    { raw in
                        Unmanaged<Box>.fromOpaque(raw).takeRetainedValue().body()
                        return nil
                    }, box) == 0, let thread
            else {
                Unmanaged<Box>.fromOpaque(box).release()
                return
            }
            pthread_detach(thread)
        #endif
    }
}
