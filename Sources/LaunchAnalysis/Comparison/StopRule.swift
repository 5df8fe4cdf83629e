/// What an interleaved session asks at the end of each stage: stop launching, or go on.
///
/// `CompareSession` calls ``stop(afterStage:base:head:)`` with both sides' launches
/// so far; ``ComparisonRule`` implements it with a comparison plan's look, and
/// ``StopAfterFirstStage`` for sessions of one stage (calibration rounds).
public protocol StopRule {
    /// True to stop after stage `stage` (0-based), given both sides' launches so far.
    mutating func stop(afterStage stage: Int, base: CollectedLaunches, head: CollectedLaunches) -> Bool
}

/// Stops after the first stage: a session of one stage.
public struct StopAfterFirstStage: StopRule {
    /// The rule.
    public init() {}

    /// Always true.
    public func stop(afterStage stage: Int, base: CollectedLaunches, head: CollectedLaunches) -> Bool { true }
}

/// A comparison plan as the stop rule of an interleaved session: at each stage
/// it builds both sides' reports and looks, exactly as the comparison report
/// would, and keeps that look, so that the report reuses the decision the last
/// look made instead of looking again.
///
/// ```swift
/// var rule = ComparisonRule(plan: plan, base: basePlan, head: headPlan, budget: budget)
/// let compared = try CompareSession.run(base: a, head: b, stages: plan.stages, progress: nil, rule: &rule)
/// let report = rule.report(base: compared.base, head: compared.head, stagesRun: compared.stagesRun)
/// ```
public struct ComparisonRule: StopRule, Sendable {
    /// How the sides are compared, and at which stages.
    public let plan: ComparisonPlan
    /// Each side's measurement plan.
    public let base: MeasurementPlan, head: MeasurementPlan
    /// The budget each side is judged against.
    public let budget: BudgetResolution
    /// The last look: its stage, the launches per side it saw, and what it found.
    public private(set) var last: (stage: Int, runs: [Int], look: Result<ComparisonLook, ComparisonError>)?

    /// The rule of `plan` over sides measured under `base` and `head`, judged against `budget`.
    public init(plan: ComparisonPlan, base: MeasurementPlan, head: MeasurementPlan, budget: BudgetResolution) {
        self.plan = plan
        self.base = base
        self.head = head
        self.budget = budget
    }

    /// Looks at both sides after `stage`; stops when the look has a verdict, is the last, or cannot be made.
    public mutating func stop(afterStage stage: Int, base: CollectedLaunches, head: CollectedLaunches) -> Bool {
        let a = MeasurementReport(plan: self.base, collected: base, budget: budget)
        let b = MeasurementReport(plan: self.head, collected: head, budget: budget)
        let look = Result { () throws(ComparisonError) in try plan.look(stage, base: a, head: b) }
        last = (stage, [base.runs.count, head.runs.count], look)
        return (try? look.get().stop) ?? true
    }

    /// The comparison report of the session's final launches: the last look
    /// is reused when the sides hold exactly the launches it saw at the stage
    /// the session ended on; otherwise (the session was stopped between looks) it looks again.
    public func report(base collected: CollectedLaunches, head headCollected: CollectedLaunches, stagesRun: Int)
        -> ComparisonReport
    {
        let reused = last.flatMap { last in
            last.stage == max(0, stagesRun - 1) && last.runs == [collected.runs.count, headCollected.runs.count]
                ? last.look : nil
        }
        return ComparisonReport(
            plan: plan, base: MeasurementReport(plan: base, collected: collected, budget: budget),
            head: MeasurementReport(plan: head, collected: headCollected, budget: budget), stagesRun: stagesRun,
            createdAt: headCollected.finishedAt, look: reused)
    }
}
