import LaunchTracing

/// What a span's blocked time was spent waiting on, as reports name it.
///
/// Made from what the sampler saw (``LaunchTracing/ThreadSample/Wait``), plus
/// ``unknown`` for time off the CPU that no sample explained. Time runnable but
/// waiting for a CPU is not a wait kind: it is contention
/// (``SpanRecord/runQueueNanoseconds``).
///
/// ```swift
/// let blocked = span.blockedNanoseconds[.network] ?? 0
/// ```
public enum WaitKind: String, Sendable, Hashable, CaseIterable, Codable, CodingKeyRepresentable {
    /// Blocking disk I/O.
    case disk
    /// A network request.
    case network
    /// A lock, semaphore or condition.
    case lock
    /// A sleep.
    case sleep
    /// A child process: waiting for it to exit (`wait4`, `waitid`) or to start.
    case process
    /// A pipe, a named pipe (FIFO) or a local (Unix-domain) socket.
    case ipc
    /// An event loop: `poll`, `epoll_wait`, `select`.
    case event
    /// Something else the sampler saw (an `eventfd`, a terminal, a call it does not know).
    case other
    /// Time off the CPU that no sample explained.
    case unknown

    /// The kind a sampled wait stands for; nil for a thread that was not waiting.
    public init?(_ wait: ThreadSample.Wait) {
        switch wait {
        case .none: return nil
        case .disk: self = .disk
        case .network: self = .network
        case .lock: self = .lock
        case .sleep: self = .sleep
        case .process: self = .process
        case .ipc: self = .ipc
        case .event: self = .event
        case .other: self = .other
        }
    }
}
