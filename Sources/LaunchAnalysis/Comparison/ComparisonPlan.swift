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
    /// Metrics besides the primary one that decide the outcome (`all` for every one).
    public var gate: [String]
    /// Cumulative launches per side at which the data is looked at (one look for stored reports).
    public var stages: [Int]
    /// A head over its budget fails the comparison even without a regression.
    public var failOverBudget: Bool
    /// Launches are compared within each machine and the machines combined
    /// (a fleet comparison, see ``GateDecision/compare(_:settings:alpha:machines:)``),
    /// never pooled across machines.
    public var stratifyByMachine: Bool

    /// Makes a plan.
    public init(
        name: String, source: Source, settings: GateSettings, gate: [String] = [], stages: [Int], failOverBudget: Bool = false,
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
    ///   metric, or, stratified by machine, no machine has launches on both sides.
    public func look(_ index: Int, base: MeasurementReport, head: MeasurementReport) throws(ComparisonError) -> ComparisonLook {
        let metrics = try ComparisonMetrics(base: base, head: head, gate: gate)
        if stratifyByMachine, let primary = metrics.series.first {
            let baseMachines = Set(primary.machines.base), headMachines = Set(primary.machines.head)
            guard !baseMachines.isDisjoint(with: headMachines) else {
                throw .noMetricInCommon("no machine has launches on both sides (base: \(baseMachines.sorted().joined(separator: ", ")); "
                    + "head: \(headMachines.sorted().joined(separator: ", ")))")
            }
        }
        let look = stagedGate.look(
            index, metrics: metrics.gateInput, primary: metrics.primary, machines: stratifyByMachine ? metrics.machineInput : nil)
        return ComparisonLook(metrics: look.metrics, primary: metrics.primary, verdict: look.verdict, stop: look.stop)
    }
}
