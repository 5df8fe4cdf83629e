import LaunchAnalysis

/// Words about a finding that more than one renderer writes.
enum FindingText {
    /// `12% of the time-to-first-frame budget`, or for a hook or span over its
    /// own budget, that budget: `522% of didFinishLaunching's budget (150 ms)`.
    ///
    /// A program without the harness and without a budget (none given, none in a
    /// file) has its findings' costs shown as a share of its median time to ready.
    ///
    /// A budget finding's share is taken against the budget check it came from
    /// (reports written before findings carried that share hold one against the
    /// time-to-first-frame budget); every other finding's is ``Finding/budgetShare``.
    static func budgetShare(_ finding: Finding, in profile: LaunchProfile) -> String {
        switch finding.rule {
        case .hookOverBudget, .spanOverBudget, .backgroundLaunchOverLimit:
            if let check = budgetCheck(of: finding, in: profile), check.budgetMs > 0 {
                let name =
                    finding.rule == .backgroundLaunchOverLimit ? "the background limit" : "\(finding.span)'s budget"
                return "\(Percent.whole(finding.medianMs / check.budgetMs)) of \(name) (\(ms(check.budgetMs)))"
            }
        default:
            break
        }
        // A program without the harness is checked against a budget only when one was given.
        if finding.withoutHarness == true, !profile.isBackground,
            profile.verdict.check(.phase(.timeToFirstFrame)) == nil
        {
            guard let ready = profile.statistics(.timeToFirstFrame)?.summary.median, ready > 0 else {
                return "no budget set"
            }
            return Percent.whole(finding.medianMs / ready) + " of the time to ready (no budget set)"
        }
        return Percent.whole(finding.budgetShare) + " of " + frameBudgetName(profile)
    }

    /// The budget check a budget finding came from: a hook's phase, a span's own
    /// budget, or the background limit.
    static func budgetCheck(of finding: Finding, in profile: LaunchProfile) -> BudgetVerdict.Check? {
        switch finding.rule {
        case .spanOverBudget: return profile.verdict.check(.span(finding.span))
        case .hookOverBudget: return Phase(rawValue: finding.span).flatMap { profile.verdict.check(.phase($0)) }
        case .backgroundLaunchOverLimit: return profile.verdict.check(.phase(.timeToBackgroundReady))
        default: return nil
        }
    }

    /// The budget every finding but a budget one is a share of.
    static func frameBudgetName(_ profile: LaunchProfile) -> String {
        profile.isBackground ? "the background limit" : "the time-to-first-frame budget"
    }

    /// What `≈` means, said once where it appears: an estimate, attributed rather than read.
    static let estimateNote =
        "≈ marks an estimate, attributed rather than read: a span's boundary placed from the tracer's readings "
        + "around it (off by at most 50 µs), or blocked time split between kinds by the sampler's samples"

    /// What kind of time a finding's cost is: `CPU`, `blocked on disk`, … or `wall` (a budget's whole time).
    static func costKind(_ rule: AdvisorRule) -> String {
        switch rule {
        case .mainThreadDiskIO, .mainThreadDiskWrite: return "blocked on disk"
        case .mainThreadNetwork: return "blocked on the network"
        case .mainThreadLockWait: return "blocked on a lock"
        case .mainThreadSleep: return "asleep"
        case .mainThreadProcessWait: return "blocked on a child process"
        case .mainThreadIPCWait: return "blocked on a pipe or socket"
        case .mainThreadEventWait: return "blocked on an event"
        case .mainThreadBlocked: return "blocked"
        case .deferrableCPUWork, .slowRequiredWork: return "CPU"
        case .hookOverBudget, .spanOverBudget, .backgroundLaunchOverLimit: return "wall"
        }
    }
}

extension LaunchProfile {
    /// True when the runs were launches into the background (their total is the background limit's).
    fileprivate var isBackground: Bool { statistics(.timeToBackgroundReady) != nil }
}
