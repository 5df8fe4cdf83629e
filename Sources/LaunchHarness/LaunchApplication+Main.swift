import LaunchTracing

extension LaunchApplication {
    /// Runs the app: the equivalent of `UIApplicationMain`. Never returns.
    ///
    /// Marks `main`, creates the application and a `D`, runs the launch hooks in
    /// the system's order and then the main loop. Launch ends when the app is fully
    /// drawn, or at the first frame with no deferred or background work left, or
    /// a grace period after the first frame (`LAUNCHPROF_GRACE_MS`, default 5 s).
    /// Then, when `LAUNCHPROF_TRACE` names a file, the trace is written there —
    /// once: an app that keeps running (run by hand) has its trace without
    /// exiting, and its later exit writes no second one. With `exitAfterLaunch`
    /// (or `LAUNCHPROF_EXIT_AFTER_LAUNCH=1`, which `launchprof measure` sets) it
    /// then exits; otherwise it runs the main loop for ever.
    ///
    /// - Parameters:
    ///   - delegate: The delegate type; a fresh instance is made for every launch.
    ///   - budget: The launch budget, recorded in the trace for reports.
    ///   - options: The launch options; default `LAUNCHPROF_LAUNCH_OPTIONS`, else a user tap.
    ///   - exitAfterLaunch: Exit once launch ends even without the environment variable.
    ///   - fileID, filePath, line: The call site the hooks' spans point at (the app's); leave the defaults.
    public static func main<D: LaunchDelegate>(
        delegate: D.Type,
        budget: LaunchBudget = .default,
        options: LaunchOptions? = nil,
        exitAfterLaunch: Bool = false,
        fileID: StaticString = #fileID,
        filePath: StaticString = #filePath,
        line: UInt = #line
    ) -> Never {
        // The harness writes the trace itself when launch ends, not at the first frame.
        ReadyFlush.disable()
        LaunchTracer.mark(.main)
        let environment: HarnessEnvironment
        do {
            environment = try HarnessEnvironment.fromProcess()
        } catch {
            Platform.fail("launch harness: \(error)")
        }
        let app = LaunchApplication(
            options: options ?? environment.options ?? .userTap, budget: budget)
        var sampler: MainThreadSampler?
        if environment.profiling {
            LaunchTracer.setResourceAccounting(true)
            if environment.samplerEnabled {
                sampler = MainThreadSampler(
                    threadID: Platform.currentThreadID, intervalMicroseconds: environment.sampleIntervalMicroseconds,
                    sleepsWhileRunning: environment.samplerSleepsWhileRunning)
                sampler?.start()
            }
        }
        app.recordMetadata(hotLaunches: environment.hotLaunches)

        let sequence = LaunchSequence(
            app: app, graceMilliseconds: environment.graceMilliseconds, fileID: fileID, filePath: filePath, line: line)
        sequence.run(D.self, index: 0)
        for index in 0..<environment.hotLaunches {
            sequence.run(D.self, index: index + 1)
        }

        // Launch has ended: the trace (when LAUNCHPROF_TRACE names one) is written
        // now, once, whether the app exits or keeps running.
        finishTrace(sampler: sampler)
        guard environment.exitAfterLaunch || exitAfterLaunch else {
            sequence.runForever()
        }
        ReadyPipe.write(.done)
        Platform.exitProcess(0)
    }

