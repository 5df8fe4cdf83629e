import Dispatch
import LaunchTracing

/// The application object: runs the launch hooks the way the system does, marks
/// every milestone, and offers the remedies the advisor recommends.
///
/// ``main(delegate:budget:options:exitAfterLaunch:)`` is the equivalent of
/// `UIApplicationMain`: it creates the application and the delegate, calls the
/// hooks on the main thread in order, then runs the main loop. The first frame is
/// taken as the first main-loop turn after `didBecomeActive` — or, when the app
/// sets ``waitsForFirstFrameSignal``, the first turn after ``firstFrameReady()``.
///
/// ```swift
/// LaunchApplication.main(delegate: AppDelegate.self)
/// ```
///
/// Under `launchprof measure` (`LAUNCHPROF_TRACE` set) the harness also samples
/// what the main thread is blocked in and accounts each main-thread span's CPU
/// time, context switches and page faults.
public final class LaunchApplication: @unchecked Sendable {
    /// Why the app was launched.
    public let options: LaunchOptions
    /// The launch budget declared in code (reports compare against it).
    public let budget: LaunchBudget
    /// 0 for the process's launch, 1… for hot launches.
    public internal(set) var launchIndex = 0

    /// Set in a launch hook when the first frame needs more than the hooks (for
    /// example data loaded after them): the frame then waits for ``firstFrameReady()``.
    public var waitsForFirstFrameSignal = false
    /// Set in a launch hook when the app will call ``reportFullyDrawn()``: extended
    /// launch then lasts until it does.
    public var reportsFullyDrawn = false

    let loop = MainLoop()
    private let lock = Platform.Condition()
    private var state = LaunchState()
    /// Blocks ``runInBackground(_:fileID:filePath:line:_:)`` started that have not
    /// returned, whatever launch started them (unlike the launch's own count, never reset).
    private var backgroundRunning = 0

    struct LaunchState {
        var firstFrameSignalled = false
        var firstFrameMarked = false
        var fullyDrawnMarked = false
        var deferred: [() -> Void] = []
        var backgroundPending = 0
    }

    init(options: LaunchOptions, budget: LaunchBudget) {
        self.options = options
        self.budget = budget
    }

    // MARK: Signals from the app

    /// The app's first frame has what it needs. Any thread.
    public func firstFrameReady() {
        lock.withLock { state.firstFrameSignalled = true }
        loop.wake()
    }

    /// Extended launch is over: the app is fully usable. Marks `fullyDrawn` once
    /// per launch. Any thread.
    public func reportFullyDrawn() {
        let first = lock.withLock { () -> Bool in
            defer { state.fullyDrawnMarked = true }
            return !state.fullyDrawnMarked
        }
        guard first else { return }
        LaunchTracer.mark(.fullyDrawn)
        loop.wake()
    }

    // MARK: Remedies

    /// Runs `work` on the main thread after the first frame, in a span named
    /// `label` (category `deferred`) that points at this call site.
    ///
    /// The remedy for CPU work the first frame does not need.
    public func deferUntilAfterFirstFrame(
        _ label: StaticString, fileID: StaticString = #fileID, filePath: StaticString = #filePath, line: UInt = #line,
        _ work: @escaping () -> Void
    ) {
        LaunchTracer.instant(
            "deferUntilAfterFirstFrame", category: .deferred, fileID: fileID, filePath: filePath, line: line)
        let task = {
            let span = LaunchTracer.begin(label, category: .deferred, fileID: fileID, filePath: filePath, line: line)
            work()
            span.end()
        }
        // Posted under the lock, as the first frame posts what was deferred before
        // it: deferred work runs in the order it was deferred, from any thread.
        lock.withLock {
            if state.firstFrameMarked || options.isBackground {
                loop.post(task)
            } else {
                state.deferred.append(task)
            }
        }
    }

    /// Runs `work` on a background queue, in a span named `label` (category
    /// `background`) that points at this call site. Launch is not over until it
    /// finishes (unless the app reports fully drawn first).
    ///
    /// The remedy for blocking I/O, network and waits on the main thread.
    public func runInBackground(
        _ label: StaticString, fileID: StaticString = #fileID, filePath: StaticString = #filePath, line: UInt = #line,
        _ work: @escaping @Sendable () -> Void
    ) {
        LaunchTracer.instant("runInBackground", category: .background, fileID: fileID, filePath: filePath, line: line)
        lock.withLock {
            state.backgroundPending += 1
            backgroundRunning += 1
        }
        DispatchQueue.global(qos: .utility).async { [self] in
            let span = LaunchTracer.begin(label, category: .background, fileID: fileID, filePath: filePath, line: line)
            work()
            span.end()
            lock.withLock {
                state.backgroundPending -= 1
                backgroundRunning -= 1
                lock.signal()
            }
            loop.wake()
        }
    }

    /// Waits until every block ``runInBackground(_:fileID:filePath:line:_:)`` started
    /// has returned (its span ended), or `deadline` (CLOCK_MONOTONIC ns) passes;
    /// true when none is left running.
    func waitForBackgroundWork(until deadline: UInt64) -> Bool {
        lock.withLock {
            while backgroundRunning > 0 {
                if !lock.wait(untilMonotonic: deadline) { return backgroundRunning == 0 }
            }
            return true
        }
    }

    /// Runs `work` on the main thread at the next main-loop turn. Any thread.
    public func runOnMain(_ work: @escaping () -> Void) {
        loop.post(work)
    }

    // MARK: Internals for LaunchSequence

    func resetForLaunch(index: Int) {
        launchIndex = index
        waitsForFirstFrameSignal = false
        reportsFullyDrawn = false
        lock.withLock { state = LaunchState() }
    }

    /// Marks the first frame if it is due and queues the work deferred until it.
    ///
    /// The frame is marked due and the deferred work queued in one critical
    /// section: a thread that defers work once the frame is due queues it behind
    /// everything deferred before (``deferUntilAfterFirstFrame(_:fileID:filePath:line:_:)``
    /// queues under the same lock). The tracer's mark comes after; the queued
    /// work runs on the main thread, which is here, so it still runs after the mark.
    func markFirstFrameIfDue() {
        let due = lock.withLock { () -> Bool in
            guard !state.firstFrameMarked, !options.isBackground,
                !waitsForFirstFrameSignal || state.firstFrameSignalled
            else { return false }
            state.firstFrameMarked = true
            for task in state.deferred { loop.post(task) }
            state.deferred.removeAll()
            return true
        }
        guard due else { return }
        afterFirstFrameDue?()
        LaunchTracer.mark(.firstFrame)
    }

    /// Tests only: runs on the main thread between the first frame falling due and
    /// its mark, the window in which another thread's deferral once overtook
    /// earlier deferred work.
    package var afterFirstFrameDue: (() -> Void)?

    /// True when launch (including extended launch) has ended.
    var launchHasEnded: Bool {
        let idle = loop.isIdle
        return lock.withLock {
            if state.fullyDrawnMarked { return true }
            let shown = state.firstFrameMarked || options.isBackground
            return shown && !reportsFullyDrawn && idle && state.deferred.isEmpty && state.backgroundPending == 0
        }
    }

    var firstFrameMarked: Bool { lock.withLock { state.firstFrameMarked } }
    var fullyDrawnMarked: Bool { lock.withLock { state.fullyDrawnMarked } }

}
