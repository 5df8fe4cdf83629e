import LaunchTracing

/// Explains slow launches: turns the main-thread spans of many runs into
/// ``Finding``s with one concrete recommendation each.
///
/// Blocking is told from CPU work by measurement: a span's self wall time
/// against the main thread's CPU time over it, and the sampler's record of the
/// system call the thread was blocked in. A span's name or category never
/// decides it.
public enum Advisor {
    /// Every rule, with what it means.
    public static let rules: [(id: String, meaning: String)] = [
        ("main-thread-disk-io", "the main thread blocked on disk I/O before the first frame"),
        ("main-thread-network", "the main thread waited on the network before the first frame"),
        ("main-thread-lock-wait", "the main thread waited on a lock or semaphore before the first frame"),
        ("main-thread-sleep", "the main thread slept before the first frame"),
        ("main-thread-blocked", "the main thread was blocked on something the sampler could not name"),
        ("deferrable-cpu-work", "long CPU work before the first frame that the first frame does not need"),
        ("slow-required-work", "long CPU work the first frame needs"),
        ("hook-over-budget", "a launch hook took longer than its budget"),
        ("span-over-budget", "a named span took longer than its budget"),
        ("background-launch-over-limit", "a launch into the background took longer than its limit"),
    ]

    /// Main-thread time blocked on one kind of wait below which a span gets no
    /// finding (median over runs, milliseconds).
    public static let minimumBlockedMs = 2.0
    /// Main-thread CPU time below which a span gets no finding (median over runs, milliseconds).
    public static let minimumCPUMs = 5.0

    /// The findings for a set of runs' timelines (one per run), most costly first.
    public static func findings(for timelines: [LaunchTimeline], budget: LaunchBudget) -> [Finding] {
        let runs = timelines.count
        guard runs > 0 else { return [] }
        let isBackground = timelines.contains { $0.isBackground }
        let frameBudget = isBackground ? budget.backgroundTimeToFirstFrameMs : budget.timeToFirstFrameMs
        var findings: [Finding] = []

        for site in SpanSite.collect(timelines) {
            let wallMedian = median(padded(site.wall, to: runs))
            for (kind, values) in site.blocked {
                let cost = median(padded(values, to: runs))
                let appeared = values.filter { $0 >= minimumBlockedMs }.count
                guard cost >= minimumBlockedMs else { continue }
                let (rule, what, fix) = blockingAdvice(kind)
                findings.append(Finding(
                    rule: rule, severity: severity(cost, budget: frameBudget), span: site.name, file: site.file,
                    line: site.line, medianMs: cost, spanMedianMs: wallMedian, runsAppeared: appeared, runsTotal: runs,
                    budgetShare: cost / frameBudget,
                    recommendation: "\(fix) the \(what) in \(site.name) (\(Finding.short(site.file)):\(site.line)) off the main queue "
                        + "with app.runInBackground: the main thread was blocked on \(kindPhrase(kind)) for "
                        + "\(Milliseconds.text(cost)) of the \(Milliseconds.text(wallMedian)) span in \(appeared) of \(runs) runs"))
            }
            let cpu = median(padded(site.cpu, to: runs))
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
                    rule: required ? "slow-required-work" : "deferrable-cpu-work", severity: severity(cpu, budget: frameBudget),
                    span: site.name, file: site.file, line: site.line, medianMs: cpu, spanMedianMs: wallMedian,
                    runsAppeared: appeared, runsTotal: runs, budgetShare: cpu / frameBudget,
                    recommendation: recommendation))
            }
        }

        findings += budgetFindings(timelines, budget: budget, frameBudget: frameBudget)
        return findings.sorted {
            $0.severity != $1.severity ? $0.severity > $1.severity : $0.medianMs > $1.medianMs
        }
    }

    private static func budgetFindings(_ timelines: [LaunchTimeline], budget: LaunchBudget, frameBudget: Double) -> [Finding] {
        var findings: [Finding] = []
        let runs = timelines.count
        for (hook, limit) in budget.hooksMs.sorted(by: { $0.key < $1.key }) {
            guard let phase = Phase(rawValue: hook) else { continue }
            let values = timelines.compactMap { $0.milliseconds(phase) }
            guard !values.isEmpty else { continue }
            let cost = median(values)
            guard cost > limit else { continue }
            findings.append(Finding(
                rule: "hook-over-budget", severity: .critical, span: hook, file: nil, line: nil,
                medianMs: cost, spanMedianMs: cost, runsAppeared: values.filter { $0 > limit }.count, runsTotal: runs,
                budgetShare: cost / frameBudget,
                recommendation: "\(hook) takes \(Milliseconds.text(cost)) against its budget of \(Milliseconds.text(limit)) (median of \(values.count) runs): "
                    + "return sooner — a hook that blocks too long gets the app killed by the watchdog"))
        }
        for (name, limit) in budget.spansMs.sorted(by: { $0.key < $1.key }) {
            let values = timelines.map { $0.mainThreadMilliseconds(named: name) }
            let cost = median(values)
            guard cost > limit, let span = timelines.lazy.flatMap(\.mainThreadSpans).first(where: { $0.name == name }) else { continue }
            findings.append(Finding(
                rule: "span-over-budget", severity: .critical, span: name, file: span.file, line: span.line,
                medianMs: cost, spanMedianMs: cost, runsAppeared: values.filter { $0 > limit }.count, runsTotal: runs,
                budgetShare: cost / frameBudget,
                recommendation: "\(name) takes \(Milliseconds.text(cost)) against its budget of \(Milliseconds.text(limit)): make it cheaper or move it"))
        }
        let background = timelines.compactMap { $0.milliseconds(.timeToBackgroundReady) }
        if !background.isEmpty, median(background) > budget.backgroundTimeToFirstFrameMs {
            let cost = median(background)
            findings.append(Finding(
                rule: "background-launch-over-limit", severity: .critical, span: "timeToBackgroundReady", file: nil, line: nil,
                medianMs: cost, spanMedianMs: cost,
                runsAppeared: background.filter { $0 > budget.backgroundTimeToFirstFrameMs }.count, runsTotal: runs,
                budgetShare: cost / budget.backgroundTimeToFirstFrameMs,
                recommendation: "a background launch takes \(Milliseconds.text(cost)) to finish its hooks against a limit of "
                    + "\(Milliseconds.text(budget.backgroundTimeToFirstFrameMs)): background execution time is short, so do only what this launch reason needs"))
        }
        return findings
    }

    static func blockingAdvice(_ kind: String) -> (rule: String, what: String, fix: String) {
        switch kind {
        case "disk": return ("main-thread-disk-io", "disk I/O", "move")
        case "network": return ("main-thread-network", "network request", "move")
        case "lock": return ("main-thread-lock-wait", "lock/semaphore wait", "move")
        case "sleep": return ("main-thread-sleep", "sleep", "remove or move")
        default: return ("main-thread-blocked", "blocking work", "move")
        }
    }

    static func kindPhrase(_ kind: String) -> String {
        switch kind {
        case "disk": return "disk I/O"
        case "network": return "the network"
        case "lock": return "a lock or semaphore"
        case "sleep": return "a sleep"
        default: return "something the sampler could not name"
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

    /// The median, 0 for no values.
    static func median(_ values: [Double]) -> Double {
        values.isEmpty ? 0 : Summary.quantile(sorted: values.sorted(), 0.5)
    }
}

extension Finding {
    static func short(_ file: String) -> String {
        file.split(separator: "/").last.map(String.init) ?? file
    }
}
