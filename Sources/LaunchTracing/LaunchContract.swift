/// The contract between `launchprof` and the program it launches, defined once
/// and used by both sides: the environment variables the profiler sets, the
/// words the program writes on the ready pipe, and the trace metadata keys the
/// harness records and the analysis reads.
///
/// See the DocC article "The Launch Contract" for what each one means.
///
/// ```swift
/// let traced = getenv(LaunchContract.Variable.trace) != nil
/// ```
public enum LaunchContract {
    /// Names of the environment variables of the contract.
    public enum Variable {
        /// Where the program writes its trace when it exits (`LAUNCHPROF_TRACE`).
        /// Its presence also tells the harness that a profiler is watching.
        public static let trace = "LAUNCHPROF_TRACE"
        /// `0` starts the tracer switched off (`LAUNCHPROF_TRACING`).
        public static let tracing = "LAUNCHPROF_TRACING"
        /// `monotonic` makes the tracer read `clock_gettime` instead of CPU ticks
        /// (`LAUNCHPROF_CLOCK`; read by the C shim, which cannot use this constant).
        public static let clock = "LAUNCHPROF_CLOCK"
        /// The most memory every thread's events may take together, in MiB
        /// (`LAUNCHPROF_TRACE_BUFFER_MB`, default 64).
        public static let traceBufferMegabytes = "LAUNCHPROF_TRACE_BUFFER_MB"
        /// No longer read: each thread's capacity, replaced by the process-wide
        /// ``traceBufferMegabytes``.
        @available(*, deprecated, renamed: "traceBufferMegabytes", message: "no longer read; the cap is process-wide")
        public static let eventsPerThread = "LAUNCHPROF_EVENTS_PER_THREAD"
        /// The parent's monotonic clock just before it spawned the program, in
        /// nanoseconds (`LAUNCHPROF_SPAWN_NS`). Also the stamp by which leftover
        /// descendants of a launch are found.
        public static let spawnNanoseconds = "LAUNCHPROF_SPAWN_NS"
        /// The file descriptor of the ready pipe (`LAUNCHPROF_READY_FD`).
        public static let readyDescriptor = "LAUNCHPROF_READY_FD"
        /// `1`: flush the trace and exit once launch ends (`LAUNCHPROF_EXIT_AFTER_LAUNCH`).
        public static let exitAfterLaunch = "LAUNCHPROF_EXIT_AFTER_LAUNCH"
        /// Run the launch hooks this many more times in the same process (`LAUNCHPROF_HOT_LAUNCHES`).
        public static let hotLaunches = "LAUNCHPROF_HOT_LAUNCHES"
        /// The launch options as a JSON object (`LAUNCHPROF_LAUNCH_OPTIONS`, see ``LaunchOptions``).
        public static let launchOptions = "LAUNCHPROF_LAUNCH_OPTIONS"
        /// `0` turns the main-thread sampler off; `periodic` has it sample every period instead
        /// of only looking at the main thread's context switches while it runs (`LAUNCHPROF_SAMPLER`).
        public static let sampler = "LAUNCHPROF_SAMPLER"
        /// The sampler's period in microseconds (`LAUNCHPROF_SAMPLE_INTERVAL_US`).
        public static let sampleInterval = "LAUNCHPROF_SAMPLE_INTERVAL_US"
        /// How long launch may run past the first frame before it is called ended,
        /// milliseconds (`LAUNCHPROF_GRACE_MS`).
        public static let grace = "LAUNCHPROF_GRACE_MS"

        /// `1` for a launch counted under valgrind (`LAUNCHPROF_COUNT_INSTRUCTIONS`): a program
        /// that runs under valgrind has callgrind dump its instruction count at each
        /// milestone (read by the C shim, which cannot use this constant).
        public static let countInstructions = "LAUNCHPROF_COUNT_INSTRUCTIONS"

