import LaunchTracing

/// Whether launch fits its budget: per checked subject, and overall. The one
/// place budgets are checked; the advisor reads its checks.
///
/// The median over runs is compared against each limit (a single slow run does
/// not fail the gate; a typical one does). Uninstrumented programs have no
/// first frame: their `timeToReady` is checked against the time-to-first-frame
/// budget.
public struct BudgetVerdict: Sendable, Codable, Equatable {
    /// One limit checked.
    public struct Check: Sendable, Codable, Equatable {
        /// What was checked.
        public var subject: BudgetSubject
        /// The subject's median over the successful counted runs, milliseconds.
        public var medianMs: Double
        /// The limit it was checked against, milliseconds.
        public var budgetMs: Double
        /// True when ``medianMs`` is at most ``budgetMs``.
        public var passed: Bool
        /// In how many runs the subject was over its limit (0 when not recorded).
        public var runsOver: Int
        /// In how many runs the subject was measured (0 when not recorded).
        public var runsMeasured: Int

        /// Makes a check of `subject`; it passes when the median is within the limit.
        public init(
            subject: BudgetSubject, medianMs: Double, budgetMs: Double, runsOver: Int = 0, runsMeasured: Int = 0
        ) {
            self.subject = subject
            self.medianMs = medianMs
            self.budgetMs = budgetMs
            self.passed = medianMs <= budgetMs
            self.runsOver = runsOver
            self.runsMeasured = runsMeasured
        }

        /// Decodes a check; schema-1 reports have no run counts.
        public init(from decoder: any Decoder) throws {
            let container = try decoder.container(keyedBy: CodingKeys.self)
            subject = try container.decode(BudgetSubject.self, forKey: .subject)
            medianMs = try container.decode(Double.self, forKey: .medianMs)
            budgetMs = try container.decode(Double.self, forKey: .budgetMs)
            passed = try container.decode(Bool.self, forKey: .passed)
            runsOver = try container.decodeIfPresent(Int.self, forKey: .runsOver) ?? 0
            runsMeasured = try container.decodeIfPresent(Int.self, forKey: .runsMeasured) ?? 0
        }
    }

    /// Every limit checked: the launch total first, then hooks, then spans, each sorted by name.
    public var checks: [Check]
    /// True when every check passed; true too with nothing to check (no budget
    /// from any source: the launches are measured and reported, not failed).
    public var passed: Bool

    /// Makes a verdict from checks already made; it passes when every one passed
    /// (``summary`` says when there was none).
    public init(checks: [Check]) {
        self.checks = checks
        self.passed = checks.allSatisfy(\.passed)
    }

    /// Checks `budget` against the successful runs' values: `phases` per phase, and
    /// the timelines' main-thread spans.
    init(phases: [Phase: [Double]], timelines: [LaunchTimeline], budget: LaunchBudget, instrumented: Bool) {
        var checks: [Check] = []
        func check(_ subject: BudgetSubject, _ values: [Double], _ limit: Double) {
            guard !values.isEmpty else { return }
            checks.append(
                Check(
                    subject: subject, medianMs: Summary.median(values), budgetMs: limit,
                    runsOver: values.filter { $0 > limit }.count, runsMeasured: values.count))
        }
        // The launch's total: to the end of the hooks in the background, to the first
        // frame when the app reports one, else to the ready condition.
        let total: Phase =
            timelines.contains { $0.isBackground }
            ? .timeToBackgroundReady
            : instrumented && phases[.timeToFirstFrame] != nil ? .timeToFirstFrame : .timeToReady
        check(
            .phase(total), phases[total] ?? [],
            total == .timeToBackgroundReady ? budget.backgroundTimeToFirstFrameMs : budget.timeToFirstFrameMs)
        for (hook, limit) in budget.hooksMs.sorted(by: { $0.key.rawValue < $1.key.rawValue }) {
            check(.phase(Phase(hook)), phases[Phase(hook)] ?? [], limit)
        }
        for (name, limit) in budget.spansMs.sorted(by: { $0.key < $1.key }) {
            check(.span(name), timelines.map { $0.mainThreadMilliseconds(named: name) }, limit)
        }
        self.init(checks: checks)
    }

    /// One line for people: `timeToFirstFrame 123 ms (median) within budget 400 ms`
    /// when it passed, else every failed check: `didFinishLaunching 180 ms > 150 ms (medians)`.
    public var summary: String {
        if checks.isEmpty {
            // Not "measured, …": every report shows that word before this reason already.
            return "no budget to check (give one with --budget-ms, a budget file or in the app's code)"
        }
        if passed {
            let main = checks[0]
            return
                "\(main.subject) \(Milliseconds.text(main.medianMs)) (median) within budget \(Milliseconds.text(main.budgetMs))"
        }
        let over = checks.filter { !$0.passed }
        guard !over.isEmpty else { return "nothing to check" }
        return over.map { "\($0.subject) \(Milliseconds.comparison($0.medianMs, $0.budgetMs))" }.joined(separator: ", ")
            + " (medians)"
    }

    /// The check of `subject`, if it was checked.
    public func check(_ subject: BudgetSubject) -> Check? {
        checks.first { $0.subject == subject }
    }
}
