/// A rule of the advisor, with a stable id that reports and CI filters use.
///
/// ```swift
/// let network = profile.findings.filter { $0.rule == .mainThreadNetwork }
/// ```
public enum AdvisorRule: String, Sendable, Hashable, CaseIterable, Codable {
    /// The main thread blocked on disk I/O (major page faults included) before the first frame.
    case mainThreadDiskIO = "main-thread-disk-io"
    /// The main thread wrote a file synchronously, or flushed one to disk
    /// (`fsync`), before the first frame, in any run, whatever it cost there.
    case mainThreadDiskWrite = "main-thread-disk-write"
    /// The main thread waited on the network before the first frame.
    case mainThreadNetwork = "main-thread-network"
    /// The main thread waited on a lock or semaphore before the first frame.
    case mainThreadLockWait = "main-thread-lock-wait"
    /// The main thread slept before the first frame.
    case mainThreadSleep = "main-thread-sleep"
    /// The main thread waited for a child process (`wait4`, `waitid`) or for one to start, before the first frame.
    case mainThreadProcessWait = "main-thread-process-wait"
    /// The main thread waited on a pipe, a named pipe or a local (Unix-domain) socket before the first frame.
    case mainThreadIPCWait = "main-thread-ipc-wait"
    /// The main thread waited in an event loop (`poll`, `epoll_wait`, `select`) before the first frame.
    case mainThreadEventWait = "main-thread-event-wait"
    /// The main thread was blocked on something the sampler could not name, or
    /// off the CPU with no sample in any run (a wait of unknown kind, with its measured cost).
    case mainThreadBlocked = "main-thread-blocked"
    /// Long CPU work before the first frame that the first frame does not need.
    case deferrableCPUWork = "deferrable-cpu-work"
    /// Long CPU work the first frame needs.
    case slowRequiredWork = "slow-required-work"
    /// A launch hook took longer than its budget.
    case hookOverBudget = "hook-over-budget"
    /// A named span took longer than its budget.
    case spanOverBudget = "span-over-budget"
    /// A launch into the background took longer than its limit.
    case backgroundLaunchOverLimit = "background-launch-over-limit"

    /// The stable id, such as `main-thread-network`.
    public var id: String { rawValue }

    /// What a finding of this rule means, in one sentence.
    public var meaning: String {
        switch self {
        case .mainThreadDiskIO: return "the main thread blocked on disk I/O before the first frame"
        case .mainThreadDiskWrite: return "the main thread wrote a file or flushed one to disk before the first frame"
        case .mainThreadNetwork: return "the main thread waited on the network before the first frame"
        case .mainThreadLockWait: return "the main thread waited on a lock or semaphore before the first frame"
        case .mainThreadSleep: return "the main thread slept before the first frame"
        case .mainThreadProcessWait: return "the main thread waited for a child process before the first frame"
        case .mainThreadIPCWait: return "the main thread waited on a pipe or local socket before the first frame"
        case .mainThreadEventWait:
            return "the main thread waited in an event loop (poll, epoll, select) before the first frame"
        case .mainThreadBlocked: return "the main thread was blocked on something the sampler could not name"
        case .deferrableCPUWork: return "long CPU work before the first frame that the first frame does not need"
        case .slowRequiredWork: return "long CPU work the first frame needs"
        case .hookOverBudget: return "a launch hook took longer than its budget"
        case .spanOverBudget: return "a named span took longer than its budget"
        case .backgroundLaunchOverLimit: return "a launch into the background took longer than its limit"
        }
    }

    /// The rule for main-thread blocking of `kind`.
    public init(blockingOn kind: WaitKind) {
        switch kind {
        case .disk: self = .mainThreadDiskIO
        case .network: self = .mainThreadNetwork
        case .lock: self = .mainThreadLockWait
        case .sleep: self = .mainThreadSleep
        case .process: self = .mainThreadProcessWait
        case .ipc: self = .mainThreadIPCWait
        case .event: self = .mainThreadEventWait
        case .other, .unknown: self = .mainThreadBlocked
        }
    }
}
