import _LaunchTracingShims

/// The process's per-thread buffers. Threads register on their first event
/// (the slow path); the registry keeps buffers after their thread exits, so
/// nothing recorded is lost.
@usableFromInline
final class ThreadRegistry: @unchecked Sendable {
    static let shared = ThreadRegistry()

    struct Entry {
        let buffer: UnsafeMutablePointer<lp_thread_buffer>
        let capacity: Int
        let index: UInt32
        let osThreadID: UInt64
        let name: String?
        let isMain: Bool
    }

    private let lock = Lock()
    private var entries: [Entry] = []
    private var capacity: Int
    private var exitFlushClaimed = false
    private var exitHandlerInstalled = false

    private init() {
        capacity = ProcessEnvironment.value(LaunchContract.Variable.eventsPerThread).flatMap { Int($0) }.map { max(0, $0) }
            ?? 32_768
    }

    var eventsPerThread: Int {
        get { lock.withLock { capacity } }
        set { lock.withLock { capacity = newValue } }
    }

    /// Creates, pre-faults and installs the calling thread's buffer.
    @usableFromInline @inline(never)
    static func registerCurrentThread() -> UnsafeMutablePointer<lp_thread_buffer> {
        if let existing = lp_current_buffer() { return existing }
        return shared.register()
    }

    private func register() -> UnsafeMutablePointer<lp_thread_buffer> {
        let count = lock.withLock { capacity }
        let bytes = count * MemoryLayout<lp_event>.stride
        let storage = Platform.allocateResident(bytes: bytes)?.bindMemory(to: lp_event.self, capacity: count)
        let usable = storage == nil ? 0 : count
        let buffer = UnsafeMutablePointer<lp_thread_buffer>.allocate(capacity: 1)
        buffer.initialize(to: lp_thread_buffer(
            next: storage, limit: storage.map { $0 + usable }, dropped: 0, start: storage, accounting: 0))
        let osThreadID = lp_thread_id(), name = Platform.currentThreadName(), isMain = lp_is_main_thread() != 0
        let installExitHandler = lock.withLock { () -> Bool in
            entries.append(Entry(
                buffer: buffer, capacity: usable, index: UInt32(entries.count), osThreadID: osThreadID,
                name: name, isMain: isMain))
            defer { exitHandlerInstalled = true }
            return !exitHandlerInstalled
        }
        lp_set_current_buffer(buffer)
        if installExitHandler { LaunchTracer.flushAtExitIfRequested() }
        return buffer
    }

    /// A consistent copy of the registered threads.
    func snapshot() -> [Entry] {
        lock.withLock { entries }
    }

    func reset() {
        lock.withLock {
            for entry in entries {
                entry.buffer.pointee.next = entry.buffer.pointee.start
                entry.buffer.pointee.dropped = 0
            }
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
