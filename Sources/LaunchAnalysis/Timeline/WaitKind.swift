import LaunchTracing

/// What a span's blocked time was spent waiting on, as reports name it.
///
/// Made from what the sampler saw (``LaunchTracing/ThreadSample/Wait``), plus
/// ``unknown`` for time off the CPU that no sample explained.
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
    /// Something else the sampler saw (a pipe, a poll on several kinds).
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
        case .other: self = .other
        }
    }

    /// How a sentence names it: "disk I/O", "the network", "a lock or semaphore"…
    public var phrase: String {
        switch self {
        case .disk: return "disk I/O"
        case .network: return "the network"
        case .lock: return "a lock or semaphore"
        case .sleep: return "a sleep"
        case .other, .unknown: return "something the sampler could not name"
        }
    }
}
