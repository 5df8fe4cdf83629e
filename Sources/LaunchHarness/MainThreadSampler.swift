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
/// Cost: the sampler's own CPU time is measured in two parts and recorded in the
/// trace's metadata: its set-up (`sampler.setupNs`: opening the watch below and
/// the thread's files, the sample buffer, the tracer's populater started), then
/// what each sample cost (`sampler.costNsPerSample`, the rest over the samples).
/// It runs on its own thread, and everything that costs is done there, not on the
/// sampled thread.
///
/// With `sleepsWhileRunning` (the harness's default; `LAUNCHPROF_SAMPLER=periodic`
/// turns it off) it samples only while the thread is off the CPU by its own doing:
/// while the thread runs it only looks, once a period, at the thread's context-switch
/// records (Linux: a perf event's ring, read from memory, no system call), and samples
/// once they say the thread blocked, then every period until it runs again. A running
/// thread's samples say only "running", which per-span accounting already measures
/// exactly, so what is lost is nothing the analysis uses. A wait is caught within a
/// period of its start; one shorter than a period may end before a look and go
/// unnamed (its time is in the span's accounting all the same). The kernel is not
/// asked to wake the sampler at each switch: on a 2-core virtual machine that cost a
/// 30 ms launch about 0.1 ms more (Benchmarks/RESULTS.md). It keeps itself off the
/// CPU the thread last ran on, where its wake-ups would preempt the thread. Where no such watch
/// exists (perf events forbidden, another OS, valgrind) it samples every period
/// (`/proc` read each time). Sampling every period cost a CPU-bound 30 ms launch about
/// 0.3 ms more than looking at the switches on a 2-core virtual machine, though both
/// wake the sampler's thread each period. The watch also tells per-span accounting
/// when the thread has not left the CPU since its last reading, so the thread's next
/// reading takes no system call (`lp_account_count_switches`).
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
    /// The sampler thread's own CPU time from its first sample on, over its samples; valid after
    /// ``stop()``. Its looks at the switches between samples are in it: with the few samples of a
    /// CPU-bound launch, it is mostly what the looks cost (about 20 µs each on a virtual machine).
    public private(set) var costNanosecondsPerSample: UInt64 = 0
    /// The sampler thread's own CPU time before its first sample (its set-up: the switch
    /// watch, the thread's files, the sample buffer, the tracer's populater); valid after ``stop()``.
    public private(set) var setupNanoseconds: UInt64 = 0
    /// How many times the sampler's thread woke (its voluntary context switches); valid after ``stop()``.
    public private(set) var wakeups: UInt64 = 0
    /// True when the sampler only looks at the thread's switches while it runs (see the
    /// type's discussion): before ``start()`` whether that was asked for; after ``stop()``
    /// whether the system allowed it (else the sampler sampled every period).
    public private(set) var sleepsWhileRunning: Bool
    /// The CPU the thread ran on when the sampler was made (-1: not known, or made on another thread).
    private let initialCPU: Int32
    /// The switch watch while the sampler's thread has one open (guarded by `watchLock`), for ``stop()`` to interrupt.
    private var openWatch: Platform.SwitchWatch?
    private let watchLock = Platform.Condition()

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
        self.sleepsWhileRunning = sleepsWhileRunning
        self.initialCPU = threadID == Platform.currentThreadID ? Platform.currentCPU : -1
    }

    /// Starts sampling on a new thread. Call it once.
    public func start() {
        guard !started else { return }
        started = true
        // Looking at the switches, it keeps off the thread's CPU (see `SwitchWatch.keepAway()`), from its start.
        DetachedThread.start(name: "launchprof-sampler", avoidingCPU: sleepsWhileRunning ? initialCPU : -1) {
            [self] in run()
        }
    }

    /// Stops sampling and returns what was seen (nothing, if it never started).
    /// Call it from the thread that called ``start()``.
    public func stop() -> [ThreadSample] {
        guard started else { return [] }
        stopRequested.set()
        watchLock.withLock { openWatch?.interrupt() }
        finished.wait()
        started = false
        return samples
    }

    private func run() {
        defer { finished.signal() }
        let usageBefore = ResourceUsage.currentThread()
        // Everything that costs is paid here, on the sampler's thread, not the sampled one's.
        let watch = sleepsWhileRunning ? Platform.SwitchWatch(threadID: threadID, cpu: initialCPU) : nil
        sleepsWhileRunning = watch != nil
        watchLock.withLock { openWatch = watch }
        defer { watchLock.withLock { openWatch = nil } }
        guard let probe = Platform.ThreadProbe(threadID: threadID) else { return }
        samples.reserveCapacity(capacity)
        // The tracer's populater (which makes the trace's memory resident ahead of the
        // recording thread) is started from here rather than by the sampled thread at its
        // first request, mid-launch: starting a thread costs the starting one tens of
        // microseconds on a virtual machine. It inherits this thread's CPUs (not the
        // sampled thread's, where its start would preempt it).
        Platform.startTracePopulater()
        var next = MonotonicClock.nanoseconds
        var resolver = WaitResolver(thread: threadID)
        watch?.keepAway()
        let usageAtFirstSample = ResourceUsage.currentThread()
        setupNanoseconds = usageAtFirstSample.since(usageBefore).cpuNanoseconds
        while !stopRequested.isSet, samples.count < capacity {
            let running = sample(probe, resolver: &resolver)
            if let watch, running {
                // It runs: look once a period until it blocked, then sample at once (a period from there on).
                guard waitUntilBlocked(watch) else { break }
                next = MonotonicClock.nanoseconds
                continue
            }
            next += intervalNanoseconds
            let now = MonotonicClock.nanoseconds
            if next < now { next = now + intervalNanoseconds / 2 }
            Platform.sleep(untilMonotonic: next)
        }
        let usageAtEnd = ResourceUsage.currentThread()
        let sampling = usageAtEnd.since(usageAtFirstSample)
        costNanosecondsPerSample = samples.isEmpty ? 0 : sampling.cpuNanoseconds / UInt64(samples.count)
        wakeups = usageAtEnd.since(usageBefore).voluntaryContextSwitches
    }

    /// Takes one sample; true when the thread was running (or its state could not be read).
    private func sample(_ probe: Platform.ThreadProbe, resolver: inout WaitResolver) -> Bool {
        guard let observation = probe.observe() else { return true }
        let kind = observation.syscall >= 0 ? BlockingClassifier.kind(ofSyscall: observation.syscall) : .other
        var described = WaitResolver.Described(descriptors: [], target: nil)
        if observation.syscall >= 0, observation.state != UInt8(ascii: "R") {
            described = resolver.describe(observation, kind: kind)
        }
        let wait = BlockingClassifier.classify(
            state: observation.state, syscall: observation.syscall, kind: kind, descriptors: described.descriptors)
        samples.append(
            ThreadSample(
                nanoseconds: observation.nanoseconds, osThreadID: threadID, state: observation.state,
                syscall: observation.syscall, wait: wait, target: wait == .none ? nil : described.target))
        return observation.state == UInt8(ascii: "R")
    }

    /// Looks at the thread's switches once a period while it runs, the last sample having
    /// found it running: returns true once it blocked (at once when it blocked since that
    /// sample), or when records were lost (a sample will tell); false when stopped. The
    /// sampler keeps off the thread's CPU (``Platform/SwitchWatch/keepAway()``).
    private func waitUntilBlocked(_ watch: Platform.SwitchWatch) -> Bool {
        let switchesBefore = watch.switches
        var state = watch.drain()
        // Blocked, but no switch since the sample that found it runnable: it was woken and
        // waits for a core (run-queue time, which accounting measures). Unknown: nothing seen yet.
        if state == .unknown || (state == .blocked && watch.switches == switchesBefore) { state = .running }
        while state == .running, !stopRequested.isSet {
            watch.keepAway()
            let switches = watch.switches
            state = watch.look(afterNanoseconds: intervalNanoseconds)
            // No switch since the last look: as it was, running (or runnable, woken and waiting
            // for a core, its last record the switch out), or not seen switching yet. A block
            // writes a record. (Lost records with no switch after them look the same; the ring
            // holds about two thousand.)
            if state != .interrupted, watch.switches == switches { state = .running }
        }
        return state != .interrupted && !stopRequested.isSet
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
