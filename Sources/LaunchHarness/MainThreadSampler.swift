import LaunchTracing

/// Samples what one thread (the main thread) is doing, about every millisecond,
/// from a thread of its own: its scheduler state and the system call it is
/// blocked in (Linux: `/proc/self/task/<tid>/stat` and `.../syscall`), and for
/// I/O the kind of descriptor. Each sample is classified by
/// ``BlockingClassifier``.
///
/// What a wait is on is named too (``LaunchTracing/WaitTarget``): the file behind
/// the descriptor of the blocked call, a socket's peer, a named pipe, the command
/// of the child waited for, a sleep's requested length, the path an `openat`
/// names. That is resolved once per wait — consecutive samples in the same call
/// with the same arguments reuse it — and for at most
/// ``maximumResolutions`` waits a launch, so a long wait costs one resolution, not
/// one per sample.
///
/// Cost: the sampler's own CPU time divided by its samples is measured and
/// recorded in the trace's metadata (`sampler.costNsPerSample`). It runs on its
/// own thread; on a machine with a spare core the main thread pays almost nothing.
///
/// With `sleepsWhileRunning` (opt-in: `LAUNCHPROF_SAMPLER=switches`) it samples only while the thread
/// is off the CPU by its own doing: it sleeps while the thread runs and is woken
/// when the thread blocks (Linux: a perf event's context-switch records), then
/// samples every period until the thread runs again. A running thread's samples
/// say only "running", which per-span accounting already measures exactly, so
/// what is lost is nothing the analysis uses, and a wait is caught at its start,
/// however short. A switch that did not block (the thread came back, or was
/// preempted) is looked at again a period later, so the sampler never wakes more
/// often than the timer would. Where no such watch exists it samples every period.
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
    /// True when the sampler sleeps while the thread runs (see the type's discussion).
    public let sleepsWhileRunning: Bool
    /// Wakes the sampler when the thread blocks; nil when sampling every period.
    private let watch: Platform.SwitchWatch?

    /// How many distinct waits a sampler names at most; later ones are classified
    /// by their system call and state alone.
    public static let maximumResolutions = 4_096

    /// The OS id of the calling thread (Linux: `gettid`), the id to sample it by.
    public static var currentThreadID: UInt64 { Platform.currentThreadID }

    /// Prepares to sample thread `threadID` of this process every `intervalMicroseconds`;
    /// with `sleepsWhileRunning`, only while it is blocked, where the system can say
    /// when it blocks (else every period all the same).
    public init(
        threadID: UInt64, intervalMicroseconds: Int, maximumSamples: Int = 120_000, sleepsWhileRunning: Bool = false
    ) {
        self.threadID = threadID
        self.intervalNanoseconds = UInt64(intervalMicroseconds) * 1_000
        self.capacity = maximumSamples
        self.watch = sleepsWhileRunning ? Platform.SwitchWatch(threadID: threadID) : nil
        self.sleepsWhileRunning = watch != nil
        samples.reserveCapacity(maximumSamples)
    }

    /// Starts sampling on a new thread. Call it once.
    public func start() {
        guard !started else { return }
        started = true
        DetachedThread.start(name: "launchprof-sampler") { [self] in run() }
    }

    /// Stops sampling and returns what was seen (nothing, if it never started).
    /// Call it from the thread that called ``start()``.
    public func stop() -> [ThreadSample] {
        guard started else { return [] }
        stopRequested.set()
        watch?.interrupt()
        finished.wait()
        started = false
        return samples
    }

    private func run() {
        defer { finished.signal() }
        guard let probe = Platform.ThreadProbe(threadID: threadID) else { return }
        let usageBefore = ResourceUsage.currentThread()
        var next = MonotonicClock.nanoseconds
        var resolver = WaitResolver(thread: threadID)
        var lastWasRunning = false
        while !stopRequested.isSet, samples.count < capacity {
            lastWasRunning = true
            if let observation = probe.observe() {
                lastWasRunning = observation.state == UInt8(ascii: "R")
                let kind = observation.syscall >= 0 ? BlockingClassifier.kind(ofSyscall: observation.syscall) : .other
                var described = WaitResolver.Described(descriptors: [], target: nil)
                if observation.syscall >= 0, observation.state != UInt8(ascii: "R") {
                    described = resolver.describe(observation, kind: kind)
                }
                let wait = BlockingClassifier.classify(
                    state: observation.state, syscall: observation.syscall, kind: kind,
                    descriptors: described.descriptors)
                samples.append(
                    ThreadSample(
                        nanoseconds: observation.nanoseconds, osThreadID: threadID, state: observation.state,
                        syscall: observation.syscall, wait: wait, target: wait == .none ? nil : described.target))
            }
            next += intervalNanoseconds
            let now = MonotonicClock.nanoseconds
            if next < now { next = now + intervalNanoseconds / 2 }
            Platform.sleep(untilMonotonic: next)
            if let watch, waitUntilBlocked(watch, lastWasRunning: lastWasRunning) {
                next = MonotonicClock.nanoseconds  // a period from this sample on
            }
        }
        let cpu = ResourceUsage.currentThread().since(usageBefore).cpuNanoseconds
        costNanosecondsPerSample = samples.isEmpty ? 0 : cpu / UInt64(samples.count)
    }

    /// Returns at once while the thread is blocked (or its state is not known and the
    /// last sample did not find it running); else sleeps until it blocks, looking
    /// again a period after each switch that did not block. True when it waited.
    private func waitUntilBlocked(_ watch: Platform.SwitchWatch, lastWasRunning: Bool) -> Bool {
        let switchesBefore = watch.switches
        var state = watch.drain()
        // The last sample found it runnable although it had blocked, and it has not switched
        // since: it was woken and waits for a core (run-queue time, which accounting measures).
        if state == .unknown || (state == .blocked && watch.switches == switchesBefore), lastWasRunning {
            state = .running
        }
        var waited = false
        while state == .running, !stopRequested.isSet {
            waited = true
            state = watch.waitForSwitch()
            guard state == .running else { break }
            // It came back or was preempted (the sampler's own wake-up can preempt it): look
            // again a period later, not at every switch, so that cannot feed on itself.
            Platform.sleep(untilMonotonic: MonotonicClock.nanoseconds + intervalNanoseconds)
            state = watch.drain()  // unknown: records were lost; take a sample to know
        }
        return waited
    }
}