    /// Stops the sampler, adds its samples and writes the trace to
    /// `LAUNCHPROF_TRACE`. The tracer writes it once per process, so the exit
    /// that may follow writes no second one; what the app records after this
    /// is not in the file.
    static func finishTrace(sampler: MainThreadSampler?) {
        if let sampler {
            let samples = sampler.stop()
            LaunchTracer.appendSamples(samples)
            LaunchTracer.setMetadata(
                String(sampler.costNanosecondsPerSample), forKey: LaunchContract.MetadataKey.samplerCost)
            LaunchTracer.setMetadata(
                String(sampler.setupNanoseconds), forKey: LaunchContract.MetadataKey.samplerSetup)
            LaunchTracer.setMetadata(
                Platform.syscallArchitecture, forKey: LaunchContract.MetadataKey.samplerArchitecture)
            LaunchTracer.setMetadata(
                sampler.sleepsWhileRunning ? "switches" : "periodic", forKey: LaunchContract.MetadataKey.samplerMode)
            LaunchTracer.setMetadata(String(sampler.wakeups), forKey: LaunchContract.MetadataKey.samplerWakeups)
        }
        // What per-span accounting cost the main thread (this one), in system calls.
        LaunchTracer.setMetadata(
            String(LaunchTracer.accountingSystemCalls), forKey: LaunchContract.MetadataKey.accountingSystemCalls)
        LaunchTracer.setMetadata(
            String(LaunchTracer.accountingReadingsWithoutSystemCall),
            forKey: LaunchContract.MetadataKey.accountingReadingsWithoutSystemCall)
        LaunchTracer.flushForExit()
    }

    /// Runs one launch of `D` on the calling thread and returns when it ends,
    /// without exiting: for unit tests of launch code (pair it with
    /// `LaunchTraceRecorder` and a `ManualLaunchClock`) and for hot launches.
    ///
    /// It returns once launch has ended and the blocks the app started with
    /// ``runInBackground(_:fileID:filePath:line:_:)`` have returned too (waiting up to
    /// `graceMilliseconds` more for them): launch may end at ``reportFullyDrawn()``
    /// while such a block is still finishing, and a test that then resets or reads
    /// the tracer must not find it recording. Work the app started otherwise
    /// (its own queues or threads) is the app's to wait for.
    ///
    /// ```swift
    /// let trace = LaunchTraceRecorder.record {
    ///     _ = LaunchApplication.simulateLaunch(delegate: AppDelegate.self)
    /// }
    /// ```
    @discardableResult
    public static func simulateLaunch<D: LaunchDelegate>(
        delegate: D.Type,
        options: LaunchOptions = .userTap,
        budget: LaunchBudget = .default,
        graceMilliseconds: Double = 5_000,
        fileID: StaticString = #fileID,
        filePath: StaticString = #filePath,
        line: UInt = #line
    ) -> LaunchOutcome {
        let app = LaunchApplication(options: options, budget: budget)
        app.recordMetadata(hotLaunches: 0)
        let outcome = LaunchSequence(
            app: app, graceMilliseconds: graceMilliseconds, fileID: fileID, filePath: filePath, line: line
        ).run(D.self, index: 0)
        // Any grace given in code (NaN, negative, 1e300) is held within range rather than trapped on.
        _ = app.waitForBackgroundWork(
            until: MonotonicClock.nanoseconds.adding(nanoseconds: min(graceMilliseconds * 1_000_000, 0x1p62)))
        return outcome
    }

    /// Records the launch's options, budget, hot launches and the harness's version in the
    /// trace: made into text when the trace is written, not before the launch, where it would
    /// count in the time to first frame.
    func recordMetadata(hotLaunches: Int) {
        let options = options
        let budget = budget
        LaunchTracer.setMetadataWhenWritten {
            [
                LaunchContract.MetadataKey.launchOptions: options.json,
                LaunchContract.MetadataKey.budget: budget.json,
                LaunchContract.MetadataKey.hotLaunches: String(hotLaunches),
                LaunchContract.MetadataKey.harnessVersion: LaunchProfVersion.string,
            ]
        }
    }
}

/// How one launch went, as the harness saw it.
public struct LaunchOutcome: Sendable, Equatable {
    /// What `willFinishLaunching` returned.
    public var willFinishReturned: Bool
    /// What `didFinishLaunching` returned.
    public var didFinishReturned: Bool
    /// Whether the launch URL was handed to the delegate.
    public var openedURL: Bool
    public var firstFrameMarked: Bool
    public var fullyDrawnMarked: Bool
    /// True when launch was called ended because the grace period ran out.
    public var graceExpired: Bool
}
