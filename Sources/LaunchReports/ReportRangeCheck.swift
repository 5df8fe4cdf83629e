import LaunchAnalysis
import LaunchTracing

/// The range checks of the numbers in a stored report, run once it is decoded
/// (`report`, `compare --base-report`, `merge`, baselines all read through
/// ``JSONReport``): a duration is a finite number of milliseconds from 0 to
/// one hour (``LaunchBudget/maximumMilliseconds``, as budgets and effects are;
/// a run's own durations up to the report's `--timeout` when that is longer),
/// a shift or interval bound is finite and at most that far from 0, and a
/// percentage or statistic is finite. Rendering never traps on any `Double`;
/// these checks refuse what no launchprof wrote, naming the file and the field.
struct ReportRangeCheck {
    /// The file the report was read from, named in the error.
    let file: String

    /// One hour in milliseconds: the largest budget, effect or duration.
    static let oneHour = LaunchBudget.maximumMilliseconds

    /// `report`, or ``ReportError/malformed(path:problem:)`` naming the first field out of range.
    func check(_ report: MeasurementReport, at prefix: String = "") throws(ReportError) {
        let configuration = report.configuration
        let timeout = configuration.timeoutSeconds
        guard timeout.isFinite, timeout > 0 else {
            throw refused(
                timeout, at: prefix + "configuration.timeoutSeconds", "must be a finite number of seconds above 0")
        }
        try budget(configuration.budget, at: prefix + "configuration.budget")
        // A launch may run up to its own timeout.
        let runLimit = max(Self.oneHour, timeout * 1_000)
        for (index, run) in report.runs.enumerated() {
            let field = "\(prefix)runs[\(index)]"
            try duration(run.timeToReadyMs, at: field + ".timeToReadyMs", limit: runLimit)
            try duration(run.timeToExitMs, at: field + ".timeToExitMs", limit: runLimit)
        }
        let profile = report.profile
        for (index, phase) in profile.phases.enumerated() {
            try summary(phase.summary, at: "\(prefix)profile.phases[\(index)].summary", limit: runLimit)
        }
        for (index, span) in profile.spans.enumerated() {
            try summary(span.summary, at: "\(prefix)profile.spans[\(index)].summary", limit: runLimit)
        }
        if let cpu = profile.cpuTime {
            try summary(cpu.total, at: prefix + "profile.cpuTime.total", limit: .infinity)
            try summary(cpu.user, at: prefix + "profile.cpuTime.user", limit: .infinity)
            try summary(cpu.system, at: prefix + "profile.cpuTime.system", limit: .infinity)
        }
        for (index, finding) in profile.findings.enumerated() {
            let field = "\(prefix)profile.findings[\(index)]"
            try duration(finding.medianMs, at: field + ".medianMs", limit: runLimit)
            try duration(finding.spanMedianMs, at: field + ".spanMedianMs", limit: runLimit)
            try finite(finding.budgetShare, at: field + ".budgetShare")
        }
        for (index, check) in profile.verdict.checks.enumerated() {
            let field = "\(prefix)profile.verdict.checks[\(index)]"
            try duration(check.medianMs, at: field + ".medianMs", limit: runLimit)
            try duration(check.budgetMs, at: field + ".budgetMs")
        }
    }

