import LaunchTracing

/// Everything one `launchprof compare` found, as written to the JSON report
/// (`kind` `comparison`, `schemaVersion` 4): both sides' measurements, every
/// metric's comparison, the verdict, why it changed, and the outcome.
///
/// Version 4 (issue 31): the top-level `verdict` may be `interrupted` or `error`
/// (``ComparisonVerdict``), agreeing with the outcome, and each machine of a fleet
/// carries its own shape check (``FleetComparison/Machine/shape``); versions 1–3
/// still read as written.
///
/// Version 3: each side is a version-3 ``MeasurementReport`` (spans as
/// ``SpanTable``s); the header comes first, the sides after it.
///
/// Version 2 (issue 21): each metric's p-values test the minimum effect itself,
/// its interval is at the level the decision used (``MetricComparison/level``), and
/// a fleet interval inverts van Elteren's test; version 1 reports still read
/// (see ``MetricComparison``).
public struct ComparisonReport: Sendable, Equatable, Codable {
    /// The `kind` of every comparison report.
    public static let kind = "comparison"
    /// The version of this schema written now.
    public static let currentSchemaVersion = 4

    /// Always ``kind``: what the document is.
    public private(set) var kind = ComparisonReport.kind
    /// The schema version this report was read from (``currentSchemaVersion`` when made here).
    public var schemaVersion: Int
    /// The report's name.
    public var name: String
    /// The id of the write this report's files came from, in every format of the
    /// set (``MeasurementReport/reportID``); nil when not written to files.
    public var reportID: String?
    /// The version of the `launchprof` that wrote it.
    public var toolVersion: String
    /// When it was written, ISO 8601 in UTC.
    public var createdAt: String
    /// Where the two sides came from.
    public var source: ComparisonPlan.Source
    /// The significance level and least effect used.
    public var settings: GateSettings
    /// The metrics asked to decide besides the primary one.
    public var gate: [String]
    /// The planned stages (cumulative launches per side).
    public var stages: [Int]
    /// How many stages were run to the end (each ended with a look).
    public var stagesRun: Int
    /// The metric that decides by default.
    public var primaryMetric: String
    /// The base side, as a full measurement report.
    public var base: MeasurementReport
    /// The head side, as a full measurement report.
    public var head: MeasurementReport
    /// Every metric compared, the primary first.
    public var metrics: [MetricComparison]
    /// The overall verdict: the gated metrics' (and the instruction gate's) when
    /// the comparison answered, else `interrupted` or `error`, as the ``outcome`` says
    /// (``ComparisonVerdict/init(outcome:gated:)``).
    public var verdict: ComparisonVerdict
    /// In a fleet comparison (stratified by machine): the primary metric's
    /// machines — those that took part, each with its own shift, and those left
    /// out (see each metric's ``MetricComparison/fleet``); nil on one machine.
    public var fleet: FleetComparison?
    /// Why it changed: findings and spans new, gone or moved.
    public var changes: FindingsDiff
    /// What makes the evidence weaker (different machines, a stored baseline…).
    public var warnings: [String]
    /// Why nothing could be compared, when nothing could.
    public var problem: String?
    /// A head over its budget fails the comparison even without a regression.
    public var failOverBudget: Bool
    /// How the comparison came out: the exit code and every renderer read this.
    public var outcome: ReportOutcome
    /// The instruction gate's comparison (`--metric instructions`): its decision and
    /// the functions whose inclusive instructions changed most; nil when not asked
    /// for, and in older reports.
    public var instructions: InstructionComparison?
    /// What decided the outcome (`timeToFirstFrame`, `cpuTime`, `instructions`…),
    /// when `--metric` asked for more than wall time; nil otherwise and in older reports.
    public var decidedBy: [String]?
    /// What `--metric` asked to decide; nil for wall time alone, and in older reports.
    public var decidingMetrics: [LaunchMetric]?

