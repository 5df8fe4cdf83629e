import LaunchTracing

/// One piece of advice: what is slow, where, how much it costs, and what to do.
public struct Finding: Sendable, Codable, Equatable {
    /// How much a finding matters, by its share of the launch budget.
    public enum Severity: String, Sendable, Codable, Comparable {
        /// Under 5% of the budget.
        case info
        /// 5% of the budget or more.
        case warning
        /// 20% of the budget or more, or a budget exceeded.
        case critical

        /// Orders severities from ``info`` to ``critical``.
        public static func < (lhs: Severity, rhs: Severity) -> Bool {
            [Severity.info, .warning, .critical].firstIndex(of: lhs)! < [Severity.info, .warning, .critical].firstIndex(
                of: rhs)!
        }
    }

    /// The rule that made it (its id, such as `main-thread-network`, is stable).
    public var rule: AdvisorRule
    /// How much it matters (see ``Severity``).
    public var severity: Severity
    /// The span (or hook, or phase) the finding is about.
    public var span: String
    /// The `#fileID` of the span's call site, when known.
    public var file: String?
    /// The line of the span's call site, when known.
    public var line: Int?
    /// The cost the rule measured (median over runs), milliseconds.
    public var medianMs: Double
    /// The span's whole median wall time, milliseconds.
    public var spanMedianMs: Double
    /// In how many runs the finding held, out of ``runsTotal``.
    public var runsAppeared: Int
    /// How many runs were judged (the successful counted runs with a trace).
    public var runsTotal: Int
    /// ``medianMs`` as a share of the time-to-first-frame budget (0…).
    public var budgetShare: Double
    /// One concrete recommendation, worded from the finding's values
    /// (``wordedRecommendation``) when the advisor made it; a report keeps it
    /// for its readers, and an older report's is read as it was written.
    public var recommendation: String
    /// What the main thread waited on, the most sampled first, where the sampler
    /// could name it (blocking rules only): a file, a socket's peer, a child's command, a sleep's length.
    public var waitedOn: [WaitTarget]? = nil

    /// The `#filePath` of the span's call site (where the file was when the
    /// app was built), when the trace recorded it.
    public var filePath: String? = nil

    /// True when the cost rests on estimated per-span usage in at least one run
    /// (``SpanRecord/usageIsEstimated``: a span boundary attributed from the tracer's
    /// readings around it, off by at most 50 µs); nil when it was read.
    /// Reports mark such a cost with `≈`.
    public var usageIsEstimated: Bool? = nil

    /// The span's median wait for a CPU (run-queue time), milliseconds, where it
    /// reached ``Advisor/minimumContentionMs`` (CPU-work rules only); nil otherwise.
    public var runQueueMs: Double? = nil
    /// The budget or limit a budget rule's finding exceeded, milliseconds; nil for other rules.
    public var budgetMs: Double? = nil
    /// How many runs the budget check of a hook measured (``AdvisorRule/hookOverBudget``); nil for other rules.
    public var runsMeasured: Int? = nil
    /// The calls that wrote or flushed (``AdvisorRule/mainThreadDiskWrite``), such as `write` and `fsync`; nil for other rules.
    public var writeCalls: [String]? = nil
    /// How many files the site wrote (``AdvisorRule/mainThreadDiskWrite``); ``waitedOn`` names the first few.
    public var filesWritten: Int? = nil

    /// True when the program measured does not use LaunchHarness (it links the
    /// tracer alone, or nothing): its advice speaks of startup and ready and names
    /// what such a program can do (move work off the startup path, start it
    /// concurrently, make it lazy), never the harness's API, and names no sampler
    /// (none runs without the harness). Nil for a harness app.
    public var withoutHarness: Bool? = nil

    /// `≈` before a cost resting on estimated usage, else nothing.
    public var estimateMark: String { usageIsEstimated == true ? "≈" : "" }

    /// The call site the finding is about, as one key: `name@file:line`
    /// (``SpanRecord/key(name:file:line:)``, with an empty file and line 0 when unknown).
    var siteKey: String { SpanRecord.key(name: span, file: file ?? "", line: line ?? 0) }

    /// The ``SpanRecord/key`` of the spans the finding is about; nil for a
    /// finding without a call site (a hook over its budget).
    public var spanKey: String? {
        guard let file, let line else { return nil }
        return SpanRecord.key(name: span, file: file, line: line)
    }

    /// `RemoteConfig.swift:42`, or the span name when the site is unknown.
    public var location: String {
        guard let file, let line else { return span }
        return SourceSite.text(file: file, line: line)
    }
}
