import LaunchTracing

/// Whether launch fits its budget: per checked phase, and overall.
///
/// The median over runs is compared against each limit (a single slow run does
/// not fail the gate; a typical one does). Uninstrumented programs have no
/// first frame: their `timeToReady` is checked against the time-to-first-frame
/// budget.
public struct BudgetVerdict: Sendable, Codable, Equatable {
    /// One limit checked.
    public struct Check: Sendable, Codable, Equatable {
        /// What was checked: a phase id, a hook, or `span:<name>`.
        public var subject: String
        /// The subject's median over the successful counted runs, milliseconds.
        public var medianMs: Double
        /// The limit it was checked against, milliseconds.
        public var budgetMs: Double
        /// True when ``medianMs`` is at most ``budgetMs``.
        public var passed: Bool
    }

    /// Every limit checked: the launch total first, then hooks, then spans, each sorted by name.
    public var checks: [Check]
    /// True when every check passed (and there was something to check).
    public var passed: Bool

    /// Makes a verdict from checks already made; it passes only when there is at
    /// least one check and every one passed.
    public init(checks: [Check]) {
        self.checks = checks
        self.passed = !checks.isEmpty && checks.allSatisfy(\.passed)
    }

    init(phases: [LaunchProfile.PhaseStatistics], timelines: [LaunchTimeline], budget: LaunchBudget, instrumented: Bool) {
        var checks: [Check] = []
        func check(_ subject: String, _ median: Double?, _ limit: Double) {
            guard let median else { return }
            checks.append(Check(subject: subject, medianMs: median, budgetMs: limit, passed: median <= limit))
        }
        func median(_ phase: Phase) -> Double? { phases.first { $0.phase == phase }?.summary.median }
        let background = timelines.contains { $0.isBackground }
        if background {
            check(Phase.timeToBackgroundReady.rawValue, median(.timeToBackgroundReady), budget.backgroundTimeToFirstFrameMs)
        } else if instrumented {
            check(Phase.timeToFirstFrame.rawValue, median(.timeToFirstFrame), budget.timeToFirstFrameMs)
        } else {
            check(Phase.timeToReady.rawValue, median(.timeToReady), budget.timeToFirstFrameMs)
        }
        for (hook, limit) in budget.hooksMs.sorted(by: { $0.key < $1.key }) {
            check(hook, Phase(rawValue: hook).flatMap(median), limit)
        }
        for (name, limit) in budget.spansMs.sorted(by: { $0.key < $1.key }) {
            check("span:\(name)", Summary.of(timelines.map { $0.mainThreadMilliseconds(named: name) })?.median, limit)
        }
        self.init(checks: checks)
    }
}