        /// The milestone whose mark writes the trace and tells launchprof the program may
        /// be ended (`LAUNCHPROF_FLUSH_AT`, a ``Milestone`` id such as `firstFrame`): set
        /// when `--ready` is a milestone the program reports. LaunchHarness turns it off.
        public static let flushAtMilestone = "LAUNCHPROF_FLUSH_AT"
        /// The descriptor on which launchprof asks the tracer to write its trace before it
        /// ends the program (`LAUNCHPROF_CONTROL_FD`): set when launchprof sees the launch
        /// ready itself (`--ready port:`, `stdout:`, `file:`).
        public static let controlDescriptor = "LAUNCHPROF_CONTROL_FD"

        /// The variables `launchprof` sets itself for every launch; a user's own
        /// values for them are replaced.
        public static let reservedByLauncher: Set<String> = [
            readyDescriptor, spawnNanoseconds, flushAtMilestone, controlDescriptor,
        ]
    }

    /// A line an instrumented program writes on the ready pipe.
    public enum ReadyWord: String, Sendable, CaseIterable {
        /// The first frame was drawn. A launch into the background draws none and never writes it.
        case firstFrame
        /// Extended launch ended: the app called `reportFullyDrawn()`.
        case fullyDrawn
        /// The trace was flushed; the program is about to exit.
        case done
        /// The trace is written up to this moment and the program keeps running:
        /// launchprof may end it now (after the ``LaunchContract/Variable/flushAtMilestone``
        /// mark, or a `flush` request on the control descriptor).
        case flushed
        /// The tracer reads requests on the control descriptor
        /// (``LaunchContract/Variable/controlDescriptor``): launchprof asks it to flush
        /// before it ends the program.
        case listening

        /// The word alone, without its newline: what programs built before
        /// announcements carried their time wrote, and what `launchprof` still reads.
        public var line: String { rawValue }

        /// The line as written now, without its newline: the word, a space, and
        /// the moment it was reached on the tracer's clock (CLOCK_MONOTONIC
        /// nanoseconds), such as `firstFrame 12345678901`. The launcher checks the
        /// trace against it (see ``ReadyAnnouncement``).
        public func line(markedAt nanoseconds: UInt64) -> String { rawValue + " " + String(nanoseconds) }
    }

    /// One line of the ready pipe, read: its word, and the moment the program says
    /// it reached it, when the line carries one.
    ///
    /// ```swift
    /// LaunchContract.ReadyAnnouncement(line: "firstFrame 12345")  // .firstFrame at 12345 ns
    /// LaunchContract.ReadyAnnouncement(line: "firstFrame")        // .firstFrame, no time (an older program)
    /// LaunchContract.ReadyAnnouncement(line: "hello")             // nil
    /// ```
    public struct ReadyAnnouncement: Sendable, Equatable {
        /// The word.
        public var word: ReadyWord
        /// When the program says it reached it, CLOCK_MONOTONIC nanoseconds; nil
        /// for a bare word.
        public var markedNanoseconds: UInt64?

        /// Makes an announcement.
        public init(word: ReadyWord, markedNanoseconds: UInt64?) {
            self.word = word
            self.markedNanoseconds = markedNanoseconds
        }

        /// Reads a line (without its newline): a word alone, or a word, one space
        /// and a decimal number of nanoseconds. Anything else is nil.
        public init?(line: String) {
            let parts = line.split(separator: " ", maxSplits: 1, omittingEmptySubsequences: false)
            guard let word = ReadyWord(rawValue: String(parts[0])) else { return nil }
            if parts.count == 2 {
                guard !parts[1].isEmpty, parts[1].utf8.allSatisfy({ (0x30...0x39).contains($0) }),
                    let nanoseconds = UInt64(parts[1])
                else { return nil }
                self.init(word: word, markedNanoseconds: nanoseconds)
            } else {
                self.init(word: word, markedNanoseconds: nil)
            }
        }
    }