/// Names what a blocked call waits on, once per wait: the same call with the same
/// arguments as the previous sample reuses the previous answer.
struct WaitResolver {
    struct Described {
        var descriptors: [BlockingClassifier.DescriptorKind]
        var target: WaitTarget?
    }

    let thread: UInt64
    private var last: (syscall: Int32, arguments: [UInt64], described: Described)?
    private var resolutions = 0
    /// A process wait whose child is not named yet, and how many samples have looked at it.
    private var unnamed: (syscall: Int32, arguments: [UInt64], looks: Int)?
    /// How many samples look again at one process wait whose child is not named (not yet exec'd)
    /// before it is left unnamed: a forked worker that never execs is not looked at for the whole wait.
    static let maximumLooksAtAnUnnamedChild = 64

    init(thread: UInt64) { self.thread = thread }

    mutating func describe(_ observation: Platform.Observation, kind: BlockingClassifier.SyscallKind) -> Described {
        let arguments = [
            observation.arguments.0, observation.arguments.1, observation.arguments.2, observation.arguments.3,
        ]
        if let last, last.syscall == observation.syscall, last.arguments == arguments { return last.described }
        // Looking again at the same unnamed process wait is one resolution, not one a sample.
        let again = unnamed.map { $0.syscall == observation.syscall && $0.arguments == arguments } ?? false
        if !again {
            guard resolutions < MainThreadSampler.maximumResolutions else {
                return Described(descriptors: [], target: nil)
            }
            resolutions += 1
            unnamed = nil
        }
        let described = Self.resolve(kind, arguments: arguments, thread: thread)
        // A child not yet exec'd is not named yet: the same wait's next samples look again, a bounded number of times.
        if case .process = kind, described.target == nil {
            let looks = (again ? unnamed?.looks ?? 0 : 0) + 1
            if looks < Self.maximumLooksAtAnUnnamedChild {
                unnamed = (observation.syscall, arguments, looks)
                return described
            }
        }
        unnamed = nil
        last = (observation.syscall, arguments, described)
        return described
    }

    private static func resolve(_ kind: BlockingClassifier.SyscallKind, arguments: [UInt64], thread: UInt64)
        -> Described
    {
        switch kind {
        case .descriptorIO:
            let descriptor = Platform.describeDescriptor(Int32(truncatingIfNeeded: arguments[0]))
            return Described(descriptors: [descriptor.kind], target: descriptor.target)
        case .poll:
            let polled = Platform.describePollDescriptors(address: arguments[0], count: arguments[1])
            return Described(descriptors: polled.kinds, target: polled.target)
        case .disk(let pathArgument, let descriptorArgument):
            if let pathArgument, let target = Platform.pathArgument(address: arguments[pathArgument]) {
                return Described(descriptors: [], target: target)
            }
            if descriptorArgument {
                let descriptor = Platform.describeDescriptor(Int32(truncatingIfNeeded: arguments[0]))
                return Described(descriptors: [descriptor.kind], target: descriptor.target)
            }
            return Described(descriptors: [], target: nil)
        case .sleep(let requestArgument):
            // clock_nanosleep(clock, flags, request, remain): TIMER_ABSTIME (1) makes the request a deadline.
            let deadline = requestArgument == 2 && arguments[1] & 1 != 0 ? arguments[0] : nil
            return Described(
                descriptors: [], target: Platform.sleepLength(address: arguments[requestArgument], deadlineOn: deadline)
            )
        case .process(let waitid):
            // wait4(pid, …); waitid(idtype, id, …) with P_PID = 1.
            let pid: Int64 =
                waitid
                ? (arguments[0] == 1 ? Int64(truncatingIfNeeded: arguments[1]) : -1)
                : Int64(Int32(truncatingIfNeeded: arguments[0]))
            return Described(descriptors: [], target: Platform.childCommand(pid: pid, thread: thread))
        case .network, .lock, .event, .other:
            return Described(descriptors: [], target: nil)
        }
    }
}