    /// Assembles the comparison of `base` and `head` as `plan` asks, judged at
    /// the last stage run (`stagesRun`, at least the first). `look`, when given,
    /// is that stage's look already made (``ComparisonRule``), reused instead of looking again.
    public init(
        plan: ComparisonPlan, base: MeasurementReport, head: MeasurementReport, stagesRun: Int, warnings: [String] = [],
        createdAt: String,
        look reused: Result<ComparisonLook, ComparisonError>? = nil
    ) {
        schemaVersion = Self.currentSchemaVersion
        name = plan.name
        toolVersion = LaunchProfVersion.string
        self.createdAt = createdAt
        source = plan.source
        settings = plan.settings
        gate = plan.gate.spellings
        stages = plan.stages
        self.stagesRun = stagesRun
        self.base = base
        self.head = head
        failOverBudget = plan.failOverBudget
        changes = FindingsDiff(base: base, head: head)
        var warnings =
            warnings + Self.environmentWarnings(base: base, head: head, acrossMachines: plan.stratifyByMachine)
        if plan.source == .baseline { warnings.append(Self.baselineCaveat) }
        var gatedVerdict: MetricVerdict
        do {
            let look = try
                (reused
                ?? Result { () throws(ComparisonError) in try plan.look(max(0, stagesRun - 1), base: base, head: head) })
                .get()
            metrics = look.metrics
            primaryMetric = look.primary
            gatedVerdict = look.verdict
            problem = nil
        } catch {
            metrics = []
            primaryMetric = ""
            gatedVerdict = .inconclusive
            problem = error.description
        }
        let primaryName = primaryMetric
        let fleet = metrics.first { $0.name == primaryName }?.fleet
        self.fleet = fleet
        for metric in metrics where metric.gated {
            if let modes = metric.shape?.bimodal { warnings.append(modes.summary(metric: metric.name)) }
            // In a fleet the shape is each machine's own (launches of different machines are never pooled).
            for machine in metric.fleet?.machines ?? [] {
                if let modes = machine.shape?.bimodal {
                    warnings.append(modes.summary(metric: metric.name, machine: machine.machine))
                }
            }
        }
        // What a comparison across sessions rested on, once (the primary metric's, else the first gated one's).
        if let sessions =
            (metrics.first { $0.name == primaryName && $0.sessions != nil }
            ?? metrics.first { $0.gated && $0.sessions != nil })?.sessions
        {
            warnings.append(sessions.summary)
        }
        for machine in fleet?.leftOut ?? [] {
            warnings.append(
                "machine '\(machine.machine)' has \(machine.side.rawValue) launches only (\(machine.launches)): left out"
            )
        }
        if !head.profile.verdict.passed, head.profile.successfulRuns > 0 {
            warnings.append("the head is over its budget: \(head.profile.verdict.summary)")
        }
        let timeVerdict = gatedVerdict
        if plan.metrics.contains(.instructions), problem == nil {
            switch Self.instructionComparison(base: base, head: head, minimumEffect: plan.instructionMinimumEffect) {
            case .success(let compared):
                instructions = compared
                gatedVerdict = Self.combined(gatedVerdict, compared.decision.status)
            case .failure(let error):
                problem = error.description
            }
        }
        self.warnings = warnings
        outcome = ReportOutcome(
            comparison: (base, head), metrics: metrics, primary: primaryMetric, verdict: timeVerdict,
            problem: problem, failOverBudget: failOverBudget, stagesRun: stagesRun)
        if let instructions {
            outcome = Self.outcome(
                outcome, instructions: instructions, timeMetricsGated: metrics.contains(where: \.gated))
        }
        if let advice = Self.sessionAdvice(metrics: metrics, outcome: outcome, evidence: plan.sessionEvidence) {
            outcome.reason += advice
        }
        // Computed once, from the outcome: a stopped or refused comparison is never a pass.
        verdict = ComparisonVerdict(outcome: outcome, gated: gatedVerdict)
        if plan.metrics != [.wall] {
            decidingMetrics = plan.metrics
            if problem == nil { decidedBy = Self.deciders(metrics, instructions: instructions, verdict: gatedVerdict) }
        }
    }

    /// What an inconclusive comparison adds to its reason when a gated metric's sides
    /// come from different sessions and nothing estimated their variance
    /// (``SessionComparison/Source/none``): what would; and when the baseline's stored
    /// history estimated it (``SessionComparison/Source/history``): that history, by its
    /// file, since more launches do not narrow it and only a new history changes it. Nil otherwise.
    ///
    /// ```swift
    /// // "…; base and head come from different sessions and nothing estimates how far sessions differ: compare --base and --head interleaved…"
    /// // "…; the between-session noise is the baseline's stored history (baselines/main.spread.json: 3 sessions, session SD 562.9%)…"
    /// ```
    static func sessionAdvice(metrics: [MetricComparison], outcome: ReportOutcome, evidence: SessionEvidence)
        -> String?
    {
        guard outcome.status == .inconclusive else { return nil }
        var advice = ""
        if let tested = metrics.first(where: { $0.gated && $0.sessions?.source == .history })?.sessions {
            advice += historyAdvice(tested, evidence: evidence)
        }
        if metrics.contains(where: { $0.gated && $0.sessions?.source == SessionComparison.Source.none }) {
            advice +=
                "; base and head come from different sessions and nothing estimates how far sessions differ: "
                + SessionComparison.fix
        }
        return advice.isEmpty ? nil : advice
    }