    /// Keys of the trace's ``Trace/metadata`` that the harness writes. The analysis reads
    /// the launch options and the budget; the others are there for people and other tools.
    public enum MetadataKey {
        /// The launch options, as ``LaunchOptions/json``.
        public static let launchOptions = "launch.options"
        /// The app's budget in code, as ``LaunchBudget/json``.
        public static let budget = "launch.budget"
        /// How many hot launches followed the first.
        public static let hotLaunches = "launch.hotLaunches"
        /// The version of the harness that recorded the trace.
        public static let harnessVersion = "harness.version"
        /// The sampler's own CPU time over its samples, nanoseconds, its set-up left out and its
        /// looks at the main thread's switches between samples counted in.
        public static let samplerCost = "sampler.costNsPerSample"
        /// The sampler's own CPU time before its first sample, nanoseconds (opening its
        /// switch watch and the thread's files, its sample buffer, the tracer's populater).
        public static let samplerSetup = "sampler.setupNs"
        /// The architecture whose system call numbers the sampler recorded
        /// (`x86_64`, `arm64`): the measured machine's, which the analysing one may not share.
        public static let samplerArchitecture = "sampler.architecture"
        /// How the sampler sampled: `switches` (once the main thread blocked, its switches
        /// looked at every period while it ran) or `periodic` (every period: asked for, or
        /// where the system allows no switch watch).
        public static let samplerMode = "sampler.mode"
        /// How many times the sampler's thread woke (its voluntary context switches).
        public static let samplerWakeups = "sampler.wakeups"
        /// The system calls the main thread made for per-span accounting while launch ran.
        public static let accountingSystemCalls = "accounting.systemCalls"
        /// Of the main thread's accounting readings, those taken without a system call (the
        /// sampler's switch watch showed the thread had not left the CPU since the last one).
        public static let accountingReadingsWithoutSystemCall = "accounting.readingsWithoutSystemCall"

        /// What `willFinishLaunching` returned in launch `index` (`true`/`false`).
        public static func willFinishLaunchingReturned(launch index: Int) -> String {
            "launch.\(index).willFinishLaunchingReturned"
        }

        /// What `didFinishLaunching` returned in launch `index` (`true`/`false`).
        public static func didFinishLaunchingReturned(launch index: Int) -> String {
            "launch.\(index).didFinishLaunchingReturned"
        }
    }

    /// The line launchprof writes on the control descriptor to ask for the trace.
    public static let flushRequest = "flush"

    /// The longest launchprof waits, once it asked for the trace (``flushRequest``), for
    /// the `flushed` answer before it ends the program without it, in seconds.
    public static let flushWaitSeconds = 5.0

    /// The name of the instant the harness records where a hot launch begins.
    public static let hotLaunchInstant: StaticString = "hotLaunch"
}

extension Trace {
    /// The launch options the harness recorded, if it recorded valid ones.
    public var launchOptions: LaunchOptions? {
        metadata[LaunchContract.MetadataKey.launchOptions].flatMap { try? LaunchOptions(json: $0) }
    }

    /// The budget the app declared in code, if the harness recorded a valid one.
    public var appBudget: LaunchBudget? {
        metadata[LaunchContract.MetadataKey.budget].flatMap { try? LaunchBudget(json: $0) }
    }

    /// The budget the app declared in code; nil when it declared none.
    ///
    /// The measured program wrote it: a value out of range (a budget above
    /// ``LaunchBudget/maximumMilliseconds``, say) or a budget that is not
    /// valid makes the trace invalid, rather than being dropped in silence.
    ///
    /// - Throws: ``LaunchBudgetError/badFile(path:problem:)`` naming the metadata key.
    public func checkedAppBudget() throws(LaunchBudgetError) -> LaunchBudget? {
        guard let text = metadata[LaunchContract.MetadataKey.budget] else { return nil }
        do { return try LaunchBudget(json: text) } catch {
            throw .badFile(
                path: "the trace's budget (\(LaunchContract.MetadataKey.budget))", problem: error.description)
        }
    }
}