    /// `report` and both of its sides, or ``ReportError/malformed(path:problem:)``.
    func check(_ report: ComparisonReport) throws(ReportError) {
        try check(report.base, at: "base.")
        try check(report.head, at: "head.")
        // The longest either side's launches may run (their own --timeout, when over an hour).
        let runLimit =
            [report.base, report.head].map { max(Self.oneHour, $0.configuration.timeoutSeconds * 1_000) }.max()
            ?? Self.oneHour
        let settings = report.settings
        try duration(settings.minimumEffectMs, at: "settings.minimumEffectMs")
        try percent(settings.minimumEffectPercent, at: "settings.minimumEffectPercent")
        guard settings.alpha.isFinite, settings.alpha > 0, settings.alpha < 1 else {
            throw refused(settings.alpha, at: "settings.alpha", "must be above 0 and below 1")
        }
        for (index, metric) in report.metrics.enumerated() {
            let field = "metrics[\(index)]"
            // Time metrics may run as long as a launch may; CPU time (every thread's) has no such limit.
            let limit = metric.id == .cpuTime ? Double.infinity : runLimit
            for (position, value) in metric.baseMs.enumerated() {
                try duration(value, at: "\(field).baseMs[\(position)]", limit: limit)
            }
            for (position, value) in metric.headMs.enumerated() {
                try duration(value, at: "\(field).headMs[\(position)]", limit: limit)
            }
            try shift(metric.shiftMs, at: field + ".shiftMs", limit: limit)
            for (position, value) in metric.intervalMs.bounds.enumerated() {
                try bound(value, at: "\(field).intervalMs[\(position)]", limit: limit)
            }
            try finite(metric.shiftPercent, at: field + ".shiftPercent")
            for (position, value) in metric.intervalPercent.bounds.enumerated() where !value.isInfinite {
                try finite(value, at: "\(field).intervalPercent[\(position)]")
            }
            // A metric's own least effect: NaN in a version-1 report (it had none), +∞ where the
            // base median is not positive (no shift can clear it), and above the flag's 1000 % for a
            // very short metric whose floor is absolute; never negative.
            if !metric.minimumEffectPercent.isNaN, !(metric.minimumEffectPercent >= 0) {
                throw refused(metric.minimumEffectPercent, at: field + ".minimumEffectPercent", "must be 0 or more")
            }
            for (name, value) in [
                ("pValue", metric.pValue), ("adjustedPValue", metric.adjustedPValue),
                ("slowerPValue", metric.slowerPValue),
            ] {
                try probability(value, at: "\(field).\(name)")
            }
            // A version-1 report had no pass test: NaN there.
            if !metric.passPValue.isNaN { try probability(metric.passPValue, at: field + ".passPValue") }
            try finite(metric.mannWhitneyU, at: field + ".mannWhitneyU")
            if let fleet = metric.fleet { try self.fleet(fleet, at: field + ".fleet", limit: limit) }
        }
        if let fleet = report.fleet { try self.fleet(fleet, at: "fleet", limit: Self.oneHour) }
        for (name, changes) in [
            ("new", report.changes.new), ("gone", report.changes.gone), ("moved", report.changes.moved),
        ] {
            for (index, change) in changes.enumerated() {
                try duration(change.baseMs, at: "changes.\(name)[\(index)].baseMs")
                try duration(change.headMs, at: "changes.\(name)[\(index)].headMs")
            }
        }
        for (index, change) in report.changes.spans.enumerated() {
            try duration(change.baseMs, at: "changes.spans[\(index)].baseMs")
            try duration(change.headMs, at: "changes.spans[\(index)].headMs")
        }
    }

    private func budget(_ budget: LaunchBudget, at field: String) throws(ReportError) {
        try duration(budget.timeToFirstFrameMs, at: field + ".timeToFirstFrameMs")
        try duration(budget.backgroundTimeToFirstFrameMs, at: field + ".backgroundTimeToFirstFrameMs")
        for (hook, value) in budget.hooksMs.sorted(by: { $0.key.rawValue < $1.key.rawValue }) {
            try duration(value, at: "\(field).hooks.\(hook.rawValue)")
        }
        for (span, value) in budget.spansMs.sorted(by: { $0.key < $1.key }) {
            try duration(value, at: "\(field).spans.\(span)")
        }
        try duration(budget.minimumEffectMs, at: field + ".minimumEffect.milliseconds")
        if let percent = budget.minimumEffectPercent { try self.percent(percent, at: field + ".minimumEffect.percent") }
    }

