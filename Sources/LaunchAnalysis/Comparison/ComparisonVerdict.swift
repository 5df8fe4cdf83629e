/// What a whole comparison concluded, as its JSON's top-level `verdict` says:
/// the gated metrics' verdict when the comparison answered, else why it did not.
///
/// It agrees with the ``ComparisonReport/outcome`` by construction: a comparison
/// that was stopped (a signal, a side that could not launch) is ``interrupted``,
/// one that refused (failed runs, no runs, nothing comparable) is ``error``,
/// never `pass`. A head over its budget with `--fail-over-budget` keeps the
/// metrics' verdict (`pass`); its outcome is `over-budget` (exit 1). In JSON, the
/// case name; reports of schema version 3 and older hold only the first four.
///
/// ```swift
/// switch report.verdict {
/// case .regression: print("slower")
/// case .pass, .improvement: print("fine")
/// case .inconclusive: print("launch more")
/// case .interrupted, .error: print("no verdict: \(report.outcome.reason)")
/// }
/// ```
public enum ComparisonVerdict: String, Sendable, Hashable, Codable, CaseIterable {
    /// A gated metric got slower by more than the minimum effect (exit 1).
    case regression
    /// No gated metric got slower by the minimum effect or more.
    case pass
    /// The primary metric got faster, and no gated metric slower.
    case improvement
    /// The data could not tell (exit 3).
    case inconclusive
    /// Stopped before its answer (exit 128 + the signal, or 2): see ``ReportOutcome/NoAnswer/interrupted``.
    case interrupted
    /// Refused to judge (exit 2): see ``ReportOutcome/NoAnswer/error``.
    case error

    /// The verdict of a comparison whose outcome is `outcome` and whose gated
    /// metrics concluded `gated`: the outcome's ``ReportOutcome/noAnswer`` when
    /// it has one, else `gated`.
    ///
    /// ```swift
    /// ComparisonVerdict(outcome: stopped, gated: .pass)   // .interrupted
    /// ```
    public init(outcome: ReportOutcome, gated: MetricVerdict) {
        switch outcome.noAnswer {
        case .interrupted?: self = .interrupted
        case .error?: self = .error
        case nil:
            switch gated {
            case .regression: self = .regression
            case .pass: self = .pass
            case .improvement: self = .improvement
            case .inconclusive: self = .inconclusive
            }
        }
    }
}
