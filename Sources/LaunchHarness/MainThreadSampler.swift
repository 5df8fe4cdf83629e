import LaunchTracing

/// Samples what one thread (the main thread) is doing, about every millisecond,
/// from a thread of its own: its scheduler state and the system call it is
/// blocked in (Linux: `/proc/self/task/<tid>/stat` and `.../syscall`), and for
/// I/O the kind of descriptor. Each sample is classified by
/// ``BlockingClassifier``.
///
/// Cost: the sampler's own CPU time divided by its samples is measured and
/// recorded in the trace's metadata (`sampler.costNsPerSample`). It runs on its
/// own thread; on a machine with a spare core the main thread pays almost nothing.
///
/// ```swift
/// let sampler = MainThreadSampler(threadID: mainThreadID, intervalMicroseconds: 1_000)
/// sampler.start()
/// // … launch …
/// let samples = sampler.stop()
/// ```
public final class MainThreadSampler: @unchecked Sendable {
    /// The sampled thread (OS thread id).
    public let threadID: UInt64
    /// The sampling period.
    public let intervalNanoseconds: UInt64
    private let capacity: Int
    private var samples: [ThreadSample] = []
    private var stopRequested = Platform.AtomicFlag()
    private var finished = Platform.Semaphore()
    private var started = false
    /// The sampler thread's own CPU time per sample, measured while it ran; valid after ``stop()``.
    public private(set) var costNanosecondsPerSample: UInt64 = 0

    /// The OS id of the calling thread (Linux: `gettid`), the id to sample it by.
    public static var currentThreadID: UInt64 { Platform.currentThreadID }

    /// Prepares to sample thread `threadID` of this process every `intervalMicroseconds`.
    public init(threadID: UInt64, intervalMicroseconds: Int, maximumSamples: Int = 120_000) {
        self.threadID = threadID
        self.intervalNanoseconds = UInt64(intervalMicroseconds) * 1_000
        self.capacity = maximumSamples
        samples.reserveCapacity(maximumSamples)
    }

    /// Starts sampling on a new thread. Call it once.
    public func start() {
        guard !started else { return }
        started = true
        Platform.startThread(name: "launchprof-sampler") { [self] in run() }
    }

    /// Stops sampling and returns what was seen (nothing, if it never started).
    /// Call it from the thread that called ``start()``.
    public func stop() -> [ThreadSample] {
        guard started else { return [] }
        stopRequested.set()
        finished.wait()
        started = false
        return samples
    }

    private func run() {
        defer { finished.signal() }
        guard let probe = Platform.ThreadProbe(threadID: threadID) else { return }
        let usageBefore = ResourceUsage.currentThread()
        var next = MonotonicClock.nanoseconds
        while !stopRequested.isSet, samples.count < capacity {
            if let observation = probe.observe() {
                let kind = observation.syscall >= 0 ? BlockingClassifier.kind(ofSyscall: observation.syscall) : .other
                var descriptors: [BlockingClassifier.DescriptorKind] = []
                if observation.syscall >= 0, observation.state != UInt8(ascii: "R") {
                    switch kind {
                    case .descriptorIO:
                        descriptors = [Platform.descriptorKind(Int32(truncatingIfNeeded: observation.arguments.0))]
                    case .poll:
                        descriptors = Platform.pollDescriptorKinds(
                            address: UInt(observation.arguments.0), count: Int(observation.arguments.1))
                    default: break
                    }
                }
                let wait = BlockingClassifier.classify(
                    state: observation.state, syscall: observation.syscall, kind: kind, descriptors: descriptors)
                samples.append(ThreadSample(
                    nanoseconds: observation.nanoseconds, osThreadID: threadID, state: observation.state,
                    syscall: observation.syscall, wait: wait))
            }
            next += intervalNanoseconds
            let now = MonotonicClock.nanoseconds
            if next < now { next = now + intervalNanoseconds / 2 }
            Platform.sleep(untilMonotonic: next)
        }
        let cpu = ResourceUsage.currentThread().since(usageBefore).cpuNanoseconds
        costNanosecondsPerSample = samples.isEmpty ? 0 : cpu / UInt64(samples.count)
    }
}
