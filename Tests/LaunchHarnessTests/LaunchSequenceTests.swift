import Dispatch
import Foundation
import LaunchHarness
import LaunchTracing
import LaunchTracingTestSupport
import Testing

/// One launch run in-process by `LaunchApplication.simulateLaunch`, recorded by
/// `LaunchTraceRecorder`: the order of the hooks and milestones, and the remedies.
@Suite("Launch sequence")
struct LaunchSequenceTests {
    /// The thread the hooks ran on.
    static func launchThread(_ trace: Trace) throws -> TraceThread {
        try #require(
            trace.threads.first { thread in
                thread.events.contains { $0.kind == .span && trace.name(of: $0) == "willFinishLaunching" }
            })
    }

    /// The milestones marked on `thread`, in the order they were recorded.
    static func marks(on thread: TraceThread) -> [(milestone: Milestone, nanoseconds: UInt64)] {
        thread.events.filter { $0.kind == .mark }.map { (Milestone(rawValue: $0.category), $0.beginNanoseconds) }
    }

    // MARK: Milestones

    final class TimedDelegate: LaunchDelegate {
        static let clock = ManualLaunchClock()
        required init() {}

        func willFinishLaunching(_ app: LaunchApplication, options: LaunchOptions) -> Bool {
            Self.clock.advance(byMilliseconds: 10)
            app.reportsFullyDrawn = true
            return true
        }

        func didFinishLaunching(_ app: LaunchApplication, options: LaunchOptions) -> Bool {
            Self.clock.advance(byMilliseconds: 20)
            app.deferUntilAfterFirstFrame("LoadRest") {
                Self.clock.advance(byMilliseconds: 7)
                app.reportFullyDrawn()
                app.reportFullyDrawn()  // marked once per launch
            }
            return true
        }

        func didBecomeActive(_ app: LaunchApplication) {
            Self.clock.advance(byMilliseconds: 3)
        }
    }

    @Test func milestonesComeInOrderWithExactGapsOnAManualClock() throws {
        let start: UInt64 = 1_000_000_000
        var outcome: LaunchOutcome?
        let trace = LaunchTraceRecorder.record(clock: TimedDelegate.clock) {
            outcome = LaunchApplication.simulateLaunch(delegate: TimedDelegate.self)
        }
        let marks = Self.marks(on: try Self.launchThread(trace))
        #expect(
            marks.map(\.milestone) == [
                .willFinishLaunchingBegin, .willFinishLaunchingEnd, .didFinishLaunchingBegin, .didFinishLaunchingEnd,
                .didBecomeActive, .firstFrame, .fullyDrawn,
            ])
        let ms: UInt64 = 1_000_000
        #expect(marks.map { $0.nanoseconds - start } == [0, 10 * ms, 10 * ms, 30 * ms, 33 * ms, 33 * ms, 40 * ms])
        #expect(trace.spans(named: "willFinishLaunching").map(\.durationNanoseconds) == [10 * ms])
        #expect(trace.spans(named: "didFinishLaunching").map(\.durationNanoseconds) == [20 * ms])
        let deferred = try #require(trace.spans(named: "LoadRest").first)
        #expect(deferred.durationNanoseconds == 7 * ms)
        #expect(SpanCategory(rawValue: deferred.category) == .deferred)
        #expect(trace.file(of: deferred) == "LaunchHarnessTests/LaunchSequenceTests.swift")

        let result = try #require(outcome)
        #expect(result.willFinishReturned && result.didFinishReturned)
        #expect(result.firstFrameMarked)
        #expect(result.fullyDrawnMarked)
        #expect(!result.graceExpired)
    }

    final class PlainDelegate: LaunchDelegate {
        static let journal = Locked<[String]>([])
        required init() {}
        func willFinishLaunching(_ app: LaunchApplication, options: LaunchOptions) -> Bool {
            Self.journal.append("willFinishLaunching")
            return true
        }
        func didFinishLaunching(_ app: LaunchApplication, options: LaunchOptions) -> Bool {
            Self.journal.append("didFinishLaunching")
            return true
        }
        func didBecomeActive(_ app: LaunchApplication) { Self.journal.append("didBecomeActive") }
        func open(_ app: LaunchApplication, url: String) -> Bool {
            Self.journal.append("open")
            return true
        }
    }

    @Test func milestonesAreInOrderWithNonNegativeGapsOnTheRealClock() throws {
        var outcome: LaunchOutcome?
        var journal: [String] = []
        let trace = LaunchTraceRecorder.record {
            PlainDelegate.journal.value = []
            outcome = LaunchApplication.simulateLaunch(delegate: PlainDelegate.self)
            // Read while the recorder is held: the suite's other tests launch PlainDelegate too, in parallel.
            journal = PlainDelegate.journal.value
        }
        #expect(journal == ["willFinishLaunching", "didFinishLaunching", "didBecomeActive"])
        let marks = Self.marks(on: try Self.launchThread(trace))
        // No fullyDrawn: the delegate did not say it would report it.
        #expect(
            marks.map(\.milestone) == [
                .willFinishLaunchingBegin, .willFinishLaunchingEnd, .didFinishLaunchingBegin, .didFinishLaunchingEnd,
                .didBecomeActive, .firstFrame,
            ])
        for (earlier, later) in zip(marks, marks.dropFirst()) {
            #expect(later.nanoseconds >= earlier.nanoseconds, "\(later.milestone) before \(earlier.milestone)")
        }
        // The hook spans sit between their milestones.
        let will = try #require(trace.spans(named: "willFinishLaunching").first)
        #expect(will.beginNanoseconds >= marks[0].nanoseconds && will.endNanoseconds <= marks[1].nanoseconds)
        #expect(outcome?.firstFrameMarked == true)
        #expect(outcome?.fullyDrawnMarked == false)
        #expect(outcome?.openedURL == false)  // a user tap has no URL
    }

    @Test func theHookSpansPointAtTheAppsCallSiteNotTheHarnesss() throws {
        let line = #line + 3
        let trace = LaunchTraceRecorder.record {
            PlainDelegate.journal.value = []
            LaunchApplication.simulateLaunch(delegate: PlainDelegate.self)
        }
        for hook in LaunchHook.allCases {
            let span = try #require(trace.spans(named: hook.rawValue).first)
            #expect(trace.file(of: span) == #fileID, "\(hook): \(trace.file(of: span))")
            #expect(span.line == UInt32(line))
        }
    }

    @Test func optionsAndBudgetAreRecordedInTheTrace() {
        let options = LaunchOptions(reason: .url, url: "readinglist://book/42", sourceApplication: "com.example.mail")
        let budget = LaunchBudget(timeToFirstFrameMs: 250, hooksMs: [.didFinishLaunching: 100])
        let trace = LaunchTraceRecorder.record {
            LaunchApplication.simulateLaunch(delegate: PlainDelegate.self, options: options, budget: budget)
        }
        #expect(trace.metadata["launch.options"] == options.json)
        #expect(trace.metadata["launch.budget"] == budget.json)
        #expect(trace.metadata["launch.hotLaunches"] == "0")
    }

    // MARK: Hooks returning false

    final class RefusingDelegate: LaunchDelegate {
        /// What the hooks return, and what happened.
        static let returns = Locked((will: true, did: true))
        static let opened = Locked<[String]>([])
        required init() {}
        func willFinishLaunching(_ app: LaunchApplication, options: LaunchOptions) -> Bool { Self.returns.value.will }
        func didFinishLaunching(_ app: LaunchApplication, options: LaunchOptions) -> Bool { Self.returns.value.did }
        func open(_ app: LaunchApplication, url: String) -> Bool {
            Self.opened.append(url)
            return true
        }
    }

    struct HookReturns: Sendable, CustomStringConvertible {
        var will: Bool
        var did: Bool
        var description: String { "willFinishLaunching → \(will), didFinishLaunching → \(did)" }
    }

    @Test(arguments: [
        HookReturns(will: false, did: true), HookReturns(will: true, did: false), HookReturns(will: false, did: false),
    ])
    func aHookReturningFalseIsRecordedAndTheURLIsNotOpened(_ returns: HookReturns) throws {
        let options = LaunchOptions(reason: .url, url: "readinglist://book/7")
        var outcome: LaunchOutcome?
        var opened: [String] = []
        let trace = LaunchTraceRecorder.record {
            RefusingDelegate.returns.value = (returns.will, returns.did)
            RefusingDelegate.opened.value = []
            outcome = LaunchApplication.simulateLaunch(delegate: RefusingDelegate.self, options: options)
            opened = RefusingDelegate.opened.value
        }
        #expect(opened.isEmpty)
        let result = try #require(outcome)
        #expect(result.willFinishReturned == returns.will)
        #expect(result.didFinishReturned == returns.did)
        #expect(!result.openedURL)
        #expect(trace.events(named: "launchHookReturnedFalse").count == 1)
        #expect(trace.spans(named: "openURL").isEmpty)
        #expect(trace.metadata["launch.0.willFinishLaunchingReturned"] == "\(returns.will)")
        #expect(trace.metadata["launch.0.didFinishLaunchingReturned"] == "\(returns.did)")
        // The launch still goes on to its first frame, as in UIKit.
        #expect(result.firstFrameMarked)
    }

    @Test func whenBothHooksReturnTrueTheURLIsOpened() throws {
        let options = LaunchOptions(reason: .url, url: "readinglist://book/7")
        var outcome: LaunchOutcome?
        var opened: [String] = []
        let trace = LaunchTraceRecorder.record {
            RefusingDelegate.returns.value = (true, true)
            RefusingDelegate.opened.value = []
            outcome = LaunchApplication.simulateLaunch(delegate: RefusingDelegate.self, options: options)
            opened = RefusingDelegate.opened.value
        }
        #expect(opened == ["readinglist://book/7"])
        #expect(outcome?.openedURL == true)
        #expect(trace.events(named: "launchHookReturnedFalse").isEmpty)
        #expect(trace.spans(named: "openURL").count == 1)
        #expect(trace.metadata["launch.0.willFinishLaunchingReturned"] == nil)
    }

    // MARK: Remedies

    final class DeferringDelegate: LaunchDelegate {
        static let journal = Locked<[String]>([])
        required init() {}
        func willFinishLaunching(_ app: LaunchApplication, options: LaunchOptions) -> Bool {
            app.deferUntilAfterFirstFrame("DeferredFromWillFinish") { Self.journal.append("deferred 1") }
            Self.journal.append("willFinishLaunching")
            return true
        }
        func didFinishLaunching(_ app: LaunchApplication, options: LaunchOptions) -> Bool {
            app.deferUntilAfterFirstFrame("DeferredFromDidFinish") { Self.journal.append("deferred 2") }
            Self.journal.append("didFinishLaunching")
            return true
        }
        func didBecomeActive(_ app: LaunchApplication) { Self.journal.append("didBecomeActive") }
    }

    @Test func deferredWorkRunsOnTheMainThreadAfterTheFirstFrame() throws {
        var journal: [String] = []
        let trace = LaunchTraceRecorder.record {
            DeferringDelegate.journal.value = []
            LaunchApplication.simulateLaunch(delegate: DeferringDelegate.self)
            journal = DeferringDelegate.journal.value
        }
        #expect(
            journal == ["willFinishLaunching", "didFinishLaunching", "didBecomeActive", "deferred 1", "deferred 2"])
        let thread = try Self.launchThread(trace)
        let names = thread.events.map { trace.name(of: $0) }
        let firstFrame = try #require(names.firstIndex(of: "firstFrame"))
        let firstFrameTime = thread.events[firstFrame].beginNanoseconds
        for label in ["DeferredFromWillFinish", "DeferredFromDidFinish"] {
            // On the launch (main) thread, recorded after the first frame was marked.
            let index = try #require(names.firstIndex(of: label), "\(label) did not run on the launch thread")
            #expect(index > firstFrame, "\(label) ran before the first frame")
            #expect(thread.events[index].beginNanoseconds >= firstFrameTime)
        }
    }

    /// Defers "early" in the hook, then, in the window between the first frame
    /// falling due and its mark, has another thread defer "late" and waits until
    /// that call has returned: the interleaving that once let "late" overtake "early".
    final class RacingDeferralDelegate: LaunchDelegate {
        static let journal = Locked<[String]>([])
        required init() {}
        func didFinishLaunching(_ app: LaunchApplication, options: LaunchOptions) -> Bool {
            app.deferUntilAfterFirstFrame("DeferredEarly") { Self.journal.append("early") }
            app.afterFirstFrameDue = { [unowned app] in
                let returned = DispatchSemaphore(value: 0)
                Thread.detachNewThread {
                    app.deferUntilAfterFirstFrame("DeferredLate") { Self.journal.append("late") }
                    returned.signal()
                }
                returned.wait()
            }
            return true
        }
    }

    @Test func workDeferredFromAnotherThreadAsTheFrameFallsDueRunsAfterEarlierDeferredWork() throws {
        var journal: [String] = []
        let trace = LaunchTraceRecorder.record {
            RacingDeferralDelegate.journal.value = []
            LaunchApplication.simulateLaunch(delegate: RacingDeferralDelegate.self)
            journal = RacingDeferralDelegate.journal.value
        }
        #expect(journal == ["early", "late"])
        let thread = try Self.launchThread(trace)
        let names = thread.events.map { trace.name(of: $0) }
        let firstFrame = try #require(names.firstIndex(of: "firstFrame"))
        let early = try #require(names.firstIndex(of: "DeferredEarly"))
        let late = try #require(names.firstIndex(of: "DeferredLate"))
        #expect(firstFrame < early && early < late)
    }

    @Test func aBackgroundLaunchHasNoFirstFrameAndRunsDeferredWorkAnyway() throws {
        var journal: [String] = []
        var outcome: LaunchOutcome?
        let trace = LaunchTraceRecorder.record {
            DeferringDelegate.journal.value = []
            outcome = LaunchApplication.simulateLaunch(
                delegate: DeferringDelegate.self, options: LaunchOptions(reason: .backgroundFetch))
            journal = DeferringDelegate.journal.value
        }
        // No didBecomeActive in the background; deferred work does not wait for a frame that never comes.
        #expect(!journal.contains("didBecomeActive"))
        #expect(Set(journal) == ["willFinishLaunching", "didFinishLaunching", "deferred 1", "deferred 2"])
        let milestones = Self.marks(on: try Self.launchThread(trace)).map(\.milestone)
        #expect(
            milestones == [
                .willFinishLaunchingBegin, .willFinishLaunchingEnd, .didFinishLaunchingBegin, .didFinishLaunchingEnd,
            ])
        #expect(outcome?.firstFrameMarked == false)
        #expect(outcome?.graceExpired == false)
    }

    final class BackgroundDelegate: LaunchDelegate {
        static let journal = Locked<[String]>([])
        static let hookThread = Locked<UInt64>(0)
        static let workThread = Locked<UInt64>(0)
        required init() {}
        func didFinishLaunching(_ app: LaunchApplication, options: LaunchOptions) -> Bool {
            Self.hookThread.value = System.currentThreadID
            // The background work cannot finish before the main thread, after the
            // first frame, lets it: launch must wait for it all the same.
            let afterFirstFrame = DispatchSemaphore(value: 0)
            app.runInBackground("BackgroundWork") {
                Self.workThread.value = System.currentThreadID
                afterFirstFrame.wait()
                Self.journal.append("background work finished")
            }
            app.deferUntilAfterFirstFrame("ReleaseBackgroundWork") {
                Self.journal.append("first frame drawn")
                afterFirstFrame.signal()
            }
            return true
        }
    }

    @Test func backgroundWorkRunsOnAnotherThreadAndLaunchWaitsForIt() throws {
        var journal: [String] = []
        var outcome: LaunchOutcome?
        let trace = LaunchTraceRecorder.record {
            BackgroundDelegate.journal.value = []
            outcome = LaunchApplication.simulateLaunch(delegate: BackgroundDelegate.self)
            journal = BackgroundDelegate.journal.value
        }
        // simulateLaunch returned only once the background work had finished.
        #expect(journal == ["first frame drawn", "background work finished"])
        #expect(outcome?.graceExpired == false)
        #expect(BackgroundDelegate.workThread.value != 0)
        #expect(BackgroundDelegate.workThread.value != BackgroundDelegate.hookThread.value)

        let span = try #require(trace.spans(named: "BackgroundWork").first)
        #expect(!span.isOpen)
        #expect(SpanCategory(rawValue: span.category) == .background)
        let spanThread = try #require(trace.threads.first { $0.events.contains(span) })
        #expect(spanThread.osThreadID != (try Self.launchThread(trace)).osThreadID)
        let firstFrame = try #require(trace.milestones.first { $0.milestone == .firstFrame })
        #expect(span.endNanoseconds >= firstFrame.nanoseconds)
    }

    final class FullyDrawnFromBackgroundDelegate: LaunchDelegate {
        static let finished = Locked<Bool>(false)
        static let checksum = Locked<UInt64>(0)
        required init() {}
        func willFinishLaunching(_ app: LaunchApplication, options: LaunchOptions) -> Bool {
            app.reportsFullyDrawn = true
            return true
        }
        func didFinishLaunching(_ app: LaunchApplication, options: LaunchOptions) -> Bool {
            app.runInBackground("FinishAfterFullyDrawn") {
                // Launch ends at fully drawn, which the main thread marks before this block goes on.
                let drawn = DispatchSemaphore(value: 0)
                app.runOnMain {
                    app.reportFullyDrawn()
                    drawn.signal()
                }
                drawn.wait()
                LaunchTracer.measure("AfterFullyDrawn") {
                    var x: UInt64 = 1
                    for _ in 0..<2_000_000 { x = x &* 6364136223846793005 &+ 1 }
                    Self.checksum.value = x
                }
                Self.finished.value = true
            }
            return true
        }
    }

    /// Launch ended at fully drawn while a background block was still recording: the
    /// simulated launch returns only once that block returned, so the recorder's reset
    /// after it finds no thread recording (ThreadSanitizer found the reset racing it).
    @Test func aSimulatedLaunchReturnsAfterItsBackgroundWorkEvenPastFullyDrawn() throws {
        var finishedOnReturn = false
        var outcome: LaunchOutcome?
        let trace = LaunchTraceRecorder.record {
            FullyDrawnFromBackgroundDelegate.finished.value = false
            outcome = LaunchApplication.simulateLaunch(delegate: FullyDrawnFromBackgroundDelegate.self)
            finishedOnReturn = FullyDrawnFromBackgroundDelegate.finished.value
        }
        #expect(outcome?.fullyDrawnMarked == true)
        #expect(outcome?.graceExpired == false)
        #expect(finishedOnReturn)
        let after = try #require(trace.spans(named: "AfterFullyDrawn").first)
        #expect(!after.isOpen)
        let block = try #require(trace.spans(named: "FinishAfterFullyDrawn").first)
        #expect(!block.isOpen)
    }

    final class SignallingDelegate: LaunchDelegate {
        static let clock = ManualLaunchClock()
        required init() {}
        func didFinishLaunching(_ app: LaunchApplication, options: LaunchOptions) -> Bool {
            app.waitsForFirstFrameSignal = true
            app.runInBackground("LoadFirstScreen") {
                Self.clock.advance(byMilliseconds: 15)
                LaunchTracer.instant("FirstScreenLoaded")
                app.firstFrameReady()
            }
            return true
        }
    }

    @Test func theFirstFrameWaitsForItsSignalWhenAsked() throws {
        let start: UInt64 = 1_000_000_000
        let trace = LaunchTraceRecorder.record(clock: SignallingDelegate.clock) {
            LaunchApplication.simulateLaunch(delegate: SignallingDelegate.self)
        }
        let loaded = try #require(trace.events(named: "FirstScreenLoaded").first)
        let firstFrame = try #require(trace.milestones.first { $0.milestone == .firstFrame })
        let didBecomeActive = try #require(trace.milestones.first { $0.milestone == .didBecomeActive })
        // The clock moved only on the background thread, before the signal; the
        // background work may run before or after didBecomeActive, but the frame
        // waits for the signal.
        #expect(didBecomeActive.nanoseconds == start || didBecomeActive.nanoseconds == start + 15_000_000)
        #expect(loaded.beginNanoseconds == start + 15_000_000)
        #expect(firstFrame.nanoseconds == start + 15_000_000)
        #expect(firstFrame.nanoseconds >= didBecomeActive.nanoseconds)
    }

    final class NeverFullyDrawnDelegate: LaunchDelegate {
        required init() {}
        func willFinishLaunching(_ app: LaunchApplication, options: LaunchOptions) -> Bool {
            app.reportsFullyDrawn = true
            return true
        }
    }

    @Test func launchEndsWhenTheGracePeriodRunsOut() throws {
        var outcome: LaunchOutcome?
        let trace = LaunchTraceRecorder.record {
            outcome = LaunchApplication.simulateLaunch(delegate: NeverFullyDrawnDelegate.self, graceMilliseconds: 20)
        }
        let result = try #require(outcome)
        #expect(result.graceExpired)
        #expect(result.firstFrameMarked)
        #expect(!result.fullyDrawnMarked)
        #expect(trace.events(named: "launchGraceExpired").count == 1)
        #expect(!trace.milestones.contains { $0.milestone == .fullyDrawn })
    }
}
