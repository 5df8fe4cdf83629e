/// A comparison as asked for: how its two sides were measured or read, and how
/// it is gated.
public struct ComparisonPlan: Sendable, Equatable {
    /// Where the two sides come from.
    public enum Source: String, Sendable, Hashable, Codable {
        /// Base and head launched alternately on this machine: the strongest evidence.
        case interleaved
        /// Two stored `measure` reports.
        case storedReports = "stored-reports"
        /// A stored baseline against a measurement made now.
        case baseline
    }

    /// The report's name (file names derive from it).
    public var name: String
    /// Where the sides come from.
    public var source: Source
    /// Significance level and least effect.
    public var settings: GateSettings
    /// Metrics besides the primary one that decide the outcome.
    public var gate: GatedMetrics
    /// Cumulative launches per side at which the data is looked at (one look for stored reports).
    public var stages: [Int]
    /// A head over its budget fails the comparison even without a regression.
    public var failOverBudget: Bool
    /// Launches are compared within each machine and the machines combined
    /// (a fleet comparison, see ``GateDecision/compare(_:settings:alpha:machines:floorShares:)``),
    /// never pooled across machines.
    public var stratifyByMachine: Bool
    /// What decides (`--metric`): wall time (the primary metric and `gate`), CPU
    /// time (``LaunchMetric/cpuMetricName``), instruction counts (``InstructionGate``,
    /// outside Holm's correction: see ``ComparisonReport/instructions``).
    public var metrics: [LaunchMetric] = [.wall]
    /// The least relative change in the instruction count called a regression (a fraction).
    public var instructionMinimumEffect = InstructionGate.defaultMinimumEffect
    /// What a comparison across sessions may estimate their variance from besides its
    /// sides (the baseline's history, a stated session SD; ``SessionComparison``).
    public var sessionEvidence = SessionEvidence()

    /// Makes a plan.
    public init(
        name: String, source: Source, settings: GateSettings, gate: GatedMetrics = .listed([]), stages: [Int],
        failOverBudget: Bool = false,
        stratifyByMachine: Bool = false
    ) {
        self.name = name
        self.source = source
        self.settings = settings
        self.gate = gate
        self.stages = stages
        self.failOverBudget = failOverBudget
        self.stratifyByMachine = stratifyByMachine
    }

    /// The staged gate this plan looks with.
    public var stagedGate: StagedGate { StagedGate(stages: stages, settings: settings) }

    /// Looks at `base` against `head` at stage `index`: every metric's
    /// comparison, the overall verdict, and whether to stop launching.
    ///
    /// - Throws: ``ComparisonError/noMetricInCommon(_:)`` when the sides share no
    ///   metric, or, stratified by machine, no machine has launches on both sides;
    ///   ``ComparisonError/unknownGateName(name:nearest:)`` for a gate name the
    ///   comparison does not have; ``ComparisonError/tooFewLaunches(_:)`` when
    ///   ``shortfall(_:look:)`` finds one at this look.
    public func look(_ index: Int, base: MeasurementReport, head: MeasurementReport) throws(ComparisonError)
        -> ComparisonLook
    {
        let metrics = try ComparisonMetrics(base: base, head: head, gate: gate, metrics: self.metrics)
        if stratifyByMachine, let primary = metrics.series.first {
            let baseMachines = Set(primary.machines.base)
            let headMachines = Set(primary.machines.head)
            guard !baseMachines.isDisjoint(with: headMachines) else {
                throw .noMetricInCommon(
                    "no machine has launches on both sides (base: \(baseMachines.sorted().joined(separator: ", ")); "
                        + "head: \(headMachines.sorted().joined(separator: ", ")))")
            }
        }
        if let shortfall = shortfall(metrics, look: index) { throw .tooFewLaunches(shortfall) }
        // The two sides of an interleaved comparison are one session by construction; any other
        // source is tested session by session unless its runs name one session on both sides.
        let look = stagedGate.look(
            index, metrics: metrics.gateInput, primary: metrics.primary,
            machines: stratifyByMachine ? metrics.machineInput : nil,
            floorShares: metrics.floorShares, sessions: source == .interleaved ? nil : metrics.sessionInput,
            evidence: sessionEvidence)
        return ComparisonLook(metrics: look.metrics, primary: metrics.primary, verdict: look.verdict, stop: look.stop)
    }

    /// The first reason these metrics are too few launches to decide on at look
    /// `index` (0-based) of ``stages``, or nil.
    ///
    /// Every gated metric (all of them counted, whatever `gate` says) must have
    /// enough finite values on each side for the one-sided test to reach this
    /// look's share of α (``AlphaSpending``) / gated metrics
    /// (``GateSettings/shortfall(baseCount:headCount:gatedMetrics:stages:look:subject:)``).
    /// Stratified by machine, every machine with launches on both sides must also
    /// have ``GateSettings/minimumLaunchesPerMachine`` on each (a machine on one side
    /// only is left out, as before). The same rule holds for every source:
    /// interleaved, stored reports and baselines.
    ///
    /// ```swift
    /// if let short = plan.shortfall(try ComparisonMetrics(base: a, head: b, gate: plan.gate), look: 0) { print(short) }
    /// ```
    public func shortfall(_ metrics: ComparisonMetrics, look index: Int) -> LaunchShortfall? {
        let gated = metrics.series.filter(\.gated)
        for series in gated {
            let baseCount = series.baseMs.filter(\.isFinite).count
            let headCount = series.headMs.filter(\.isFinite).count
            if let short = settings.shortfall(
                baseCount: baseCount, headCount: headCount, gatedMetrics: gated.count, stages: stages, look: index,
                subject: series.name)
            {
                return short
            }
            guard stratifyByMachine else { continue }
            var base: [String: Int] = [:]
            var head: [String: Int] = [:]
            for (value, machine) in zip(series.baseMs, series.machines.base) where value.isFinite {
                base[machine, default: 0] += 1
            }
            for (value, machine) in zip(series.headMs, series.machines.head) where value.isFinite {
                head[machine, default: 0] += 1
            }
            let least = GateSettings.minimumLaunchesPerMachine
            for machine in base.keys.sorted()
            where head[machine] != nil && (base[machine]! < least || head[machine]! < least) {
                return LaunchShortfall(
                    subject: "\(series.name) on machine '\(machine)'", baseCount: base[machine]!,
                    headCount: head[machine]!,
                    neededPerSide: least, reason: "a fleet comparison needs \(least) launches per machine and side")
            }
        }
        return nil
    }
}
