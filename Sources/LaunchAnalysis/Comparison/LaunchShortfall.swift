/// Too few launches for a comparison ever to decide: what there is, and how many
/// are needed.
///
/// ``GateSettings/shortfall(baseCount:headCount:gatedMetrics:stages:look:subject:)`` makes it;
/// ``ComparisonError/tooFewLaunches(_:)`` carries it to the caller (the command
/// line exits 2 with ``description``).
///
/// ```swift
/// if let short = GateSettings().shortfall(baseCount: 1, headCount: 1, gatedMetrics: 1, stages: [1], look: 0) {
///     print(short)  // 1 base and 1 head launch(es) … at least 5 per side are needed
/// }
/// ```
public struct LaunchShortfall: Sendable, Equatable, CustomStringConvertible {
    /// The metric (or `machine 'NAME'` of a fleet comparison) that has too few.
    public var subject: String
    /// Launches on the base side.
    public var baseCount: Int
    /// Launches on the head side.
    public var headCount: Int
    /// Launches needed on each side.
    public var neededPerSide: Int
    /// Why that many: the level the test must reach, or the fleet rule.
    public var reason: String

    /// One line: what there is, how many are needed, and why.
    public var description: String {
        "\(subject): \(baseCount) base and \(headCount) head launch(es) are too few: at least \(neededPerSide) per side are needed (\(reason))"
    }
}

extension GateSettings {
    /// The fewest launches per machine and side a fleet comparison takes a machine with.
    ///
    /// Below 5 no machine's own Mann–Whitney test can reach 1 % (1/C(8, 4) = 1/70), and
    /// the stratified interval's coverage is shown (in `GateAuditTests.fleetCoverage`) from 5 on.
    public static let minimumLaunchesPerMachine = 5

    /// The one-sided level each test of look `look` (0-based) of `stages` must be
    /// able to reach: that look's share of α (``AlphaSpending``) / gated metrics
    /// (Holm's first step). No stages is one look at α whole.
    ///
    /// ```swift
    /// GateSettings().smallestLevel(gatedMetrics: 8, stages: [20, 40, 60], look: 0)  // 0.01 / 27 / 8
    /// ```
    public func smallestLevel(gatedMetrics: Int, stages: [Int], look: Int) -> Double {
        AlphaSpending.level(alpha: alpha, stages: stages, look: look) / Double(max(gatedMetrics, 1))
    }

    /// Why `baseCount` against `headCount` launches can never decide at look `look`
    /// of `stages`, or nil when they can.
    ///
    /// The most extreme ordering (every head launch beyond every base launch) gives
    /// the exact one-sided test its smallest p-value, 1/C(n+m, n); with n = m that is
    /// below ``smallestLevel(gatedMetrics:stages:look:)`` from ``minimumRuns(level:)``
    /// launches a side. The count is required of each side, not of both together: a
    /// single head launch against a hundred could otherwise decide (1/101 < 0.01), on
    /// one launch of the program under test. So every form needs that many on each side.
    ///
    /// ```swift
    /// GateSettings().shortfall(baseCount: 7, headCount: 7, gatedMetrics: 9, stages: [7, 14, 21], look: 0)?.neededPerSide  // 9
    /// GateSettings().shortfall(baseCount: 100, headCount: 1, gatedMetrics: 1, stages: [100], look: 0)?.neededPerSide  // 5
    /// ```
    public func shortfall(
        baseCount: Int, headCount: Int, gatedMetrics: Int, stages: [Int], look: Int, subject: String = "the comparison"
    ) -> LaunchShortfall? {
        let level = smallestLevel(gatedMetrics: gatedMetrics, stages: stages, look: look)
        let n = max(baseCount, 0)
        let m = max(headCount, 0)
        let needed = Self.minimumRuns(level: level)
        if level > 0, min(n, m) >= needed { return nil }
        let looks = max(stages.count, 1)
        let index = min(max(look, 0), looks - 1)
        let share =
            stages.count > 1
            ? "α \(Self.levelText(alpha))'s share at look \(index + 1) of \(looks) (α·t³, t = \(stages[index])/\(stages.max() ?? 0))"
            : "α \(Self.levelText(alpha)) at one look"
        return LaunchShortfall(
            subject: subject, baseCount: n, headCount: m, neededPerSide: needed,
            reason:
                "no test could reach the level \(Self.levelText(level)): \(share), over \(max(gatedMetrics, 1)) gated metric(s)"
        )
    }

    /// The first look of `stages` whose launches per side could never decide with
    /// `gatedMetrics` gated metrics at its share of α, or nil when every look can:
    /// the check `compare` makes before launching anything.
    ///
    /// ```swift
    /// GateSettings().shortStage(stages: [6, 12, 18], gatedMetrics: 1)?.neededPerSide  // 7: the first look tests at 0.01/27
    /// GateSettings().shortStage(stages: [20, 40, 60], gatedMetrics: 1)                 // nil
    /// ```
    public func shortStage(stages: [Int], gatedMetrics: Int) -> LaunchShortfall? {
        for (index, stage) in stages.enumerated() {
            if let short = shortfall(
                baseCount: stage, headCount: stage, gatedMetrics: gatedMetrics, stages: stages, look: index,
                subject: "the look at \(stage) launches per side")
            {
                return short
            }
        }
        return nil
    }

    /// A level in plain decimals to two significant digits (0.00037, 0.0000051), so a
    /// small share of α reads as a number and not as `5e-06`.
    static func levelText(_ value: Double) -> String {
        guard value.isFinite, value > 0, value < 1 else { return Milliseconds.fixed(value, decimals: 2) }
        var exponent = 0
        var scaled = value
        while scaled < 10 {
            scaled *= 10
            exponent += 1
        }  // value = scaled · 10^−exponent, scaled in [10, 100)
        var digits = Int(scaled.rounded())
        if digits == 100 {
            digits = 10
            exponent -= 1
        }
        var text = "0." + String(repeating: "0", count: max(exponent - 2, 0)) + String(digits)
        if exponent < 2 { text = String(digits / 10) + "." + String(digits % 10) }
        while text.hasSuffix("0") { text.removeLast() }
        if text.hasSuffix(".") { text.removeLast() }
        return text
    }
}