    private func summary(_ summary: Summary, at field: String, limit: Double) throws(ReportError) {
        for (name, value) in [
            ("min", summary.min), ("max", summary.max), ("mean", summary.mean), ("median", summary.median),
            ("p90", summary.p90), ("p95", summary.p95), ("standardDeviation", summary.standardDeviation),
            ("mad", summary.medianAbsoluteDeviation),
        ] {
            try duration(value, at: "\(field).\(name)", limit: limit)
        }
        try duration(
            summary.medianConfidenceInterval.lowerBound, at: field + ".medianConfidenceInterval[0]", limit: limit)
        try duration(
            summary.medianConfidenceInterval.upperBound, at: field + ".medianConfidenceInterval[1]", limit: limit)
        try probability(summary.medianConfidenceLevel, at: field + ".medianConfidenceLevel")
    }

    private func fleet(_ fleet: FleetComparison, at field: String, limit: Double) throws(ReportError) {
        for (index, machine) in fleet.machines.enumerated() {
            try duration(machine.baseMedianMs, at: "\(field).machines[\(index)].baseMedianMs", limit: limit)
            try duration(machine.headMedianMs, at: "\(field).machines[\(index)].headMedianMs", limit: limit)
            try shift(machine.shiftMs, at: "\(field).machines[\(index)].shiftMs", limit: limit)
            try finite(machine.shiftPercent, at: "\(field).machines[\(index)].shiftPercent")
        }
        if let statistic = fleet.statistic { try finite(statistic, at: field + ".statistic") }
        if let z = fleet.z { try finite(z, at: field + ".z") }
    }

    // MARK: - One number

    /// A duration: finite, 0 or more, at most `limit` milliseconds (absent is fine).
    private func duration(_ value: Double?, at field: String, limit: Double = Self.oneHour) throws(ReportError) {
        guard let value else { return }
        guard value.isFinite, value >= 0, value <= limit else {
            throw refused(
                value, at: field,
                "a duration must be a finite number of milliseconds from 0 to \(Self.limitText(limit))")
        }
    }

    /// A difference of two durations: finite, at most `limit` milliseconds from 0.
    private func shift(_ value: Double, at field: String, limit: Double) throws(ReportError) {
        guard value.isFinite, abs(value) <= limit else {
            throw refused(
                value, at: field,
                "a difference must be a finite number of milliseconds from -\(Self.limitText(limit)) to \(Self.limitText(limit))"
            )
        }
    }

    /// An interval's bound: a difference (``shift(_:at:limit:)``), or unbounded
    /// (±∞: the interval no data of that size can narrow, as the gate writes it).
    private func bound(_ value: Double, at field: String, limit: Double) throws(ReportError) {
        if value.isInfinite { return }
        try shift(value, at: field, limit: limit)
    }

    /// A least effect in percent: finite, from 0 to ``LaunchBudget/maximumEffectPercent``.
    private func percent(_ value: Double, at field: String) throws(ReportError) {
        guard value.isFinite, value >= 0, value <= LaunchBudget.maximumEffectPercent else {
            throw refused(
                value, at: field, "must be a finite percentage from 0 to \(Int(LaunchBudget.maximumEffectPercent))")
        }
    }

    /// A probability or level: from 0 to 1.
    private func probability(_ value: Double, at field: String) throws(ReportError) {
        guard value.isFinite, value >= 0, value <= 1 else {
            throw refused(value, at: field, "must be a number from 0 to 1")
        }
    }

    private func finite(_ value: Double, at field: String) throws(ReportError) {
        guard value.isFinite else { throw refused(value, at: field, "must be a finite number") }
    }

    private func refused(_ value: Double, at field: String, _ rule: String) -> ReportError {
        .malformed(path: file, problem: "'\(field)' is \(value): \(rule)")
    }

    private static func limitText(_ limit: Double) -> String {
        limit == oneHour ? "\(Int(oneHour)) (one hour)" : limit.isInfinite ? "any size" : "\(Int(limit))"
    }
}
