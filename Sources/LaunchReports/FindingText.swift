import LaunchAnalysis

/// Words about a finding that more than one renderer writes.
enum FindingText {
    /// `12% of the time-to-first-frame budget`, or for a hook or span over its
    /// own budget, that budget: `522% of didFinishLaunching's budget (150 ms)`.
    ///
    /// A budget finding's share is taken against the budget check it came from
    /// (reports written before findings carried that share hold one against the
    /// time-to-first-frame budget); every other finding's is ``Finding/budgetShare``.
    static func budgetShare(_ finding: Finding, in profile: LaunchProfile) -> String {
        switch finding.rule {
        case .hookOverBudget, .spanOverBudget, .backgroundLaunchOverLimit:
            if let check = profile.verdict.checks.first(where: { $0.subject.description == finding.span }), check.budgetMs > 0 {
                let name = finding.rule == .backgroundLaunchOverLimit ? "the background limit" : "\(finding.span)'s budget"
                return "\(percent(finding.medianMs / check.budgetMs)) of \(name) (\(ms(check.budgetMs)))"
            }
        default:
            break
        }
        return percent(finding.budgetShare) + " of " + frameBudgetName(profile)
    }

    /// The budget every finding but a budget one is a share of.
    static func frameBudgetName(_ profile: LaunchProfile) -> String {
        profile.statistics(.timeToBackgroundReady) != nil ? "the background limit" : "the time-to-first-frame budget"
    }

    private static func percent(_ share: Double) -> String {
        share.isFinite ? "\(Int(saturating: (share * 100).rounded()))%" : "—"
    }
}
