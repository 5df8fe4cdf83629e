import LaunchTracing

/// The metrics two measurements have in common, each as one value per
/// successful counted run on each side: what a comparison tests.
///
/// The primary metric is the launch's total — `timeToFirstFrame` for an
/// instrumented app (`timeToBackgroundReady` launched into the background),
/// `timeToReady` for any other program (its exit, when that is the ready
/// condition). Then every other phase both sides measured (`phase:<id>`) and
/// every span either side's budget names (`span:<name>`).
public struct ComparisonMetrics: Sendable, Equatable {
    /// One metric's values on both sides, in run order, milliseconds.
    public struct Series: Sendable, Equatable {
        /// What it is.
        public var id: MetricID
        /// Its spelling (``MetricID/description``): `timeToFirstFrame`, `phase:didFinishLaunching`, `span:DecodeCatalog`.
        public var name: String { id.description }
        /// True when it decides the outcome.
        public var gated: Bool
        public var baseMs: [Double]
        public var headMs: [Double]
        /// The machine key of each value (``MeasurementReport/machine(of:)``), parallel to the values.
        public var machines: GateDecision.Machines
        /// The session of each value (``MeasurementReport/session(of:)``), parallel to the values;
        /// a report that recorded none is a session of its own (`unrecorded-base`, `unrecorded-head`).
        public var sessions: GateDecision.Sessions
        /// The metric's own budget in the head's budget (a hook's or a span's), milliseconds, if it has one.
        public var budgetMs: Double?
    }

    /// The primary metric's name.
    public var primary: String
    /// Every metric, the primary first.
    public var series: [Series]

    /// The metrics of `base` against `head`; `gate` names the metrics besides the
    /// primary one that decide the outcome (``GatedMetrics/all`` for every one). `metrics` says
    /// what decides: the primary metric is gated with ``LaunchMetric/wall``, and
    /// with ``LaunchMetric/cpu`` the CPU time of the process tree
    /// (``LaunchMetric/cpuMetricName``) is one more gated metric.
    ///
    /// - Throws: ``ComparisonError/noMetricInCommon(_:)`` when one side is
    ///   instrumented and the other is not, or a side has no successful run;
    ///   ``ComparisonError/unknownGateName(name:nearest:)`` when `gate` names a
    ///   metric the comparison does not have (``GateNames``).
    public init(
        base: MeasurementReport, head: MeasurementReport, gate: GatedMetrics, metrics: [LaunchMetric] = [.wall]
    ) throws(ComparisonError) {
        let sides = [base, head]
        guard sides.allSatisfy({ $0.profile.successfulRuns > 0 }) else {
            let empty = base.profile.successfulRuns == 0 ? "base" : "head"
            throw .noMetricInCommon("the \(empty) side has no successful run")
        }
        guard base.profile.isInstrumented == head.profile.isInstrumented else {
            throw .noMetricInCommon("one side is instrumented and the other is not, so they share no launch phase")
        }
        let background = sides.contains { report in report.runs.contains { $0.timeline?.isBackground == true } }
        let frames = sides.allSatisfy { report in report.runs.contains { $0.timeline?.milestones[.firstFrame] != nil } }
        let primaryPhase: Phase = background ? .timeToBackgroundReady : frames ? .timeToFirstFrame : .timeToReady
        var series: [Series] = []
        func values(_ report: MeasurementReport, side: ComparisonSide, _ value: (RunRecord) -> Double?)
            -> (ms: [Double], machines: [String], sessions: [String])
        {
            var ms: [Double] = []
            var machines: [String] = []
            var sessions: [String] = []
            for run in report.successfulRuns {
                guard let v = value(run) else { continue }
                ms.append(v)
                machines.append(report.machine(of: run))
                sessions.append(report.session(of: run) ?? "unrecorded-\(side.rawValue)")
            }
            return (ms, machines, sessions)
        }
        func add(_ id: MetricID, budgetMs: Double? = nil, _ value: (RunRecord) -> Double?) {
            let baseValues = values(base, side: .base, value)
            let headValues = values(head, side: .head, value)
            guard !baseValues.ms.isEmpty, !headValues.ms.isEmpty else { return }
            let gated =
                (id == .total(primaryPhase) && metrics.contains(.wall)) || gate.contains(id)
                || (id == .cpuTime && metrics.contains(.cpu))
            series.append(
                Series(
                    id: id, gated: gated, baseMs: baseValues.ms, headMs: headValues.ms,
                    machines: GateDecision.Machines(base: baseValues.machines, head: headValues.machines),
                    sessions: GateDecision.Sessions(base: baseValues.sessions, head: headValues.sessions),
                    budgetMs: budgetMs))
        }
        add(.total(primaryPhase)) { $0.milliseconds(primaryPhase) }
        guard !series.isEmpty else {
            throw .noMetricInCommon("\(primaryPhase.rawValue) was not measured on both sides")
        }
        // The ready and exit times repeat the primary metric (an uninstrumented program
        // ready at its exit; an instrumented one ready at its first frame, plus the trace flush).
        let repeats: Set<Phase> = [.timeToReady, .timeToExit]
        for phase in Phase.allCases where phase != primaryPhase && !repeats.contains(phase) {
            add(
                .phase(phase),
                budgetMs: LaunchHook(rawValue: phase.rawValue).flatMap { head.configuration.budget.hooksMs[$0] }
            ) {
                $0.milliseconds(phase)
            }
        }
        if metrics.contains(.cpu) {
            add(.cpuTime) { $0.cpuTime?.totalMilliseconds }
            guard series.contains(where: { $0.id == .cpuTime }) else {
                throw .noMetricInCommon("CPU time was not recorded on both sides (--metric cpu)")
            }
        }
        let spans = Set(base.configuration.budget.spansMs.keys).union(head.configuration.budget.spansMs.keys)
        for name in spans.sorted() {
            add(
                .span(name),
                budgetMs: head.configuration.budget.spansMs[name] ?? base.configuration.budget.spansMs[name]
            ) {
                $0.timeline?.mainThreadMilliseconds(named: name)
            }
        }
        if let unknown = GateNames.firstUnknown(gate, available: series.map(\.id)) {
            throw .unknownGateName(name: unknown.name, nearest: unknown.nearest)
        }
        self.primary = primaryPhase.rawValue
        self.series = series
        primaryBudgetMs =
            background
            ? head.configuration.budget.backgroundTimeToFirstFrameMs : head.configuration.budget.timeToFirstFrameMs
    }

