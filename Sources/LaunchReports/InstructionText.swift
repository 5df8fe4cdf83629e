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
        statistics.functions.prefix(limit).map { "\($0.name)  \(count($0.inclusiveMedian)) inclusive, \(count($0.selfMedian)) self" }
    }

    /// The functions whose instructions changed most between base and head.
    public static func changes(_ comparison: InstructionComparison, limit: Int = 8) -> [String] {
        comparison.functions.prefix(limit).map { change in
            let sign = change.change > 0 ? "+" : "−"
            let label = change.baseInclusive == 0 ? "new" : change.headInclusive == 0 ? "gone" : "\(count(change.baseInclusive)) → \(count(change.headInclusive))"
            return "\(change.name)  \(sign)\(count(abs(change.change)))  (\(label))"
        }
    }

    /// A fraction as a percentage: `1.95 %`, `< 0.01 %` for the spreads repeatable counts have.
    public static func percent(_ fraction: Double) -> String {
        let value = fraction * 100
        if value == 0 { return "0 %" }
        if abs(value) < 0.01 { return value > 0 ? "< 0.01 %" : "> −0.01 %" }
        return Milliseconds.twoDecimals(value) + " %"
    }
}
