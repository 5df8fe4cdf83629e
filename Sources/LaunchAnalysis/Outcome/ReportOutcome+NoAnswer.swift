extension ReportOutcome {
    /// What an outcome stands for when the command gave no answer: it was
    /// stopped, or it refused to judge. Every format writes it as such, never
    /// as a pass.
    ///
    /// A measurement's or comparison's answer is a pass, a budget exceeded, a
    /// regression or "cannot tell" (inconclusive); anything else is one of these.
    /// In JSON (a comparison's `verdict`), the case name.
    ///
    /// ```swift
    /// if let missing = report.outcome.noAnswer { print("no verdict: \(missing.rawValue)") }  // "interrupted"
    /// ```
    public enum NoAnswer: String, Sendable, Hashable, CaseIterable {
        /// Stopped before it could answer: by a signal (exit 128 + N), or by a
        /// launch that could not be started after others were measured (exit 2).
        case interrupted
        /// Refused: runs failed, none completed, or the two sides could not be compared (exit 2).
        case error
    }

    /// Why this outcome is no answer (``NoAnswer``), or nil when it is one
    /// (``ReportOutcome/Status/noAnswer``).
    public var noAnswer: NoAnswer? { status.noAnswer }

    /// The reason as every report's headline states it: for an outcome that is no
    /// answer, prefixed by what it is (``NoAnswer/phrase``), so no format can read as
    /// a verdict; the reason itself otherwise. The JSON keeps ``reason`` as it is.
    ///
    /// ```swift
    /// stopped.headline   // "no verdict (interrupted): base: stopped by SIGINT; the report covers the 11 run(s) before it"
    /// ```
    public var headline: String { noAnswer.map { $0.phrase + ": " + reason } ?? reason }
}

extension ReportOutcome.NoAnswer {
    /// How reports say it: `no verdict (interrupted)`, `no verdict (error)`.
    public var phrase: String { "no verdict (\(rawValue))" }

    /// What a report shows in place of a metric's or a check's own verdict when the
    /// whole has none: `not judged (interrupted)`, `not judged (error)`.
    public var notJudged: String { "not judged (\(rawValue))" }
}

extension ReportOutcome.Status {
    /// `.interrupted` for a stop, `.error` for failed runs, no runs and an
    /// incomparable comparison; nil for a pass, over budget, a regression and
    /// inconclusive, which are answers.
    ///
    /// ```swift
    /// ReportOutcome.Status.incomparable.noAnswer   // .error
    /// ReportOutcome.Status.inconclusive.noAnswer   // nil
    /// ```
    public var noAnswer: ReportOutcome.NoAnswer? {
        switch self {
        case .interrupted: return .interrupted
        case .failedRuns, .noRuns, .incomparable: return .error
        case .pass, .overBudget, .regression, .inconclusive: return nil
        }
    }
}
