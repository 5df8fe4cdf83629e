/// Data a harness or an app attaches to the trace besides events.
extension LaunchTracer {
    /// Sets a metadata value written with the trace (for example the launch
    /// options or the app's variant). `nil` removes the key.
    public static func setMetadata(_ value: String?, forKey key: String) {
        TraceAttachments.setMetadata(value, forKey: key)
    }

    /// Sets metadata that is made when the trace is written rather than now: `values`
    /// runs at each flush, and a key it returns is written unless ``setMetadata(_:forKey:)``
    /// set it too. For what is costly to make where time counts: LaunchHarness records the
    /// launch options and the budget this way, since serialising them before the launch
    /// (the Swift runtime's first generic look-ups and the page faults of their code) cost
    /// about 0.3 ms of the time to first frame on a 2-core virtual machine. A second call
    /// replaces the first.
    package static func setMetadataWhenWritten(_ values: @escaping @Sendable () -> [String: String]) {
        TraceAttachments.setMetadataWhenWritten(values)
    }

    /// Appends sampler observations to the trace.
    public static func appendSamples(_ samples: [ThreadSample]) {
        TraceAttachments.append(samples)
    }

    /// Turns per-span resource accounting (CPU time, run-queue wait, context
    /// switches, page faults) on or off for spans begun on the calling thread from
    /// now on. Off by default; LaunchHarness turns it on for the main thread while
    /// profiling, and so does a traced launch (`LAUNCHPROF_TRACE` set).
    ///
    /// Cost: a boundary reads the thread's usage only when its last reading is
    /// more than 40 µs old and either the gaps between boundaries since then that
    /// could have held a wait (3 µs or more each) add up to 10 µs or the last reading
    /// is 0.5 ms old — the thread CPU clock, plus `getrusage` and the thread's
    /// `schedstat` when it left the CPU since — and otherwise costs a few compares
    /// and a store; its usage is then attributed from the readings around it, and the
    /// span is marked estimated (``SpanUsage/isEstimated``) where a wait could lie
    /// before the boundary. A run of short spans pays a system call about every half
    /// millisecond; under LaunchHarness's sampler, whose switch watch tells accounting
    /// when the main thread leaves the CPU, a reading while it has not takes none either
    /// (its CPU clock is the last reading's plus the wall time since, read anew at least
    /// every 2 ms).
    ///
    /// In a launch whose instructions launchprof counts (`--metric instructions`,
    /// under valgrind) accounting stays off: its readings follow the wall clock,
    /// which would make the count change from one identical launch to the next.
    public static func setResourceAccounting(_ enabled: Bool) {
        ResourceAccounting.setEnabledForCurrentThread(enabled)
    }

    /// The system calls the calling thread made for per-span accounting since
    /// the last ``reset()`` (or since accounting began): a counter, not a timing,
    /// so benchmarks and tests can hold the accounting to its promise.
    ///
    /// ```swift
    /// LaunchTracer.setResourceAccounting(true)
    /// for _ in 0..<10_000 { LaunchTracer.begin("Row").end() }
    /// print(LaunchTracer.accountingSystemCalls)  // a few hundred at most, not 60,000
    /// ```
    public static var accountingSystemCalls: UInt64 {
        ResourceAccounting.systemCallsOfCurrentThread()
    }

    /// Of the calling thread's readings since the last ``reset()``, those taken without
    /// a system call: a switch watch on the thread (LaunchHarness's sampler) showed that it
    /// had not left the CPU since its last reading. A counter for benchmarks and tests.
    package static var accountingReadingsWithoutSystemCall: UInt64 {
        ResourceAccounting.readingsWithoutSystemCallOfCurrentThread()
    }

    /// Discards recorded events, metadata, samples and usage.
    public static func resetAll() {
        reset()
        TraceAttachments.reset()
    }
}
