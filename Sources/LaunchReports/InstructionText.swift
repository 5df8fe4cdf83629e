import LaunchAnalysis

/// How every format describes instruction counts (a launch counted under valgrind).
public enum InstructionText {
    /// 1234567 → `1.23 M`; exact below 10,000.
    public static func count(_ value: Double) -> String {
        guard value.isFinite else { return "—" }
        let magnitude = abs(value)
        if magnitude >= 1e9 { return Milliseconds.twoDecimals(value / 1e9) + " G" }
        if magnitude >= 1e6 { return Milliseconds.twoDecimals(value / 1e6) + " M" }
        if magnitude >= 1e4 { return Milliseconds.oneDecimal(value / 1e3) + " k" }
        return String(Int64(value.rounded()))
    }

    /// The headline: what was counted, its median, and how repeatable it was.
    public static func headline(_ statistics: InstructionStatistics) -> String {
        "\(statistics.gatedDescription): \(count(statistics.gated.median)) (median of \(statistics.gated.count) counted "
            + "launches, \(statistics.valgrindVersion)); identical launches differed by \(percent(statistics.spread))"
    }

    /// `loader 1.20 M · staticInit 310 k · …`: the main thread's phases.
    public static func phases(_ statistics: InstructionStatistics) -> String? {
        let shown = Phase.allCases.filter { !$0.isTotal }.compactMap { phase in
            statistics.phases[phase].map { "\(phase.rawValue) \(count($0))" }
        }
        return shown.isEmpty ? nil : "main thread by phase: " + shown.joined(separator: " · ")
    }

    /// The `limit` functions that ran the most instructions, inclusive.
    public static func functions(_ statistics: InstructionStatistics, limit: Int = 5) -> [String] {
        statistics.functions.prefix(limit).map {
            "\($0.name)  \(count($0.inclusiveMedian)) inclusive, \(count($0.selfMedian)) self"
        }
    }

    /// The functions whose instructions changed most between base and head.
    public static func changes(_ comparison: InstructionComparison, limit: Int = 8) -> [String] {
        comparison.functions.prefix(limit).map(line)
    }

    /// The functions whose inclusive instructions grew (`grew: true`) or shrank most, largest change first.
    public static func changes(_ comparison: InstructionComparison, grew: Bool, limit: Int = 8) -> [String] {
        comparison.functions.filter { grew ? $0.change > 0 : $0.change < 0 }.prefix(limit).map(line)
    }

    /// One function's change: `rank(_:)  +12.3 M  (1.20 M → 13.5 M)  Sources/SampleApp/Recommendations.swift`.
    static func line(_ change: InstructionComparison.FunctionChange) -> String {
        let sign = change.change > 0 ? "+" : "−"
        let label =
            change.baseInclusive == 0
            ? "new"
            : change.headInclusive == 0 ? "gone" : "\(count(change.baseInclusive)) → \(count(change.headInclusive))"
        let file = change.file.map { "  " + $0 } ?? ""
        return "\(change.name)  \(sign)\(count(abs(change.change)))  (\(label))\(file)"
    }

    /// The lines of a comparison's instruction section, in the order every format shows them:
    /// the decision, the phases, then the functions that grew and those that shrank (each list headed).
    public static func comparisonLines(_ report: ComparisonReport) -> (
        summary: [String], grew: [String], shrank: [String]
    )? {
        guard let instructions = report.instructions else { return nil }
        var summary = [instructions.summary]
        if let phases = phaseChanges(base: report.base.profile.instructions, head: report.head.profile.instructions) {
            summary.append(phases)
        }
        return (summary, changes(instructions, grew: true), changes(instructions, grew: false))
    }

    /// The instructions cell of a phase table's row for `phase` (nil: the row of the
    /// process tree's CPU time, which every thread's and process's count goes beside);
    /// `""` where nothing was counted for it. An uninstrumented program's count to
    /// its exit goes beside its ready and exit times.
    public static func cell(_ statistics: InstructionStatistics, phase: Phase?) -> String {
        guard let phase else { return count(statistics.totalMedian) }
        if let value = statistics.phases[phase] { return count(value) }
        if statistics.phases.isEmpty, phase == .timeToReady || phase == .timeToExit {
            return count(statistics.gated.median)
        }
        return ""
    }

    /// `a counted launch took 34.2× a timed one's wall time (27.8× its CPU time)`: what counting cost.
    public static func cost(_ report: MeasurementReport) -> String? {
        guard let slowdown = report.countedSlowdown, slowdown.wall != nil || slowdown.cpu != nil else { return nil }
        let wall = slowdown.wall.map { Milliseconds.oneDecimal($0) + "× a timed one's wall time" }
        let cpu = slowdown.cpu.map { Milliseconds.oneDecimal($0) + "× its CPU time" }
        return "a counted launch took " + [wall, cpu].compactMap { $0 }.joined(separator: ", ") + " (medians)"
    }

    /// The heading of that column.
    public static let column = "instructions"

    /// `main thread by phase: loader 1.20 M → 1.21 M · didFinishLaunching 310 M → 420 M (+35.48%)`: the phases
    /// counted on both sides, base → head medians.
    public static func phaseChanges(base: InstructionStatistics?, head: InstructionStatistics?) -> String? {
        guard let base, let head else { return nil }
        let shown = Phase.allCases.filter { !$0.isTotal }.compactMap { phase -> String? in
            guard let a = base.phases[phase], let b = head.phases[phase] else { return nil }
            let change = a > 0 && a != b ? " (\(signedPercent(b / a - 1)))" : ""
            return "\(phase.rawValue) \(count(a)) → \(count(b))\(change)"
        }
        return shown.isEmpty ? nil : "main thread by phase, base → head: " + shown.joined(separator: " · ")
    }

    /// What decided a comparison, when `--metric` asked for more than wall time: `decided by: instructions`.
    public static func decidedBy(_ report: ComparisonReport) -> String? {
        guard let names = report.decidedBy, !names.isEmpty else { return nil }
        let asked = report.decidingMetrics.map { " (--metric " + $0.map(\.rawValue).joined(separator: ",") + ")" } ?? ""
        return "decided by: " + names.joined(separator: ", ") + asked
    }

    /// How the instruction count was gated, for the comparison's instruction section.
    public static func ruleNote(_ report: ComparisonReport) -> String {
        let version =
            report.head.profile.instructions?.valgrindVersion ?? report.base.profile.instructions?.valgrindVersion
            ?? "valgrind"
        return
            "counted under callgrind (\(version)); its own rule, outside Holm: a regression when the medians differ by more than "
            + "the minimum effect and the spread of identical launches, a pass only when the change is below the minimum effect by "
            + "more than that spread, inconclusive otherwise"
    }

    /// `+1.95%`, `−0.30%`.
    static func signedPercent(_ fraction: Double) -> String {
        (fraction < 0 ? "−" : "+") + Milliseconds.twoDecimals(abs(fraction) * 100) + "%"
    }

    /// A fraction as a percentage: `1.95 %`, `< 0.01 %` for the spreads repeatable counts have.
    public static func percent(_ fraction: Double) -> String {
        let value = fraction * 100
        if value == 0 { return "0 %" }
        if abs(value) < 0.01 { return value > 0 ? "< 0.01 %" : "> −0.01 %" }
        return Milliseconds.twoDecimals(value) + " %"
    }
}
