import Dispatch
import Foundation
import Testing

@testable import LaunchHarness

/// The main thread's run loop: work posted from any thread runs in turns, and
/// a wake ends a wait even with nothing queued.
@Suite("Main loop")
struct MainLoopTests {
    @Test func aTurnRunsWhatWasQueuedInOrderAndNotWhatItQueues() {
        let loop = MainLoop()
        let journal = Locked<[String]>([])
        loop.post { journal.append("first") }
        loop.post {
            journal.append("second")
            loop.post { journal.append("queued by second") }
        }
        #expect(!loop.isIdle)
        loop.runTurn()
        #expect(journal.value == ["first", "second"])
        #expect(!loop.isIdle)
        loop.runTurn()
        #expect(journal.value == ["first", "second", "queued by second"])
        #expect(loop.isIdle)
    }

    @Test func postingFromAnotherThreadEndsAWait() {
        let loop = MainLoop()
        let deadline = System.monotonicNanoseconds + 5_000_000_000
        Thread { loop.post {} }.start()
        loop.waitForWork(until: deadline)
        #expect(System.monotonicNanoseconds < deadline)
        #expect(!loop.isIdle)
    }

    /// `firstFrameReady()`, `reportFullyDrawn()` and the end of background work
    /// wake the loop without queueing anything: the launch must notice at once,
    /// not at the next poll. A wake that comes before the wait must not be lost.
    @Test func aWakeEndsAWaitWithNothingQueued() {
        let loop = MainLoop()
        let deadline = System.monotonicNanoseconds + 5_000_000_000
        Thread { loop.wake() }.start()
        loop.waitForWork(until: deadline)
        #expect(System.monotonicNanoseconds < deadline, "the wake was swallowed: the wait ran to its deadline")
        #expect(loop.isIdle)
    }

    @Test func aWaitWithNothingToDoEndsAtItsDeadline() {
        let loop = MainLoop()
        let deadline = System.monotonicNanoseconds + 20_000_000
        loop.waitForWork(until: deadline)
        #expect(System.monotonicNanoseconds >= deadline)
    }
}
