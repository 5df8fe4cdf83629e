import LaunchTracing

/// One launch, in the system's order: delegate, `willFinishLaunching`,
/// `didFinishLaunching`, the URL if any, `didBecomeActive`, then main-loop turns
/// until the first frame and the end of extended launch.
struct LaunchSequence {
    let app: LaunchApplication
    let graceMilliseconds: Double
    /// Where the app started the harness (`LaunchApplication.main` or
    /// `simulateLaunch`): the hooks' spans carry this call site, the app's.
    let fileID: StaticString
    let filePath: StaticString
    let line: UInt

    @discardableResult
    func run<D: LaunchDelegate>(_ type: D.Type, index: Int) -> LaunchOutcome {
        app.resetForLaunch(index: index)
        if index > 0 { LaunchTracer.instant(LaunchContract.hotLaunchInstant, category: .harness) }
        let delegate = D()

        let will = LaunchHook.willFinishLaunching.run(fileID: fileID, filePath: filePath, line: line) {
            delegate.willFinishLaunching(app, options: app.options)
        }
        let did = LaunchHook.didFinishLaunching.run(fileID: fileID, filePath: filePath, line: line) {
            delegate.didFinishLaunching(app, options: app.options)
        }

        var openedURL = false
        if !will || !did {
            // As UIKit: a hook returning false means the launch URL is not opened.
            LaunchTracer.instant("launchHookReturnedFalse", category: .harness)
            LaunchTracer.setMetadata(
                "\(will)", forKey: LaunchContract.MetadataKey.willFinishLaunchingReturned(launch: index))
            LaunchTracer.setMetadata(
                "\(did)", forKey: LaunchContract.MetadataKey.didFinishLaunchingReturned(launch: index))
        } else if app.options.reason == .url, let url = app.options.url {
            openedURL = LaunchTracer.measure("openURL", category: .harness) { delegate.open(app, url: url) }
        }

        if !app.options.isBackground {
            LaunchTracer.measure("didBecomeActive", category: .harness) { delegate.didBecomeActive(app) }
            LaunchTracer.mark(.didBecomeActive)
        }

        let graceExpired = runUntilLaunchEnds()
        return withExtendedLifetime(delegate) {
            LaunchOutcome(
                willFinishReturned: will, didFinishReturned: did, openedURL: openedURL,
                firstFrameMarked: app.firstFrameMarked, fullyDrawnMarked: app.fullyDrawnMarked,
                graceExpired: graceExpired)
        }
    }

    /// Turns the main loop until launch ends; true when the grace period ran out.
    private func runUntilLaunchEnds() -> Bool {
        var deadline = UInt64.max
        while true {
            app.loop.runTurn()
            app.markFirstFrameIfDue()
            if deadline == .max, app.firstFrameMarked || app.options.isBackground {
                // Any grace given in code (NaN, negative, 1e300) is held within range rather than trapped on.
                deadline = MonotonicClock.nanoseconds.adding(nanoseconds: min(graceMilliseconds * 1_000_000, 0x1p62))
            }
            if app.launchHasEnded { return false }
            if MonotonicClock.nanoseconds >= deadline {
                LaunchTracer.instant("launchGraceExpired", category: .harness)
                return true
            }
            // Before the first frame, turn again at once: the frame is due.
            if app.firstFrameMarked || app.options.isBackground || app.waitsForFirstFrameSignal {
                app.loop.waitForWork(until: min(deadline, MonotonicClock.nanoseconds + 5_000_000))
            }
        }
    }

    /// The main loop of an app that keeps running after launch.
    func runForever() -> Never {
        while true {
            app.loop.runTurn()
            app.loop.waitForWork(until: MonotonicClock.nanoseconds + 1_000_000_000)
        }
    }
}
