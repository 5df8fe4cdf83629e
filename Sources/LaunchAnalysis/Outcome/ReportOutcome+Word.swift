extension ReportOutcome {
    /// How an outcome reads at a glance: every renderer draws it in its own
    /// way (the terminal's green, yellow or red; the page's colour; Markdown's
    /// ✅, ⚠️ or ❌), and none decides it.
    public enum Tone: String, Sendable, Hashable, CaseIterable {
        /// It passed.
        case good
        /// It could not say, or was cut short: no runs, stopped, inconclusive.
        case warning
        /// It failed: over budget, failed runs, a regression, nothing to compare.
        case bad
    }

    /// The word every report shows for the outcome: `PASS`, `FAIL`, `FAILED RUNS`… (``ReportOutcome/Status/word``).
    public var word: String { status.word }

    /// How the outcome reads at a glance (``ReportOutcome/Status/tone``).
    public var tone: Tone { status.tone }
}

extension ReportOutcome.Status {
    /// The word every report shows for the status, in capitals: `PASS`, `FAIL`
    /// (over budget), `FAILED RUNS`, `NO RUNS`, `STOPPED`, `REGRESSION`,
    /// `INCONCLUSIVE`, `INCOMPARABLE`. The JSON keeps the status's raw value.
    ///
    /// ```swift
    /// ReportOutcome.Status.overBudget.word   // "FAIL"
    /// ```
    public var word: String {
        switch self {
        case .pass: return "PASS"
        case .overBudget: return "FAIL"
        case .failedRuns: return "FAILED RUNS"
        case .noRuns: return "NO RUNS"
        case .interrupted: return "STOPPED"
        case .regression: return "REGRESSION"
        case .inconclusive: return "INCONCLUSIVE"
        case .incomparable: return "INCOMPARABLE"
        }
    }

    /// How the status reads at a glance: good for a pass; a warning when no run
    /// completed, the command was stopped, or a comparison could not tell; bad
    /// for the rest.
    public var tone: ReportOutcome.Tone {
        switch self {
        case .pass: return .good
        case .noRuns, .interrupted, .inconclusive: return .warning
        case .overBudget, .failedRuns, .regression, .incomparable: return .bad
        }
    }
}
