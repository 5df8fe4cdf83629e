import LaunchTracing

/// Explains slow launches: turns the main-thread spans of many runs into
/// ``Finding``s with one concrete recommendation each.
///
/// Blocking is told from CPU work by measurement: a span's self wall time
/// against the main thread's CPU time over it, and the sampler's record of the
/// system call the thread was blocked in. A span's name or category never
/// decides it.
public enum Advisor {
    /// Main-thread time blocked on one kind of wait below which a span gets no
    /// finding (median over runs, milliseconds).
    public static let minimumBlockedMs = 2.0
    /// Main-thread CPU time below which a span gets no finding (median over runs, milliseconds).
    public static let minimumCPUMs = 5.0

    /// The findings for a set of runs' timelines (one per run), most costly first.
    ///
    /// Budgets are not checked here: `verdict` (made once, from the same runs)
    /// is, and each failed check of a hook, a span or a background launch
    /// becomes a finding.
    public static func findings(for timelines: [LaunchTimeline], budget: LaunchBudget, verdict: BudgetVerdict) -> [Finding] {
        let runs = timelines.count
        guard runs > 0 else { return [] }
        let isBackground = timelines.contains { $0.isBackground }
        let frameBudget = isBackground ? budget.backgroundTimeToFirstFrameMs : budget.timeToFirstFrameMs
        var findings: [Finding] = []

        for site in SpanSite.collect(timelines) {
            let wallMedian = Summary.median(padded(site.wall, to: runs))
            for (kind, values) in site.blocked.sorted(by: { $0.key.rawValue < $1.key.rawValue }) {
                let cost = Summary.median(padded(values, to: runs))
                let appeared = values.filter { $0 >= minimumBlockedMs }.count
                guard cost >= minimumBlockedMs else { continue }
                let (what, fix) = blockingAdvice(kind)
                findings.append(Finding(
                    rule: AdvisorRule(blockingOn: kind), severity: severity(cost, budget: frameBudget), span: site.name, file: site.file,
                    line: site.line, medianMs: cost, spanMedianMs: wallMedian, runsAppeared: appeared, runsTotal: runs,
                    budgetShare: cost / frameBudget,
                    recommendation: "\(fix) the \(what) in \(site.name) (\(Finding.short(site.file)):\(site.line)) off the main queue "
                        + "with app.runInBackground: the main thread was blocked on \(kind.phrase) for "
                        + "\(Milliseconds.text(cost)) of the \(Milliseconds.text(wallMedian)) span in \(appeared) of \(runs) runs"))
            }
            let cpu = Summary.median(padded(site.cpu, to: runs))
            if cpu >= minimumCPUMs {
                let required = budget.requiredForFirstFrame.contains(site.name)
                let appeared = site.cpu.filter { $0 >= minimumCPUMs }.count
                let recommendation = required
                    ? "\(site.name) (\(Finding.short(site.file)):\(site.line)) is needed for the first frame but spends "
                        + "\(Milliseconds.text(cpu)) of CPU on the main thread in \(appeared) of \(runs) runs: move it off the main queue "
                        + "with app.runInBackground and show a placeholder, or make it cheaper (load only what the first screen shows)"
                    : "defer \(site.name) (\(Finding.short(site.file)):\(site.line)) with app.deferUntilAfterFirstFrame: "
                        + "it spends \(Milliseconds.text(cpu)) of CPU on the main thread before the first frame in \(appeared) of \(runs) runs, "
                        + "and it is not listed in requiredForFirstFrame"
                findings.append(Finding(
                    rule: required ? .slowRequiredWork : .deferrableCPUWork, severity: severity(cpu, budget: frameBudget),
                    span: site.name, file: site.file, line: site.line, medianMs: cpu, spanMedianMs: wallMedian,
                    runsAppeared: appeared, runsTotal: runs, budgetShare: cpu / frameBudget,
                    recommendation: recommendation))
            }
        }

        findings += budgetFindings(verdict, timelines: timelines, frameBudget: frameBudget)
        let paths = timelines.reduce(into: [String: String]()) { $0.merge($1.filePaths) { first, _ in first } }
        for index in findings.indices {
            findings[index].filePath = findings[index].file.flatMap { paths[$0] }
        }
        return findings.sorted {
            $0.severity != $1.severity ? $0.severity > $1.severity : $0.medianMs > $1.medianMs
        }
    }

    /// One finding per failed check of a hook, a span or a background launch.
    private static func budgetFindings(_ verdict: BudgetVerdict, timelines: [LaunchTimeline], frameBudget: Double) -> [Finding] {
        let runs = timelines.count
        return verdict.checks.filter { !$0.passed }.compactMap { check in
            let cost = check.medianMs, limit = check.budgetMs
            switch check.subject {
            case .phase(.willFinishLaunching), .phase(.didFinishLaunching):
                let hook = check.subject.description
                return Finding(
                    rule: .hookOverBudget, severity: .critical, span: hook, file: nil, line: nil,
                    medianMs: cost, spanMedianMs: cost, runsAppeared: check.runsOver, runsTotal: runs,
                    budgetShare: cost / limit,
                    recommendation: "\(hook) takes \(Milliseconds.text(cost)) against its budget of \(Milliseconds.text(limit)) (median of \(check.runsMeasured) runs): "
                        + "return sooner — a hook that blocks too long gets the app killed by the watchdog")
            case .span(let name):
                guard let span = timelines.lazy.flatMap(\.mainThreadSpans).first(where: { $0.name == name }) else { return nil }
                return Finding(
                    rule: .spanOverBudget, severity: .critical, span: name, file: span.file, line: span.line,
                    medianMs: cost, spanMedianMs: cost, runsAppeared: check.runsOver, runsTotal: runs,
                    budgetShare: cost / limit,
                    recommendation: "\(name) takes \(Milliseconds.text(cost)) against its budget of \(Milliseconds.text(limit)): make it cheaper or move it")
            case .phase(.timeToBackgroundReady):
                return Finding(
                    rule: .backgroundLaunchOverLimit, severity: .critical, span: Phase.timeToBackgroundReady.rawValue, file: nil, line: nil,
                    medianMs: cost, spanMedianMs: cost, runsAppeared: check.runsOver, runsTotal: runs,
                    budgetShare: cost / limit,
                    recommendation: "a background launch takes \(Milliseconds.text(cost)) to finish its hooks against a limit of "
                        + "\(Milliseconds.text(limit)): background execution time is short, so do only what this launch reason needs")
            case .phase:
                return nil
            }
        }
    }

    /// What blocked and what to do: ("disk I/O", "move").
    static func blockingAdvice(_ kind: WaitKind) -> (what: String, fix: String) {
        switch kind {
        case .disk: return ("disk I/O", "move")
        case .network: return ("network request", "move")
        case .lock: return ("lock/semaphore wait", "move")
        case .sleep: return ("sleep", "remove or move")
        case .other, .unknown: return ("blocking work", "move")
        }
    }

    static func severity(_ cost: Double, budget: Double) -> Finding.Severity {
        let share = cost / budget
        return share >= 0.2 ? .critical : share >= 0.05 ? .warning : .info
    }

    /// Missing runs count as zero, so a cost seen in one run of ten is not its median.
    static func padded(_ values: [Double], to count: Int) -> [Double] {
        values + Array(repeating: 0, count: max(0, count - values.count))
    }
}

extension Finding {
    static func short(_ file: String) -> String { SourceSite.fileName(file) }
}
