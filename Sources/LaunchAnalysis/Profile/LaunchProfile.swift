import LaunchTracing

/// Statistics over runs: every phase and the top spans, with outliers,
/// run-order warnings, findings and the budget verdict.
public struct LaunchProfile: Sendable, Codable, Equatable {
    /// One phase's statistics.
    public struct PhaseStatistics: Sendable, Codable, Equatable {
        /// The phase measured.
        public var phase: Phase
        /// Its value over the successful counted runs, milliseconds.
        public var summary: Summary
        /// The runs (``RunRecord/index``, 1-based) whose value is an outlier by the
        /// modified z-score; reported, never dropped.
        public var outlierRuns: [Int]
        /// What the order of the runs suggests about the values' trustworthiness.
        public var warnings: [RunWarning]
    }

    /// One main-thread span's statistics (before the first frame), by call site.
    public struct SpanStatistics: Sendable, Codable, Equatable {
        /// The span's name.
        public var name: String
        /// The `#fileID` of its call site.
        public var file: String
        /// The line of its call site.
        public var line: Int
        /// Wall time per run (summed when the span ran several times), milliseconds.
        public var summary: Summary
        /// Runs in which it appeared.
        public var runs: Int
    }

    /// The CPU time of the launched process tree over runs, milliseconds.
    public struct CPUStatistics: Sendable, Codable, Equatable {
        /// User plus system time.
        public var total: Summary
        /// User time.
        public var user: Summary
        /// System time.
        public var system: Summary
        /// The runs whose total is an outlier by the modified z-score.
        public var outlierRuns: [Int]
        /// What the order of the runs suggests about the totals.
        public var warnings: [RunWarning]

        /// The statistics of the successful counted runs that recorded CPU time; nil when none did.
        init?(_ runs: [RunRecord]) {
            let measured = runs.compactMap { run in run.cpuTime.map { (run: run.index, cpu: $0) } }
            let totals = measured.map(\.cpu.totalMilliseconds)
            guard let total = Summary.of(totals), let user = Summary.of(measured.map(\.cpu.userMilliseconds)),
                let system = Summary.of(measured.map(\.cpu.systemMilliseconds))
            else { return nil }
            self.total = total
            self.user = user
            self.system = system
            outlierRuns = Outliers.detect(
                totals, minimumDeviation: LaunchProfile.minimumOutlierDeviationMs(total.median)
            )
            .indices.map { measured[$0].run }
            warnings = RunWarnings.detect(totals)
        }
    }

    /// Every phase measured in at least one successful run, in ``Phase`` order.
    public var phases: [PhaseStatistics]
    /// The CPU time of the launched process tree, when the runs recorded it (nil for
    /// hot launches and reports written before it was recorded).
    public var cpuTime: CPUStatistics?
    /// The instruction counts of the counted launches (``InstructionStatistics``);
    /// nil when none was counted.
    public var instructions: InstructionStatistics?
    /// The ``topSpanCount`` costliest main-thread spans, by median wall time, costliest first.
    public var spans: [SpanStatistics]
    /// The advisor's findings, most costly first.
    public var findings: [Finding]
    /// Whether the launch fits its budget.
    public var verdict: BudgetVerdict
    /// Counted runs (warm-ups excluded), whatever their status.
    public var runCount: Int
    /// Counted runs whose status is ``RunRecord/Status/ok``.
    public var successfulRuns: Int
    /// True when at least one successful run had a trace.
    public var isInstrumented: Bool
    /// What the runs' traces say is amiss, one line each: span names the budget
    /// gives that no run recorded (a typo, most likely; with the nearest name
    /// seen), work still running when the trace was written (cut off at
    /// exit), and successful runs that wrote no trace when others did; nil when nothing is.
    public var warnings: [String]?

    /// The least distance from the median (ms) that an outlier must have: 0.1 ms
    /// or 5% of the median, whichever is more.
    public static func minimumOutlierDeviationMs(_ median: Double) -> Double {
        max(0.1, 0.05 * median)
    }

    /// How many spans ``spans`` keeps, by median wall time.
    public static let topSpanCount = 12

    /// Builds the profile of the counted, successful runs; with `checkingBudget`
    /// false (no budget came from any source, ``BudgetProvenance/isNone``) the
    /// launches are measured and reported and nothing is checked.
    public init(runs: [RunRecord], budget: LaunchBudget, checkingBudget: Bool = true) {
        let counted = runs.counted
        let good = runs.successful
        runCount = counted.count
        successfulRuns = good.count
        let timelines = good.compactMap(\.timeline)
        isInstrumented = !timelines.isEmpty

        var phases: [PhaseStatistics] = []
        var values: [Phase: [Double]] = [:]
        for phase in Phase.allCases {
            let measured = good.compactMap { run in run.milliseconds(phase).map { (run: run.index, value: $0) } }
            let phaseValues = measured.map(\.value)
            guard let summary = Summary.of(phaseValues) else { continue }
            values[phase] = phaseValues
            phases.append(
                PhaseStatistics(
                    phase: phase, summary: summary,
                    outlierRuns: Outliers.detect(
                        phaseValues, minimumDeviation: Self.minimumOutlierDeviationMs(summary.median)
                    )
                    .indices.map { measured[$0].run },
                    warnings: RunWarnings.detect(phaseValues)))
        }
        self.phases = phases
        cpuTime = CPUStatistics(good)
        instructions = InstructionStatistics(good)

        spans = SpanSite.collect(timelines).compactMap { site in
            Summary.of(site.wall).map {
                SpanStatistics(name: site.name, file: site.file, line: site.line, summary: $0, runs: site.wall.count)
            }
        }
        .sorted { $0.summary.median > $1.summary.median }
        .prefix(Self.topSpanCount).map { $0 }

        verdict =
            checkingBudget
            ? BudgetVerdict(phases: values, timelines: timelines, budget: budget, instrumented: isInstrumented)
            : BudgetVerdict(checks: [])
        findings = Advisor.findings(for: timelines, budget: budget, verdict: verdict)
        let found =
            Self.unknownSpanNames(in: budget, timelines: timelines) + Self.openSpans(timelines)
            + Self.missingTraces(runs)
        warnings = found.isEmpty ? nil : found
    }

