/// The main thread's run loop: a queue of work posted from any thread, run in
/// turns on the main thread.
final class MainLoop: @unchecked Sendable {
    private let condition = Platform.Condition()
    private var queue: [() -> Void] = []
    /// Set by ``wake()``, cleared by the wait it ends (so a wake just before a wait is not lost).
    private var woken = false

    /// Queues `work` for the next turn. Any thread.
    func post(_ work: @escaping () -> Void) {
        condition.withLock {
            queue.append(work)
            condition.signal()
        }
    }

    /// True when nothing is queued.
    var isIdle: Bool { condition.withLock { queue.isEmpty } }

    /// Runs what is queued now (not what those tasks queue in turn). Main thread.
    func runTurn() {
        let tasks = condition.withLock { () -> [() -> Void] in
            defer { queue.removeAll() }
            return queue
        }
        for task in tasks { task() }
    }

    /// Blocks until work is queued, ``wake()`` is called, or `deadline`
    /// (CLOCK_MONOTONIC ns) passes.
    func waitForWork(until deadline: UInt64) {
        condition.withLock {
            defer { woken = false }
            while queue.isEmpty, !woken {
                if !condition.wait(untilMonotonic: deadline) { return }
            }
        }
    }

    /// Wakes a waiting turn without queueing work. Any thread.
    func wake() {
        condition.withLock {
            woken = true
            condition.signal()
        }
    }
}