    /// The history part of ``sessionAdvice(metrics:outcome:evidence:)``: which stored history the
    /// session SD came from, and what changes it (more launches and a quieter machine do not).
    static func historyAdvice(_ tested: SessionComparison, evidence: SessionEvidence) -> String {
        let file = evidence.historyPath.map { "\($0): " } ?? ""
        let sd = tested.sessionSDPercent.map { ", session SD \(Percent.text($0, signed: false))" } ?? ""
        let name = evidence.historyBaseline ?? "NAME"
        return
            "; the between-session noise is the baseline's stored history (\(file)\(tested.estimatedFrom) sessions\(sd)), "
            + "which more launches do not narrow: measure a new one with 'launchprof calibrate --rounds 5 --save-baseline \(name)' "
            + "(--session-sd is used only for a baseline without a history)"
    }

    /// The warning every comparison against a stored baseline carries, printed even under `--quiet`.
    public static let baselineCaveat =
        "a stored baseline is weaker evidence than an interleaved run: the machine, its load and the build may have changed since"

    /// Encodes the comparison in the order of its properties (the header
    /// first, each side's runs last), as the version this launchprof writes.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(kind, forKey: .kind)
        try container.encode(Self.currentSchemaVersion, forKey: .schemaVersion)
        try container.encode(name, forKey: .name)
        try container.encodeIfPresent(reportID, forKey: .reportID)
        try container.encode(toolVersion, forKey: .toolVersion)
        try container.encode(createdAt, forKey: .createdAt)
        try container.encode(source, forKey: .source)
        try container.encode(settings, forKey: .settings)
        try container.encode(gate, forKey: .gate)
        try container.encode(stages, forKey: .stages)
        try container.encode(stagesRun, forKey: .stagesRun)
        try container.encode(primaryMetric, forKey: .primaryMetric)
        try container.encode(outcome, forKey: .outcome)
        try container.encode(verdict, forKey: .verdict)
        try container.encode(failOverBudget, forKey: .failOverBudget)
        try container.encodeIfPresent(problem, forKey: .problem)
        try container.encode(warnings, forKey: .warnings)
        try container.encode(metrics, forKey: .metrics)
        try container.encodeIfPresent(fleet, forKey: .fleet)
        try container.encodeIfPresent(instructions, forKey: .instructions)
        try container.encodeIfPresent(decidedBy, forKey: .decidedBy)
        try container.encodeIfPresent(decidingMetrics, forKey: .decidingMetrics)
        try container.encode(changes, forKey: .changes)
        try container.encode(base, forKey: .base)
        try container.encode(head, forKey: .head)
    }

    /// The primary metric's comparison, if anything was compared.
    public var primary: MetricComparison? { metrics.first { $0.name == primaryMetric } }

    /// Where the two sides' measurements differ in ways that weaken a comparison
    /// (the machines are expected to differ `acrossMachines`, in a fleet comparison).
    static func environmentWarnings(base: MeasurementReport, head: MeasurementReport, acrossMachines: Bool = false)
        -> [String]
    {
        var differences: [String] = []
        let a = base.environment
        let b = head.environment
        if !acrossMachines {
            if a.hostname != b.hostname { differences.append("machine (\(a.hostname) vs \(b.hostname))") }
            if a.cpuCount != b.cpuCount { differences.append("CPU count (\(a.cpuCount) vs \(b.cpuCount))") }
            if a.cpuModel != b.cpuModel { differences.append("CPU (\(a.cpuModel) vs \(b.cpuModel))") }
            if a.clockSource != b.clockSource { differences.append("clock (\(a.clockSource) vs \(b.clockSource))") }
        }
        if base.configuration.mode != head.configuration.mode {
            differences.append("mode (\(base.configuration.mode.rawValue) vs \(head.configuration.mode.rawValue))")
        }
        if base.readyLabel != head.readyLabel {
            differences.append("ready condition (\(base.readyLabel) vs \(head.readyLabel))")
        }
        guard !differences.isEmpty else { return [] }
        return ["the two sides were measured differently: " + differences.joined(separator: ", ")]
    }
}
