import LaunchTracing

/// Explains slow launches: turns the main-thread spans of many runs into
/// ``Finding``s with one concrete recommendation each.
///
/// Blocking is told from CPU work by measurement: a span's off-CPU time (self
/// wall − CPU − run-queue wait, measured in every run), attributed to the wait
/// kinds the sampler saw blocked in any run of the same call site (pooled), with
/// what was waited on where the sampler could name it. Run-queue wait is CPU
/// contention, never blocking. A span's name or category never decides it.
///
/// Every threshold, and why it has its value, is in the catalog's "Thresholds" article.
public enum Advisor {
    /// Main-thread time blocked on one kind of wait below which a span gets no
    /// finding (median over runs, milliseconds). Low on purpose: the same call on
    /// a user's device can take many times longer than on a development machine,
    /// so blocking before the first frame is flagged whatever the launch's margin;
    /// its severity still follows its cost. See "Thresholds" in the catalog.
    public static let minimumBlockedMs = 1.0
    /// Main-thread CPU time below which a span gets no finding (median over runs, milliseconds).
    public static let minimumCPUMs = 5.0
    /// Run-queue wait from which a CPU finding mentions contention (median over runs, milliseconds).
    public static let minimumContentionMs = 1.0
    /// A launch whose median time to first frame is at most this share of its
    /// budget is comfortably inside it: its CPU findings are `info` at most.
    public static let comfortableShare = 0.5
    /// The share of the budget from which a finding is a `warning`.
    public static let warningShare = 0.05
    /// The share of the budget from which a finding is `critical`.
    public static let criticalShare = 0.2
    /// A site whose blocking costs at least this share of its CPU gets CPU advice
    /// at `info` at most: its blocking finding's remedy, moving it off the main
    /// queue, takes the CPU with it.
    public static let blockingLeadShare = 0.5
    /// How many named wait targets a finding lists at most.
    public static let maximumTargetsShown = 3

    /// The findings for a set of runs' timelines (one per run), most costly first.
    ///
    /// Budgets are not checked here: `verdict` (made once, from the same runs)
    /// is, and each failed check of a hook, a span or a background launch
    /// becomes a finding.
    public static func findings(for timelines: [LaunchTimeline], budget: LaunchBudget, verdict: BudgetVerdict)
        -> [Finding]
    {
        let runs = timelines.count
        guard runs > 0 else { return [] }
        let isBackground = timelines.contains { $0.isBackground }
        let frameBudget = isBackground ? budget.backgroundTimeToFirstFrameMs : budget.timeToFirstFrameMs
        let totalPhase: Phase = isBackground ? .timeToBackgroundReady : .timeToFirstFrame
        let totals = timelines.compactMap { $0.milliseconds(totalPhase) }
        let launchMedian = totals.isEmpty ? nil : Summary.median(totals)
        var findings: [Finding] = []

        for site in SpanSite.collect(timelines) {
            let wallMedian = Summary.median(padded(site.wall, to: runs))
            let blocking = blockingFindings(site, runs: runs, wallMedian: wallMedian, frameBudget: frameBudget)
            findings += blocking
            let cpu = Summary.median(padded(site.cpu, to: runs))
            // Moving the blocking work off the main queue takes its CPU with it: where
            // blocking is at least half the CPU, the blocking finding leads and the CPU one is `info` at most.
            let blockingLeads = blocking.map(\.medianMs).reduce(0, +) >= cpu * blockingLeadShare
            if cpu >= minimumCPUMs {
                let required = budget.requiredForFirstFrame.contains(site.name)
                let appeared = site.cpu.filter { $0 >= minimumCPUMs }.count
                let contention = Summary.median(padded(site.runQueue, to: runs))
                findings.append(
                    Finding(
                        rule: required ? .slowRequiredWork : .deferrableCPUWork,
                        severity: blockingLeads
                            ? .info : cpuSeverity(cpu, budget: frameBudget, launchMedianMs: launchMedian),
                        span: site.name, file: site.file, line: site.line, medianMs: cpu, spanMedianMs: wallMedian,
                        runsAppeared: appeared, runsTotal: runs, budgetShare: cpu / frameBudget,
                        recommendation: "", usageIsEstimated: site.estimatedRuns > 0 ? true : nil,
                        runQueueMs: contention >= minimumContentionMs ? contention : nil
                    ).worded)
            }
        }

        // A write long enough to be a blocking disk finding already is one (naming the file): the
        // write rule adds the sites it would miss, those under its threshold.
        let blockedOnDisk = Set(findings.filter { $0.rule == .mainThreadDiskIO }.map(\.siteKey))
        findings += diskWriteFindings(timelines, frameBudget: frameBudget).filter {
            !blockedOnDisk.contains($0.siteKey)
        }
        findings += budgetFindings(verdict, timelines: timelines, frameBudget: frameBudget)
        let paths = timelines.reduce(into: [String: String]()) { $0.merge($1.filePaths) { first, _ in first } }
        // A program without the harness is advised in its own terms.
        let withoutHarness = !timelines.contains { $0.usesHarness }
        for index in findings.indices {
            findings[index].filePath = findings[index].file.flatMap { paths[$0] }
            if withoutHarness {
                findings[index].withoutHarness = true
                findings[index] = findings[index].worded
            }
        }
        return findings.sorted {
            $0.severity != $1.severity ? $0.severity > $1.severity : $0.medianMs > $1.medianMs
        }
    }

