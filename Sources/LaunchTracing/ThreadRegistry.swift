import _LaunchTracingShims

/// The process's per-thread event lists. A thread registers on its first event
/// (the slow path) with an empty list; its chunks come from the process-wide
/// trace arena as it records (`lp_refill`). The registry keeps a thread's events
/// after it exits, until they are flushed or reset, so nothing recorded is lost.
@usableFromInline
final class ThreadRegistry: @unchecked Sendable {
    static let shared = ThreadRegistry()

    struct Entry {
        let buffer: UnsafeMutablePointer<lp_thread_buffer>
        let index: UInt32
        let osThreadID: UInt64
        let isMain: Bool
    }

    private let lock = Lock()
    /// The entries in registration order (`count` of `capacity`), in memory of their own
    /// rather than an array: the first registration, the main thread's before the launch,
    /// then instantiates no generic type (a Swift array of a new element type costs the
    /// runtime's metadata look-ups and their first page faults, about 0.1 ms of a traced
    /// launch's time to its first frame on a 2-core virtual machine).
    private var entries: UnsafeMutablePointer<Entry>?
    private var count = 0
    private var capacity = 0
    private var nextIndex: UInt32 = 0
    private var exitFlushClaimed = false
    private var exitHandlerInstalled = false

    private init() {}

    /// True when the process was started to write a trace (`LAUNCHPROF_TRACE`).
    private static let tracesToFile: Bool = {
        guard let path = ProcessEnvironment.value(LaunchContract.Variable.trace) else { return false }
        return !path.isEmpty
    }()

    /// Creates and installs the calling thread's (empty) event list. Costs a
    /// lock, a small allocation and two system calls (thread id, process id);
    /// no event memory is touched until the first event takes a chunk. The
    /// thread's name is not read here (several microseconds on some kernels, the
    /// cost of a hundred spans): it is read at flush, or kept at the thread's exit.
    @usableFromInline @inline(never)
    static func registerCurrentThread() -> UnsafeMutablePointer<lp_thread_buffer> {
        if let existing = lp_current_buffer() { return existing }
        return shared.register()
    }

    private func register() -> UnsafeMutablePointer<lp_thread_buffer> {
        let buffer = UnsafeMutablePointer<lp_thread_buffer>.allocate(capacity: 1)
        buffer.initialize(to: lp_thread_buffer())  // all zero: no chunk, not accounting, not exited
        let osThreadID = lp_thread_id()
        let isMain = lp_is_main_thread_id(osThreadID) != 0
        // A traced launch (LAUNCHPROF_TRACE set) accounts the main thread's spans from its first event, so an
        // app that links the tracer alone gets CPU and off-CPU time per span, as the harness's apps do
        // (not a counted launch: see ResourceAccounting.isAvailable).
        if isMain, Self.tracesToFile, ResourceAccounting.isAvailable { buffer.pointee.accounting = 1 }
        let installExitHandler = lock.withLock { () -> Bool in
            append(Entry(buffer: buffer, index: nextIndex, osThreadID: osThreadID, isMain: isMain))
            nextIndex += 1
            defer { exitHandlerInstalled = true }
            return !exitHandlerInstalled
        }
        lp_adopt_buffer(buffer)
        if installExitHandler { LaunchTracer.flushAtExitIfRequested() }
        return buffer
    }

    /// Appends `entry`, growing the storage by doubling. Call it holding `lock`.
    private func append(_ entry: Entry) {
        if count == capacity {
            let grown = UnsafeMutablePointer<Entry>.allocate(capacity: max(16, capacity * 2))
            if let entries {
                grown.moveInitialize(from: entries, count: count)
                entries.deallocate()
            }
            entries = grown
            capacity = max(16, capacity * 2)
        }
        (entries! + count).initialize(to: entry)
        count += 1
    }

    /// A consistent copy of the registered threads.
    func snapshot() -> [Entry] {
        lock.withLock { entries.map { Array(UnsafeBufferPointer(start: $0, count: count)) } ?? [] }
    }

    /// Discards every event: live threads keep their chunks for reuse; threads
    /// that exited are forgotten and their chunks go back to the arena.
    func reset() {
        lock.withLock {
            lp_long_ends_clear()
            guard let entries else { return }
            var kept = 0
            for index in 0..<count {
                let entry = entries[index]
                // The exit flag is set by the thread's destructor, concurrently: read it atomically.
                if lp_buffer_has_exited(entry.buffer) == 0 {
                    lp_buffer_rewind(entry.buffer)
                    lp_account_rewind(entry.buffer)
                    entries[kept] = entry
                    kept += 1
                } else {
                    lp_buffer_release(entry.buffer)
                    lp_account_release(entry.buffer)
                    entry.buffer.deallocate()
                }
            }
            count = kept
        }
    }

    /// True the first time it is called: the exit flush happens once.
    func claimExitFlush() -> Bool {
        lock.withLock {
            defer { exitFlushClaimed = true }
            return !exitFlushClaimed
        }
    }
}