    /// The head's budget for the primary metric, milliseconds.
    var primaryBudgetMs: Double = 0

    /// Each series' share of the launch, for scaling the absolute minimum effect
    /// (``GateSettings/minimumEffectRatio(baseMedianMs:floorShare:)``): 1 for the
    /// primary metric; for another, its budget over the primary metric's budget
    /// when both have one, else its base median over the primary metric's; at most 1.
    ///
    /// A 0.73 ms phase of a 60 ms launch gets 5 ms × 0.73/60 ≈ 0.06 ms as its floor,
    /// so the relative minimum effect (5 %) decides for it, as for the whole launch.
    public var floorShares: [Double] {
        let primaryMedian = series.first.map { Summary.median($0.baseMs.filter(\.isFinite)) } ?? .nan
        return series.enumerated().map { index, metric in
            if index == 0 { return 1 }
            if let budget = metric.budgetMs, budget > 0, primaryBudgetMs > 0 { return min(1, budget / primaryBudgetMs) }
            let median = Summary.median(metric.baseMs.filter(\.isFinite))
            guard primaryMedian > 0, median.isFinite, median >= 0 else { return 1 }
            return min(1, median / primaryMedian)
        }
    }

    /// At most how many metrics a comparison can have with `budgetSpans` spans in
    /// its budget, the primary included, and CPU time when `metrics` has it: what
    /// `--gate all` counts as before anything is launched (the minimum-runs check).
    ///
    /// ```swift
    /// ComparisonMetrics.most(budgetSpans: 2)  // the total, every other phase but the ready and exit times, two spans
    /// ComparisonMetrics.most(budgetSpans: 2, metrics: [.wall, .cpu])  // and CPU time
    /// ```
    public static func most(budgetSpans: Int, metrics: [LaunchMetric] = [.wall]) -> Int {
        Phase.allCases.count - 2 + max(budgetSpans, 0) + (metrics.contains(.cpu) ? 1 : 0)
    }

    /// The series as the gate takes them.
    public var gateInput: [(name: String, gated: Bool, baseMs: [Double], headMs: [Double])] {
        series.map { ($0.name, $0.gated, $0.baseMs, $0.headMs) }
    }

    /// The machine of every value, as the gate takes them to stratify by machine.
    public var machineInput: [GateDecision.Machines] { series.map(\.machines) }

    /// The session of every value, as the gate takes them to tell sessions apart.
    public var sessionInput: [GateDecision.Sessions] { series.map(\.sessions) }
}
