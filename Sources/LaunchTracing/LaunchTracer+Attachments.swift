/// Data a harness or an app attaches to the trace besides events.
extension LaunchTracer {
    /// Sets a metadata value written with the trace (for example the launch
    /// options or the app's variant). `nil` removes the key.
    public static func setMetadata(_ value: String?, forKey key: String) {
        TraceAttachments.setMetadata(value, forKey: key)
    }

    /// Appends sampler observations to the trace.
    public static func appendSamples(_ samples: [ThreadSample]) {
        TraceAttachments.append(samples)
    }

    /// Turns per-span resource accounting (CPU time, context switches, page
    /// faults: one `getrusage` at each end of a span) on or off for spans begun on
    /// the calling thread from now on. Off by default; LaunchHarness turns it on
    /// for the main thread while profiling.
    public static func setResourceAccounting(_ enabled: Bool) {
        ResourceAccounting.setEnabledForCurrentThread(enabled)
    }

    /// Discards recorded events, metadata, samples and usage.
    public static func resetAll() {
        reset()
        TraceAttachments.reset()
    }
}