    /// The blocking findings of one site: its off-CPU time in every run, split
    /// between the wait kinds the sampler saw in any run of it (pooled), or one
    /// finding of unknown kind when no run had a sample of a wait.
    static func blockingFindings(_ site: SpanSite, runs: Int, wallMedian: Double, frameBudget: Double) -> [Finding] {
        var costs: [(kind: WaitKind, values: [Double])] = []
        if site.offCPU.isEmpty {
            // Not accounted (an app measured without the harness): each run's own sampled attribution.
            costs = site.blocked.map { ($0.key, $0.value) }
        } else {
            var pool = site.pooledWaits
            // A wait the sampler saw but could not name and one it never saw are one rule.
            if let other = pool.removeValue(forKey: .other) { pool[.unknown, default: 0] += other }
            pool[.unknown] = pool[.unknown] ?? 0
            if pool.values.reduce(0, +) == 0 { pool = [.unknown: 1] }
            let total = Double(pool.values.reduce(0, +))
            for (kind, count) in pool where count > 0 {
                costs.append((kind, site.offCPU.map { $0 * Double(count) / total }))
            }
        }
        var findings: [Finding] = []
        for (kind, values) in costs.sorted(by: { $0.kind.rawValue < $1.kind.rawValue }) {
            let cost = Summary.median(padded(values, to: runs))
            guard cost >= minimumBlockedMs else { continue }
            let appeared = values.filter { $0 >= minimumBlockedMs }.count
            var targets = site.targets[kind] ?? [:]
            if kind == .unknown { targets.merge(site.targets[.other] ?? [:], uniquingKeysWith: +) }
            let named = WaitTarget.foldingPorts(targets).sorted {
                $0.value != $1.value ? $0.value > $1.value : $0.key.name < $1.key.name
            }
            .prefix(maximumTargetsShown).map(\.key)
            let rule = AdvisorRule(blockingOn: kind)
            findings.append(
                Finding(
                    rule: rule, severity: severity(cost, budget: frameBudget), span: site.name, file: site.file,
                    line: site.line, medianMs: cost, spanMedianMs: wallMedian, runsAppeared: appeared, runsTotal: runs,
                    budgetShare: cost / frameBudget,
                    recommendation: "", waitedOn: named.isEmpty ? nil : named,
                    usageIsEstimated: !site.offCPU.isEmpty && site.estimatedRuns > 0 ? true : nil
                ).worded)
        }
        return findings
    }

    /// One finding per failed check of a hook, a span or a background launch.
    private static func budgetFindings(_ verdict: BudgetVerdict, timelines: [LaunchTimeline], frameBudget: Double)
        -> [Finding]
    {
        let runs = timelines.count
        return verdict.checks.filter { !$0.passed }.compactMap { check in
            let cost = check.medianMs
            let limit = check.budgetMs
            switch check.subject {
            case .phase(.willFinishLaunching), .phase(.didFinishLaunching):
                let hook = check.subject.description
                return Finding(
                    rule: .hookOverBudget, severity: .critical, span: hook, file: nil, line: nil,
                    medianMs: cost, spanMedianMs: cost, runsAppeared: check.runsOver, runsTotal: runs,
                    budgetShare: cost / limit,
                    recommendation: "", budgetMs: limit, runsMeasured: check.runsMeasured
                ).worded
            case .span(let name):
                guard let span = timelines.lazy.flatMap(\.mainThreadSpans).first(where: { $0.name == name }) else {
                    return nil
                }
                return Finding(
                    rule: .spanOverBudget, severity: .critical, span: name, file: span.file, line: span.line,
                    medianMs: cost, spanMedianMs: cost, runsAppeared: check.runsOver, runsTotal: runs,
                    budgetShare: cost / limit,
                    recommendation: "", budgetMs: limit
                ).worded
            case .phase(.timeToBackgroundReady):
                return Finding(
                    rule: .backgroundLaunchOverLimit, severity: .critical, span: Phase.timeToBackgroundReady.rawValue,
                    file: nil, line: nil,
                    medianMs: cost, spanMedianMs: cost, runsAppeared: check.runsOver, runsTotal: runs,
                    budgetShare: cost / limit,
                    recommendation: "", budgetMs: limit
                ).worded
            case .phase:
                return nil
            }
        }
    }

    /// The severity of a cost by its share of the budget: `info` under 5%, `warning` from 5%, `critical` from 20%.
    static func severity(_ cost: Double, budget: Double) -> Finding.Severity {
        let share = cost / budget
        return share >= criticalShare ? .critical : share >= warningShare ? .warning : .info
    }

    /// CPU work by what is at stake: `info` at most in a launch comfortably
    /// inside its budget (first frame at most half of it), at least `warning` in
    /// one over it, by its share of the budget in between (or when the launch's
    /// total is unknown).
    static func cpuSeverity(_ cost: Double, budget: Double, launchMedianMs: Double?) -> Finding.Severity {
        let byShare = severity(cost, budget: budget)
        guard let launch = launchMedianMs else { return byShare }
        if launch <= budget * comfortableShare { return .info }
        if launch > budget { return max(byShare, .warning) }
        return byShare
    }

    /// Missing runs count as zero, so a cost seen in one run of ten is not its median.
    static func padded(_ values: [Double], to count: Int) -> [Double] {
        values + Array(repeating: 0, count: max(0, count - values.count))
    }
}

extension Finding {
    static func short(_ file: String) -> String { SourceSite.fileName(file) }
}