    /// Warnings for the spans still open when a trace was written, by call site,
    /// with in how many runs.
    static func openSpans(_ timelines: [LaunchTimeline]) -> [String] {
        var runs: [String: Int] = [:]
        var order: [String] = []
        for timeline in timelines {
            var seen: Set<String> = []
            for span in timeline.mainThreadSpans + timeline.otherSpans where span.isOpen {
                let site = "\(span.name) (\(SourceSite.text(file: span.file, line: span.line)))"
                if seen.insert(site).inserted {
                    if runs[site] == nil { order.append(site) }
                    runs[site, default: 0] += 1
                }
            }
        }
        return order.map {
            "\($0) was still running when the app exited, in \(runs[$0]!) of \(timelines.count) runs: it was cut off "
                + "(only work started with app.runInBackground is waited for before the harness exits)"
        }
    }

    /// A warning when runs that succeeded wrote no trace although other runs of
    /// the same program did: those runs were measured as an uninstrumented program
    /// (to exit or to their ready condition), not to their first frame.
    static func missingTraces(_ runs: [RunRecord]) -> [String] {
        guard let traced = runs.first(where: { $0.tracePath != nil }) else { return [] }
        let missing = runs.successful.filter { $0.tracePath == nil }
        guard !missing.isEmpty else { return [] }
        let shown = missing.prefix(5).map { "run \($0.index)" }.joined(separator: ", ") + (missing.count > 5 ? "…" : "")
        let example = traced.isWarmup ? "a warm-up" : "run \(traced.index)"
        return [
            "\(missing.count) run(s) (\(shown)) wrote no trace although \(example) did: they were measured as an "
                + "uninstrumented program, not to their first frame (did the program exit before its trace was written, "
                + "or write it elsewhere than LAUNCHPROF_TRACE?)"
        ]
    }

    /// Warnings for the span names `budget` gives that no timeline recorded.
    static func unknownSpanNames(in budget: LaunchBudget, timelines: [LaunchTimeline]) -> [String] {
        let unrecorded = unrecordedBudgetNames(in: budget, timelines: timelines)
        guard !unrecorded.isEmpty else { return [] }
        let seen = Set(timelines.flatMap { $0.mainThreadSpans.map(\.name) + $0.otherSpans.map(\.name) }).sorted()
        return unrecorded.map { key, name in
            let hint = Spelling.nearest(to: name, among: seen).map { " (did you mean '\($0)'?)" } ?? ""
            return unrecordedWarningPrefix(key: key, name: name) + ", which no run recorded\(hint)"
        }
    }

    /// The span names `budget` gives (under `spans` or `requiredForFirstFrame`) that
    /// no timeline recorded, with the key that gives them; none without timelines.
    ///
    /// Spans are read where they lie, only until every name is found: a report
    /// of 100 runs × 10,000 spans is never copied to be searched (JUnit asks this
    /// of every report it writes, most with no span budgets at all).
    static func unrecordedBudgetNames(in budget: LaunchBudget, timelines: [LaunchTimeline]) -> [(
        key: String, name: String
    )] {
        guard !timelines.isEmpty else { return [] }
        let named = [("spans", budget.spansMs.keys.sorted()), ("requiredForFirstFrame", budget.requiredForFirstFrame)]
        var unseen = Set(named.flatMap(\.1))
        for timeline in timelines where !unseen.isEmpty {
            for spans in [timeline.mainThreadSpans, timeline.otherSpans] where !unseen.isEmpty {
                for index in spans.indices where unseen.remove(spans[index].name) != nil && unseen.isEmpty { break }
            }
        }
        return named.flatMap { key, names in names.filter(unseen.contains).map { (key, $0) } }
    }

    /// How the warning about a budget name no run recorded begins:
    /// `the budget's spans names 'DecodeCatalgo'`.
    public static func unrecordedWarningPrefix(key: String, name: String) -> String {
        "the budget's \(key) names '\(name)'"
    }

    /// The total the launch is judged by — the one the budget verdict checks first:
    /// to the end of the hooks in the background, to the first frame when the app
    /// reports one, else to the ready condition — if it was measured.
    public var primaryPhase: Phase? {
        if case .phase(let phase)? = verdict.checks.first?.subject { return phase }
        return [Phase.timeToBackgroundReady, .timeToFirstFrame, .timeToReady].first { statistics($0) != nil }
    }

    /// The statistics of `phase`, if measured.
    public func statistics(_ phase: Phase) -> PhaseStatistics? {
        phases.first { $0.phase == phase }
    }
}
