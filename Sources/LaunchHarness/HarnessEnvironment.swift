import LaunchTracing

/// What the harness was asked to do through the environment (set by
/// `launchprof measure`, or by hand).
struct HarnessEnvironment: Sendable {
    /// `LAUNCHPROF_EXIT_AFTER_LAUNCH=1`: flush the trace and exit once launch ends.
    var exitAfterLaunch = false
    /// `LAUNCHPROF_HOT_LAUNCHES=N`: run the hook sequence N more times in this process.
    var hotLaunches = 0
    /// `LAUNCHPROF_LAUNCH_OPTIONS`: the launch options as JSON.
    var options: LaunchOptions?
    /// True when `LAUNCHPROF_TRACE` is set: a profiler is watching, so the main
    /// thread is sampled and its spans' resource usage accounted.
    var profiling = false
    /// `LAUNCHPROF_SAMPLER=0` turns the sampler off; `LAUNCHPROF_SAMPLE_INTERVAL_US` sets its period.
    var samplerEnabled = true
    /// While the main thread runs the sampler only looks at its context switches (a perf
    /// event's records, in memory) once a period, where the system allows it;
    /// `LAUNCHPROF_SAMPLER=periodic` has it sample every period instead.
    var samplerSleepsWhileRunning = true
    var sampleIntervalMicroseconds = 1_000
    /// `LAUNCHPROF_GRACE_MS`: the longest launch may run past the first frame before
    /// the harness calls it ended (default 5,000 ms).
    var graceMilliseconds = 5_000.0

    static func fromProcess() throws(HarnessError) -> HarnessEnvironment {
        var environment = HarnessEnvironment()
        func value(_ name: String) -> String? { ProcessEnvironment.value(name).flatMap { $0.isEmpty ? nil : $0 } }
        /// The setting's value when set, refused when the harness cannot use it.
        func checked(_ setting: LaunchContract.HarnessSetting) throws(HarnessError) -> String? {
            guard let text = value(setting.name) else { return nil }
            guard setting.accepts(text) else {
                throw .badEnvironment(name: setting.name, value: text, expected: setting.expected)
            }
            return text
        }
        func integer(_ setting: LaunchContract.HarnessSetting) throws(HarnessError) -> Int? {
            try checked(setting).flatMap(setting.wholeNumber)
        }
        environment.exitAfterLaunch = value(LaunchContract.Variable.exitAfterLaunch) == "1"
        environment.hotLaunches = try integer(.hotLaunches) ?? 0
        if let json = value(LaunchContract.Variable.launchOptions) {
            do { environment.options = try LaunchOptions(json: json) } catch { throw .badLaunchOptions(error) }
        }
        // The tracer writes on the ready pipe; a value it cannot use is stopped here, as every other variable is.
        _ = try checked(.readyDescriptor)
        environment.profiling = value(LaunchContract.Variable.trace) != nil
        let sampler = try checked(.sampler)
        environment.samplerEnabled = sampler != "0"
        environment.samplerSleepsWhileRunning = sampler != "periodic"
        environment.sampleIntervalMicroseconds = try integer(.sampleInterval) ?? 1_000
        if let grace = try integer(.grace) {
            environment.graceMilliseconds = Double(grace)
        }
        return environment
    }
}
